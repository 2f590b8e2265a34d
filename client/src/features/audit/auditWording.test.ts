import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, setupI18n } from '../../i18n';
import { paths } from '../../lib/paths';
import type { AuditEntry } from '../../lib/types';
import { KNOWN_ACTIONS, actionLabel, actorLabel, detailLines, entityOf } from './auditWording';

function entry(action: string, detail: Record<string, unknown>, more: Partial<AuditEntry> = {}): AuditEntry {
  return { id: 1, at: '2025-03-02T15:00:00Z', actor: 'admin', impersonatedBy: null, action, entity: null, entityId: null, detail, ...more };
}

beforeAll(() => {
  setupI18n('es');
});

describe('audit wording', () => {
  it('words every known action in both languages and shows an unknown one as its code', () => {
    for (const lang of ['es', 'en'] as const) {
      const t = i18n.getFixedT(lang);
      const labels = KNOWN_ACTIONS.map((action) => actionLabel(action, t));
      labels.forEach((label, index) => expect(label, KNOWN_ACTIONS[index]).not.toMatch(/^audit\.|\./));
      expect(new Set(labels).size).toBe(KNOWN_ACTIONS.length);
      expect(actionLabel('alert.dismiss', t)).toBe('alert.dismiss');
    }
    expect(actionLabel('transaction.return', i18n.getFixedT('es'))).toBe('Devolución registrada');
    expect(actionLabel('accreditation.override', i18n.getFixedT('en'))).toBe('Limit override approved');
  });

  it('shows a rule change as "field: old → new" and a permission change as what each role gained or lost', () => {
    const t = i18n.getFixedT('es');
    const rules = entry('settings.update', {
      changes: {
        pointsPerPeso: { from: 0.01, to: 0.02 },
        expirationPolicy: { from: 'none', to: 'fifo' },
        enableBirthdayBonus: { from: false, to: true },
        someFutureRule: { from: 0, to: 500 },
      },
    });
    expect(detailLines(rules, t)).toEqual([
      'Puntos por peso: 0.01 → 0.02',
      'Política de vencimiento: Sin vencimiento → Por lote (FIFO)',
      'Bono de cumpleaños: no → sí',
      'someFutureRule: 0 → 500',
    ]);
    const grid = entry('permissions.update', {
      before: { supervisor: ['/main', '/reportes'], cajero: ['/main'] },
      after: { supervisor: ['/main', '/redimir'], cajero: ['/main'] },
    });
    expect(detailLines(grid, i18n.getFixedT('en'))).toEqual(['Supervisor: now may open Redeem points; no longer may open Reports']);
  });

  it('names the user, the role and point of sale before and after, and links to the users list', () => {
    const t = i18n.getFixedT('en');
    const update = entry(
      'user.update',
      {
        username: 'ana',
        before: { role: 'cajero', posId: 1, posName: 'Centro' },
        after: { role: 'supervisor', posId: 1, posName: 'Centro' },
      },
      { entity: 'user', entityId: 7 },
    );
    expect(detailLines(update, t)).toEqual(['Role: Cashier → Supervisor']);
    expect(entityOf(update, t)).toEqual({ text: 'User ana #7', to: paths.settingsUsers });
  });

  it('shows a void with the supervisor who approved it, linked to the reports', () => {
    const t = i18n.getFixedT('es');
    const voided = entry('transaction.void', { type: 'accreditation', points: -100, approvedBy: 'jefe' }, { actor: 'caja1', entity: 'transaction', entityId: 12 });
    expect(detailLines(voided, t)).toEqual(['Acreditación anulada: -100 puntos', 'Aprobado por jefe']);
    expect(entityOf(voided, t)).toEqual({ text: 'Transacción #12', to: paths.reports });
  });

  it('says who acted, as which super admin, and words impersonations, locks and expiration runs', () => {
    const t = i18n.getFixedT('en');
    expect(actorLabel({ actor: 'admin', impersonatedBy: 'root' }, t)).toBe('admin (as super admin root)');
    expect(actorLabel({ actor: 'system', impersonatedBy: null }, t)).toBe('system');
    expect(detailLines(entry('impersonation.start', {}, { impersonatedBy: 'root' }), t)).toEqual(['Super admin root entered as admin']);
    expect(detailLines(entry('login.locked', { login: 'ana@acme', minutes: 15, via: 'login', address: '10.0.0.1' }), t)).toEqual([
      'ana@acme locked for 15 minutes after too many failed passwords',
      'From address 10.0.0.1',
    ]);
    expect(detailLines(entry('points.expire', { trigger: 'daily', policy: 'fifo', points: 300, customers: 2 }), t)).toEqual([
      'Daily run (Per batch (FIFO)): 300 points of 2 customers',
    ]);
    expect(detailLines(entry('some.future', { returnedAmount: 5000, approved: true }), t)).toEqual(['returnedAmount: 5000', 'approved: yes']);
  });
});
