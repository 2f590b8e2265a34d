// The program-rules form (docs/screens.md, "Forms"; the bounds in docs/decisions.md, "Settings"):
// numbers are kept as typed and converted on save (anything non-numeric becomes 0), then checked
// against their bounds and steps.

import type { Locale } from '../../../lib/format';
import type { ExpirationPolicy, ReturnOfSpentPoints, Settings } from '../../../lib/types';

export const EXPIRATION_POLICIES: readonly ExpirationPolicy[] = ['none', 'fifo', 'inactivity', 'calendar'];
export const RETURN_OF_SPENT_POINTS: readonly ReturnOfSpentPoints[] = ['refuse', 'negative'];

export type NumericRule =
  | 'pointsPerPeso'
  | 'redemptionRate'
  | 'campaignMultiplier'
  | 'pointsExpirationDays'
  | 'inactivityDays'
  | 'firstPurchaseBonusMultiplier'
  | 'birthdayBonusMultiplier'
  | 'maxAccreditationsPerCustomerPerDay'
  | 'maxPointsPerCustomerPerDay'
  | 'retentionYears'
  | 'alertOperationsPerDay';

export interface Bounds {
  min: number;
  max: number;
  step: number;
}

export const RULE_BOUNDS: Record<NumericRule, Bounds> = {
  pointsPerPeso: { min: 0.001, max: 1000, step: 0.001 },
  redemptionRate: { min: 1, max: 1_000_000, step: 1 },
  campaignMultiplier: { min: 1, max: 100, step: 0.5 },
  pointsExpirationDays: { min: 1, max: 36_500, step: 1 },
  inactivityDays: { min: 1, max: 36_500, step: 1 },
  firstPurchaseBonusMultiplier: { min: 1, max: 100, step: 0.1 },
  birthdayBonusMultiplier: { min: 1, max: 100, step: 0.1 },
  // Velocity limits (docs/points.md, "Velocity limits"): 0 is no limit.
  maxAccreditationsPerCustomerPerDay: { min: 0, max: 1_000_000, step: 1 },
  maxPointsPerCustomerPerDay: { min: 0, max: 1_000_000_000_000_000, step: 1 },
  // Retention (docs/privacy.md, "Retention"): 0 is off.
  retentionYears: { min: 0, max: 100, step: 1 },
  // The "over N operations a day" alert (docs/points.md, "Alerts"): 0 turns it off.
  alertOperationsPerDay: { min: 0, max: 1_000, step: 1 },
};

export const NUMERIC_RULES = Object.keys(RULE_BOUNDS) as NumericRule[];

export type RulesFormValues = Record<NumericRule, string> & {
  expirationPolicy: ExpirationPolicy;
  enableFirstPurchaseBonus: boolean;
  enableBirthdayBonus: boolean;
  returnOfSpentPoints: ReturnOfSpentPoints;
};

export type RulesUpdate = Pick<
  Settings,
  NumericRule | 'expirationPolicy' | 'enableFirstPurchaseBonus' | 'enableBirthdayBonus' | 'returnOfSpentPoints'
>;

/** A rule as its field shows it: the language's decimal mark (0,01 in Spanish), no grouping. */
export function ruleText(value: number, locale: Locale = 'es'): string {
  const text = String(value);
  return locale === 'es' ? text.replace('.', ',') : text;
}

export function rulesFormValues(settings: Settings, locale: Locale = 'es'): RulesFormValues {
  const numbers = Object.fromEntries(NUMERIC_RULES.map((key) => [key, ruleText(settings[key], locale)])) as Record<NumericRule, string>;
  return {
    ...numbers,
    expirationPolicy: EXPIRATION_POLICIES.find((p) => p === settings.expirationPolicy) ?? 'none',
    enableFirstPurchaseBonus: settings.enableFirstPurchaseBonus,
    enableBirthdayBonus: settings.enableBirthdayBonus,
    returnOfSpentPoints: RETURN_OF_SPENT_POINTS.find((rule) => rule === settings.returnOfSpentPoints) ?? 'refuse',
  };
}

/** What was typed as a number (with a decimal comma or point); anything non-numeric is 0. */
export function toRuleNumber(typed: string): number {
  const value = Number(typed.trim().replace(',', '.'));
  return typed.trim() !== '' && Number.isFinite(value) ? value : 0;
}

/** Whether the field is shown for the current choices (days by policy, multipliers by bonus). */
export function isRuleVisible(key: NumericRule, values: Pick<RulesFormValues, 'expirationPolicy' | 'enableFirstPurchaseBonus' | 'enableBirthdayBonus'>): boolean {
  switch (key) {
    case 'pointsExpirationDays':
      return values.expirationPolicy === 'fifo';
    case 'inactivityDays':
      return values.expirationPolicy === 'inactivity';
    case 'firstPurchaseBonusMultiplier':
      return values.enableFirstPurchaseBonus;
    case 'birthdayBonusMultiplier':
      return values.enableBirthdayBonus;
    default:
      return true;
  }
}

export type RuleProblem = { kind: 'range'; bounds: Bounds } | { kind: 'step'; bounds: Bounds };

/** A value outside its bounds, or not a whole number of steps from 0. */
export function checkRule(key: NumericRule, value: number): RuleProblem | undefined {
  const bounds = RULE_BOUNDS[key];
  if (value < bounds.min || value > bounds.max) return { kind: 'range', bounds };
  const steps = value / bounds.step;
  if (Math.abs(steps - Math.round(steps)) > 1e-6) return { kind: 'step', bounds };
  return undefined;
}

export type RulesCheck =
  | { ok: true; update: RulesUpdate }
  | { ok: false; problems: Partial<Record<NumericRule, RuleProblem>> };

/**
 * Converts and checks the form. Every rule is sent (hidden ones keep the values loaded); a hidden
 * field is checked too, since the server would refuse it all the same.
 */
export function checkRules(values: RulesFormValues): RulesCheck {
  const numbers = Object.fromEntries(NUMERIC_RULES.map((key) => [key, toRuleNumber(values[key])])) as Record<NumericRule, number>;
  const problems: Partial<Record<NumericRule, RuleProblem>> = {};
  for (const key of NUMERIC_RULES) {
    const problem = checkRule(key, numbers[key]);
    if (problem) problems[key] = problem;
  }
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return {
    ok: true,
    update: {
      ...numbers,
      expirationPolicy: values.expirationPolicy,
      enableFirstPurchaseBonus: values.enableFirstPurchaseBonus,
      enableBirthdayBonus: values.enableBirthdayBonus,
      returnOfSpentPoints: values.returnOfSpentPoints,
    },
  };
}
