// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { makeTransaction } from '../../test/pointsFixtures';
import { csvDate, transactionsCsv, type CsvLabels } from './reportCsv';

const labels: CsvLabels = {
  headers: ['ID', 'Fecha', 'Cajero', 'PDV', 'Documento', 'Nombre', 'Tipo', 'Descripción', 'Puntos', 'Factura', 'Redimido', 'Aprobada por'],
  type: (type) => ({ accreditation: 'Acreditación', redemption: 'Redención', expiration: 'Vencimiento', cancellation: 'Anulación', return: 'Devolución', forfeit: 'Pérdida por supresión', opening: 'Saldo inicial' })[type],
  description: (tx) => tx.description ?? '',
};

const lines = (csv: string) => csv.split('\r\n').filter((line) => line !== '');

describe('report CSV', () => {
  it('starts with the 12 column titles', () => {
    expect(lines(transactionsCsv([], labels))).toEqual([
      'ID,Fecha,Cajero,PDV,Documento,Nombre,Tipo,Descripción,Puntos,Factura,Redimido,Aprobada por',
    ]);
  });

  it('writes one row per transaction in the spec order', () => {
    const tx = makeTransaction({ id: 42, date: '2026-03-09T19:05:07Z', description: 'Compra', invoiceAmount: 50000, points: 500 });
    const [, row] = lines(transactionsCsv([tx], labels));
    expect(row).toBe(`42,${csvDate(tx.date)},caja1,Caja principal,1020304050,Ana María Gómez,Acreditación,Compra,500,50000,N/A,N/A`);
  });

  it('writes N/A for missing values and system for a missing cashier', () => {
    const expiration = makeTransaction({
      type: 'expiration',
      points: -300,
      cashierUsername: '',
      posName: null,
      description: null,
      invoiceAmount: null,
      redeemedValue: null,
    });
    const [, row] = lines(transactionsCsv([expiration], labels));
    const fields = row!.split(',');
    expect(fields[2]).toBe('system');
    expect(fields[3]).toBe('N/A');
    expect(fields[6]).toBe('Vencimiento');
    expect(fields[7]).toBe('N/A');
    expect(fields[8]).toBe('-300');
    expect(fields[9]).toBe('N/A');
    expect(fields[10]).toBe('N/A');
    expect(fields[11]).toBe('N/A');
    const blankCashier = lines(transactionsCsv([makeTransaction({ cashierUsername: '  ' })], labels))[1]!;
    expect(blankCashier.split(',')[2]).toBe('system');
  });

  it('quotes names and descriptions with commas, quotes or line breaks', () => {
    const tx = makeTransaction({
      type: 'redemption',
      customerName: 'Gómez, Ana',
      description: 'Taza "grande"\nroja',
      points: -1500,
      invoiceAmount: null,
      redeemedValue: 15000,
    });
    const csv = transactionsCsv([tx], labels);
    expect(csv).toContain(',"Gómez, Ana",Redención,"Taza ""grande""\nroja",-1500,N/A,15000,N/A\r\n');
  });

  it('names who approved a row in its last column', () => {
    const tx = makeTransaction({ id: 7, type: 'return', points: -25, invoiceAmount: 2500, approvedBy: 'super1', description: null });
    const [, row] = lines(transactionsCsv([tx], labels));
    expect(row!.split(',').slice(-4)).toEqual(['-25', '2500', 'N/A', 'super1']);
  });

  it('ends with the totals, returns as figures of their own', () => {
    const totals = {
      pointsAccredited: 100,
      pointsRedeemed: 0,
      invoiceAmount: 10000,
      redeemedValue: 0,
      pointsReturned: 25,
      returnedAmount: 2500,
    };
    const withTotals: CsvLabels = {
      ...labels,
      totals: {
        title: 'Totales',
        labels: {
          pointsAccredited: 'Acreditados',
          pointsRedeemed: 'Redimidos',
          invoiceAmount: 'Facturas',
          redeemedValue: 'Redimido',
          pointsReturned: 'Puntos devueltos',
          returnedAmount: 'Valor devuelto',
        },
      },
    };
    expect(lines(transactionsCsv([], withTotals, totals)).slice(-3)).toEqual([
      'Redimido,0',
      'Puntos devueltos,25',
      'Valor devuelto,2500',
    ]);
  });

  it('writes dates as local 24-hour time', () => {
    expect(csvDate('2026-03-09T19:05:07Z')).toMatch(/^2026-03-(09|10) \d{2}:05:07$/);
    expect(csvDate('not a date')).toBe('');
  });
});
