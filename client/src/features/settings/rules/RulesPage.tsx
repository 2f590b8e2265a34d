import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../app/useFormat';
import { SelectField } from '../../../components/FormField';
import type { TKey } from '../../../i18n/keys';
import { SETTINGS_SAVED_MESSAGE_MS } from '../../../lib/constants';
import { intlLocale } from '../../../lib/format';
import type { ExpirationPolicy, ReturnOfSpentPoints, Settings } from '../../../lib/types';
import { useSaveSettingsMutation } from '../settingsApi';
import { CheckboxField } from '../shared/CheckboxField';
import { useFeedback } from '../../../app/feedback';
import { SaveActions } from '../shared/SaveActions';
import { SettingsFormPage } from '../shared/SettingsFormPage';
import { useTimedMessage } from '../shared/useTimedMessage';
import { MaintenanceCard } from './MaintenanceCard';
import {
  checkRules,
  EXPIRATION_POLICIES,
  isRuleVisible,
  RETURN_OF_SPENT_POINTS,
  RULE_BOUNDS,
  rulesFormValues,
  type NumericRule,
  type RuleProblem,
  type RulesFormValues,
} from './rulesForm';

const LABELS: Record<NumericRule, TKey> = {
  pointsPerPeso: 'settings.rules.pointsPerPeso',
  redemptionRate: 'settings.rules.redemptionRate',
  campaignMultiplier: 'settings.rules.campaignMultiplier',
  pointsExpirationDays: 'settings.rules.pointsExpirationDays',
  inactivityDays: 'settings.rules.inactivityDays',
  firstPurchaseBonusMultiplier: 'settings.rules.firstPurchaseBonusMultiplier',
  birthdayBonusMultiplier: 'settings.rules.birthdayBonusMultiplier',
  maxAccreditationsPerCustomerPerDay: 'settings.rules.maxAccreditationsPerCustomerPerDay',
  maxPointsPerCustomerPerDay: 'settings.rules.maxPointsPerCustomerPerDay',
  retentionYears: 'settings.rules.retentionYears',
  alertOperationsPerDay: 'settings.rules.alertOperationsPerDay',
};

const HINTS: Record<NumericRule, TKey> = {
  pointsPerPeso: 'settings.rules.pointsPerPesoHint',
  redemptionRate: 'settings.rules.redemptionRateHint',
  campaignMultiplier: 'settings.rules.campaignMultiplierHint',
  pointsExpirationDays: 'settings.rules.daysHint',
  inactivityDays: 'settings.rules.daysHint',
  firstPurchaseBonusMultiplier: 'settings.rules.multiplierHint',
  birthdayBonusMultiplier: 'settings.rules.multiplierHint',
  maxAccreditationsPerCustomerPerDay: 'settings.rules.maxAccreditationsPerCustomerPerDayHint',
  maxPointsPerCustomerPerDay: 'settings.rules.maxPointsPerCustomerPerDayHint',
  retentionYears: 'settings.rules.retentionYearsHint',
  alertOperationsPerDay: 'settings.rules.alertOperationsPerDayHint',
};

const POLICY_EXPLANATIONS: Record<ExpirationPolicy, TKey> = {
  none: 'settings.rules.explanations.none',
  fifo: 'settings.rules.explanations.fifo',
  inactivity: 'settings.rules.explanations.inactivity',
  calendar: 'settings.rules.explanations.calendar',
};

const RETURN_RULE_EXPLANATIONS: Record<ReturnOfSpentPoints, TKey> = {
  refuse: 'settings.rules.returnOfSpentPointsExplanations.refuse',
  negative: 'settings.rules.returnOfSpentPointsExplanations.negative',
};

/** Bounds as the hints and messages show them, with up to three decimals. */
function useBoundsParams(): (rule: NumericRule) => { min: string; max: string; step: string } {
  const { locale } = useFormat();
  return useMemo(() => {
    const format = new Intl.NumberFormat(intlLocale(locale), { maximumFractionDigits: 3 });
    return (rule: NumericRule) => {
      const bounds = RULE_BOUNDS[rule];
      return { min: format.format(bounds.min), max: format.format(bounds.max), step: format.format(bounds.step) };
    };
  }, [locale]);
}

/** The message for a value out of bounds or off its step. */
function useRuleProblemText(): (rule: NumericRule, problem: RuleProblem) => string {
  const { t } = useTranslation();
  const boundsParams = useBoundsParams();
  return (rule, problem) => {
    const params = { field: t(LABELS[rule]), ...boundsParams(rule) };
    return problem.kind === 'range' ? t('settings.rules.errorRange', params) : t('settings.rules.errorStep', params);
  };
}

function RuleField({
  rule,
  values,
  problem,
  onChange,
}: {
  rule: NumericRule;
  values: RulesFormValues;
  problem: RuleProblem | undefined;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const boundsParams = useBoundsParams();
  const problemText = useRuleProblemText();
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {t(LABELS[rule])}
      </label>
      <input
        id={id}
        name={rule}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        className="input"
        value={values[rule]}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className={problem ? 'field-error' : 'field-hint'}>
        {problem ? problemText(rule, problem) : t(HINTS[rule], boundsParams(rule))}
      </p>
    </div>
  );
}

function RulesForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const problemText = useRuleProblemText();
  const { locale } = useFormat();
  const [values, setValues] = useState<RulesFormValues>(() => rulesFormValues(settings, locale));
  const [problems, setProblems] = useState<Partial<Record<NumericRule, RuleProblem>>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, showSaved] = useTimedMessage(SETTINGS_SAVED_MESSAGE_MS);
  const [saveSettings, { isLoading }] = useSaveSettingsMutation();

  const set = <K extends keyof RulesFormValues>(key: K, value: RulesFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const check = checkRules(values);
    if (!check.ok) {
      setProblems(check.problems);
      setError(t('settings.rules.errorInvalid'));
      return;
    }
    setProblems({});
    setError(null);
    try {
      await saveSettings(check.update).unwrap();
      showSaved({ kind: 'success', text: t('settings.success') });
    } catch (failure) {
      setError(feedback.errorText(failure));
    }
  }

  const field = (rule: NumericRule) =>
    isRuleVisible(rule, values) ? (
      <RuleField rule={rule} values={values} problem={problems[rule]} onChange={(value) => set(rule, value)} />
    ) : null;

  // A bonus: its switch, then its multiplier while the switch is on.
  const bonus = (enable: 'enableFirstPurchaseBonus' | 'enableBirthdayBonus', multiplier: NumericRule) => (
    <div className="form-fields">
      <CheckboxField
        label={t(`settings.rules.${enable}`)}
        name={enable}
        checked={values[enable]}
        onChange={(checked) => set(enable, checked)}
      />
      {field(multiplier)}
    </div>
  );

  // Problems with fields the current choices hide are listed in the form error.
  const hiddenProblems = (Object.keys(problems) as NumericRule[]).filter((rule) => !isRuleVisible(rule, values));

  return (
    <form className="card settings-card" onSubmit={(event) => void submit(event)} noValidate aria-label={t('settings.rules.formLabel')}>
      <section className="settings-section" aria-label={t('settings.rules.earningTitle')}>
        <h2 className="settings-section-title">{t('settings.rules.earningTitle')}</h2>
        <div className="form-grid">
          {field('pointsPerPeso')}
          {field('redemptionRate')}
          {field('campaignMultiplier')}
        </div>
      </section>

      <section className="settings-section" aria-label={t('settings.rules.expirationTitle')}>
        <h2 className="settings-section-title">{t('settings.rules.expirationTitle')}</h2>
        <div className="form-grid">
          <SelectField
            label={t('settings.rules.expirationPolicy')}
            name="expirationPolicy"
            value={values.expirationPolicy}
            onChange={(value) => set('expirationPolicy', EXPIRATION_POLICIES.find((p) => p === value) ?? 'none')}
            options={EXPIRATION_POLICIES.map((policy) => ({ value: policy, label: t(`settings.rules.policies.${policy}`) }))}
          />
          {field('pointsExpirationDays')}
          {field('inactivityDays')}
        </div>
        <p className="settings-explanation" data-testid="policy-explanation">
          {t(POLICY_EXPLANATIONS[values.expirationPolicy])}
        </p>
      </section>

      <section className="settings-section" aria-label={t('settings.rules.bonusesTitle')}>
        <h2 className="settings-section-title">{t('settings.rules.bonusesTitle')}</h2>
        <div className="form-grid">
          {bonus('enableFirstPurchaseBonus', 'firstPurchaseBonusMultiplier')}
          {bonus('enableBirthdayBonus', 'birthdayBonusMultiplier')}
        </div>
      </section>

      <section className="settings-section" aria-label={t('settings.rules.returnsTitle')}>
        <h2 className="settings-section-title">{t('settings.rules.returnsTitle')}</h2>
        <div className="form-grid">
          <SelectField
            label={t('settings.rules.returnOfSpentPoints')}
            name="returnOfSpentPoints"
            value={values.returnOfSpentPoints}
            onChange={(value) => set('returnOfSpentPoints', RETURN_OF_SPENT_POINTS.find((rule) => rule === value) ?? 'refuse')}
            options={RETURN_OF_SPENT_POINTS.map((rule) => ({
              value: rule,
              label: t(`settings.rules.returnOfSpentPointsOptions.${rule}`),
            }))}
          />
        </div>
        <p className="settings-explanation" data-testid="return-rule-explanation">
          {t(RETURN_RULE_EXPLANATIONS[values.returnOfSpentPoints])}
        </p>
      </section>

      <section className="settings-section" aria-label={t('settings.rules.velocityTitle')}>
        <h2 className="settings-section-title">{t('settings.rules.velocityTitle')}</h2>
        <div className="form-grid">
          {field('maxAccreditationsPerCustomerPerDay')}
          {field('maxPointsPerCustomerPerDay')}
        </div>
        <p className="settings-explanation">{t('settings.rules.velocityExplanation')}</p>
      </section>

      <section className="settings-section" aria-label={t('settings.rules.retentionTitle')}>
        <h2 className="settings-section-title">{t('settings.rules.retentionTitle')}</h2>
        <div className="form-grid">{field('retentionYears')}</div>
        <p className="settings-explanation">{t('settings.rules.retentionExplanation')}</p>
      </section>
      <section className="settings-section" aria-label={t('settings.rules.alertsTitle')}>
        <h2 className="settings-section-title">{t('settings.rules.alertsTitle')}</h2>
        <div className="form-grid">{field('alertOperationsPerDay')}</div>
      </section>

      {error ? (
        <div className="notice tone-danger form-error" role="alert">
          <p>{error}</p>
          {hiddenProblems.length > 0 ? (
            <ul>
              {hiddenProblems.map((rule) => (
                <li key={rule}>
                  {problemText(rule, problems[rule]!)}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      <SaveActions saved={saved} saving={isLoading} label={t('settings.rules.save')} />
    </form>
  );
}

/** /settings/rules (admin): the program rules and the maintenance card. */
export function RulesPage() {
  const { t } = useTranslation();
  return (
    <SettingsFormPage
      title={t('settings.rules.title')}
      subtitle={t('settings.rules.subtitle')}
      form={(settings) => <RulesForm settings={settings} />}
    >
      <MaintenanceCard />
    </SettingsFormPage>
  );
}
