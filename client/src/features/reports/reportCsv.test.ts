// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { makeTransaction } from '../../test/pointsFixtures';
import { csvDate, transactionsCsv, type CsvLabels } from './reportCsv';

const labels: CsvLabels = {
  headers: ['ID', 'Fecha', 'Cajero', 'PDV', 'Documento', 'Nombre', 'Tipo', 'Descripción', 'Puntos', 'Factura', 'Redimido'],
  type: (type) => ({ accreditation: 'Acreditación', redemption: 'Redención', expiration: 'Vencimiento', cancellation: 'Anulación', return: 'Devolución', forfeit: 'Pérdida por supresión', opening: 'Saldo inicial' })[type],
  description: (tx) => tx.description ?? '',
};

const lines = (csv: string) => csv.split('\r\n').filter((line) => line !== '');

describe('report CSV', () => {
  it('starts with the 11 column titles', () => {
    expect(lines(transactionsCsv([], labels))).toEqual(['ID,Fecha,Cajero,PDV,Documento,Nombre,Tipo,Descripción,Puntos,Factura,Redimido']);
  });

  it('writes one row per transaction in the spec order', () => {
    const tx = makeTransaction({ id: 42, date: '2026-03-09T19:05:07Z', description: 'Compra', invoiceAmount: 50000, points: 500 });
    const [, row] = lines(transactionsCsv([tx], labels));
    expect(row).toBe(`42,${csvDate(tx.date)},caja1,Caja principal,1020304050,Ana María Gómez,Acreditación,Compra,500,50000,N/A`);
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
    expect(csv).toContain(',"Gómez, Ana",Redención,"Taza ""grande""\nroja",-1500,N/A,15000\r\n');
  });

  it('writes dates as local 24-hour time', () => {
    expect(csvDate('2026-03-09T19:05:07Z')).toMatch(/^2026-03-(09|10) \d{2}:05:07$/);
    expect(csvDate('not a date')).toBe('');
  });
});
