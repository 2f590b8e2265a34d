// The words for an audit entry. The server records facts (an action's code and what it changed),
// never sentences: this module words them in the reader's language. An action this client does
// not know yet is shown as its code, its detail as "key: value" pairs.

import type { TFunction } from 'i18next';
import type { TKey } from '../../i18n/keys';
import { paths, type AppPath } from '../../lib/paths';
import type { AuditEntry } from '../../lib/types';

/** The actions this client words (docs/roles.md, "Audit trail"), in the filter's order. */
export const KNOWN_ACTIONS = [
  'settings.update',
  'permissions.update',
  'user.create',
  'user.update',
  'user.delete',
  'user.reactivate',
  'user.passwordReset',
  'user.passwordChange',
  'transaction.void',
  'transaction.return',
  'accreditation.override',
  'points.expire',
  'impersonation.start',
  'login.locked',
  'customer.create',
  'customer.update',
  'customer.delete',
  'customer.reactivate',
  'pos.create',
  'pos.update',
  'pos.delete',
  'pos.reactivate',
  'product.create',
  'product.update',
  'product.delete',
  'product.reactivate',
  'category.create',
  'category.update',
  'category.delete',
  'category.reactivate',
  'alert.review',
  'dataRequest.create',
  'dataRequest.extend',
  'dataRequest.incomplete',
  'dataRequest.complete',
  'dataRequest.answer',
  'dataRequest.close',
  'privacy.publish',
  'customer.consents',
  'customer.data_export',
  'customer.suppress',
  'customers.retention',
  'customer.import',
  'apiKey.create',
  'apiKey.revoke',
  'webhook.create',
  'webhook.delete',
  'webhook.enable',
  'webhook.resend',
] as const;

export type KnownAction = (typeof KNOWN_ACTIONS)[number];

function isKnown(action: string): action is KnownAction {
  return (KNOWN_ACTIONS as readonly string[]).includes(action);
}

/** `user.passwordReset` → `userPasswordReset`, `customer.data_export` → `customerDataExport`: the action's key under `audit.actions`. */
function actionKey(action: KnownAction): TKey {
  return `audit.actions.${action.replace(/[._](\w)/g, (_, first: string) => first.toUpperCase())}` as TKey;
}

/** The action in words; an unknown one as its code. */
export function actionLabel(action: string, t: TFunction): string {
  return isKnown(action) ? t(actionKey(action)) : action;
}

/** Who acted, in words: the user (or "system"), and the super admin behind an impersonation. */
export function actorLabel(entry: Pick<AuditEntry, 'actor' | 'impersonatedBy'>, t: TFunction): string {
  const actor = entry.actor === 'system' ? t('common.system') : entry.actor;
  return entry.impersonatedBy ? t('audit.asSuperAdmin', { actor, name: entry.impersonatedBy }) : actor;
}

const ENTITY_PATHS: Record<string, AppPath> = {
  transaction: paths.reports,
  user: paths.settingsUsers,
  pos: paths.settingsPos,
  customer: paths.settingsCustomers,
  product: paths.settingsProducts,
  category: paths.settingsCategories,
  settings: paths.settingsRules,
};

const ENTITY_KEYS: Record<string, TKey> = {
  transaction: 'audit.entities.transaction',
  user: 'audit.entities.user',
  pos: 'audit.entities.pos',
  customer: 'audit.entities.customer',
  product: 'audit.entities.product',
  category: 'audit.entities.category',
  settings: 'audit.entities.settings',
  expiration_run: 'audit.entities.expirationRun',
  login: 'audit.entities.login',
};

/** The record an entry is about, in words, and the screen that shows it, where there is one. */
export function entityOf(entry: AuditEntry, t: TFunction): { text: string; to?: AppPath } | null {
  if (!entry.entity) return null;
  const kindKey = ENTITY_KEYS[entry.entity];
  const kind = kindKey ? t(kindKey) : entry.entity;
  const name = text(entry.detail.name ?? entry.detail.username);
  const parts = [kind, name, entry.entityId != null ? `#${entry.entityId}` : ''].filter((part) => part !== '');
  const to = entry.action === 'permissions.update' ? paths.settingsPermissions : ENTITY_PATHS[entry.entity];
  return { text: parts.join(' '), to };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A recorded value in words: yes/no, a dash for nothing, lists joined. */
function valueText(value: unknown, t: TFunction): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? t('audit.values.yes') : t('audit.values.no');
  if (Array.isArray(value)) return value.map((item) => valueText(item, t)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A rule's name: the server's field names, with the two switches the field list lacks. */
function ruleLabel(field: string, t: TFunction): string {
  return t([`audit.ruleFields.${field}`, `fields.${field}`] as TKey[], { defaultValue: field });
}

function ruleValue(field: string, value: unknown, t: TFunction): string {
  if (field === 'expirationPolicy' && typeof value === 'string') {
    return t(`settings.rules.policies.${value}` as TKey, { defaultValue: value });
  }
  return valueText(value, t);
}

const SCREEN_KEYS: Record<string, TKey> = {
  '/main': 'settings.permissions.paths.main',
  '/accreditar': 'settings.permissions.paths.accredit',
  '/redimir': 'settings.permissions.paths.redeem',
  '/reportes': 'settings.permissions.paths.reports',
  '/settings/customers': 'settings.permissions.paths.customers',
  '/settings/products': 'settings.permissions.paths.products',
  '/settings/categories': 'settings.permissions.paths.categories',
};

function screens(list: unknown, t: TFunction): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((path) => {
    const key = SCREEN_KEYS[String(path)];
    return key ? t(key) : String(path);
  });
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function roleText(role: unknown, t: TFunction): string {
  return typeof role === 'string' ? t(`roles.${role}` as TKey, { defaultValue: role }) : '—';
}

/** A user's role and point of sale, each as "label: value" (or "label: old → new" when both sides differ). */
function userLines(before: Record<string, unknown> | null, after: Record<string, unknown>, t: TFunction): string[] {
  const pos = (side: Record<string, unknown>) => text(side.posName) || valueText(side.posId, t);
  const pairs: [string, string, string | null][] = [
    [t('fields.role'), roleText(after.role, t), before ? roleText(before.role, t) : null],
    [t('fields.posId'), pos(after), before ? pos(before) : null],
  ];
  return pairs
    .filter(([, now, old]) => old === null || old !== now)
    .map(([label, now, old]) => (old === null ? `${label}: ${now}` : `${label}: ${old} → ${now}`));
}

/** Every recorded value, as "key: value" lines (an action this client does not word). */
function pairs(detail: Record<string, unknown>, t: TFunction): string[] {
  return Object.entries(detail).map(([key, value]) => `${key}: ${valueText(value, t)}`);
}

/** What an entry recorded, as lines to show one under the other. */
export function detailLines(entry: AuditEntry, t: TFunction): string[] {
  const detail = entry.detail ?? {};
  switch (entry.action) {
    case 'settings.update':
      return Object.entries(record(detail.changes)).map(([field, change]) => {
        const { from, to } = record(change);
        return `${ruleLabel(field, t)}: ${ruleValue(field, from, t)} → ${ruleValue(field, to, t)}`;
      });
    case 'permissions.update': {
      const before = record(detail.before);
      const after = record(detail.after);
      return ['supervisor', 'cajero'].flatMap((role) => {
        const old = screens(before[role], t);
        const now = screens(after[role], t);
        const added = now.filter((screen) => !old.includes(screen));
        const removed = old.filter((screen) => !now.includes(screen));
        if (added.length === 0 && removed.length === 0) return [];
        const changes = [
          ...(added.length ? [t('audit.detail.granted', { screens: added.join(', ') })] : []),
          ...(removed.length ? [t('audit.detail.revoked', { screens: removed.join(', ') })] : []),
        ];
        return [`${t(`roles.${role}` as TKey)}: ${changes.join('; ')}`];
      });
    }
    case 'user.create':
    case 'user.reactivate':
      return userLines(null, record(detail.after), t);
    case 'user.update':
      return userLines(record(detail.before), record(detail.after), t);
    case 'user.delete':
    case 'customer.delete':
    case 'pos.delete':
    case 'product.delete':
    case 'category.delete':
      return [detail.kind === 'soft' ? t('audit.detail.deactivated') : t('audit.detail.deleted')];
    case 'user.passwordReset':
    case 'user.passwordChange':
    case 'customer.reactivate':
    case 'pos.create':
    case 'pos.update':
    case 'pos.reactivate':
    case 'category.create':
    case 'category.update':
    case 'category.reactivate':
    case 'product.reactivate':
      return [];
    case 'customer.create':
    case 'customer.update':
    case 'product.create':
    case 'product.update':
      return pairs(detail, t).map((line) => line.replace(/^document:/, `${t('fields.document')}:`).replace(/^code:/, `${t('fields.code')}:`));
    case 'transaction.void': {
      const type = text(detail.type);
      const lines = [
        t('audit.detail.void', {
          type: type ? t(`reports.types.${type}` as TKey, { defaultValue: type }) : '—',
          points: valueText(detail.points, t),
        }),
      ];
      if (detail.approvedBy) lines.push(t('audit.detail.approvedBy', { name: valueText(detail.approvedBy, t) }));
      return lines;
    }
    case 'points.expire':
      return [
        t(detail.trigger === 'daily' ? 'audit.detail.expireDaily' : 'audit.detail.expireManual', {
          policy: ruleValue('expirationPolicy', detail.policy, t),
          points: valueText(detail.points, t),
          customers: valueText(detail.customers, t),
        }),
      ];
    case 'impersonation.start':
      return [t('audit.detail.impersonation', { name: entry.impersonatedBy ?? '—', account: entry.actor })];
    case 'login.locked': {
      const lines = [t('audit.detail.locked', { login: valueText(detail.login, t), minutes: valueText(detail.minutes, t) })];
      if (detail.address) lines.push(t('audit.detail.address', { address: valueText(detail.address, t) }));
      if (detail.via === 'voidApproval') lines.push(t('audit.detail.viaVoidApproval'));
      return lines;
    }
    default:
      return pairs(detail, t);
  }
}
