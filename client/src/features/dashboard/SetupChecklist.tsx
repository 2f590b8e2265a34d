import { CheckCircleIcon, ExclamationCircleIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { useGetSetupProgressQuery, type SetupProgress } from './dashboardApi';

type Step = 'rules' | 'pointsOfSale' | 'users' | 'products';

const STEPS: readonly { id: Step; to: string; done: (progress: SetupProgress) => boolean }[] = [
  { id: 'rules', to: paths.settingsRules, done: (p) => p.rules },
  { id: 'pointsOfSale', to: paths.settingsPos, done: (p) => p.pointsOfSale > 0 },
  { id: 'users', to: paths.settingsUsers, done: (p) => p.users > 0 },
  { id: 'products', to: paths.settingsProducts, done: (p) => p.products > 0 },
];

/**
 * The admin's set-up checklist on the dashboard: the rules (without which the till refuses to
 * accredit or redeem), points of sale, staff and products. Shown until every step is done.
 */
export function SetupChecklist() {
  const { t } = useTranslation();
  const { data: progress } = useGetSetupProgressQuery();
  if (!progress || STEPS.every((step) => step.done(progress))) return null;
  return (
    <section className="card setup-checklist" aria-labelledby="setup-checklist-title">
      <h2 id="setup-checklist-title" className="card-title">
        {t('dashboard.setup.title')}
      </h2>
      <p className="setup-checklist-intro">{t('dashboard.setup.intro')}</p>
      <ul className="setup-checklist-steps">
        {STEPS.map((step) => {
          const done = step.done(progress);
          const Icon = done ? CheckCircleIcon : ExclamationCircleIcon;
          return (
            <li key={step.id} className={done ? 'setup-step setup-step-done' : 'setup-step'} data-testid={`setup-${step.id}`}>
              <Icon className="setup-step-icon" aria-hidden="true" />
              <span className="setup-step-text">
                {t(`dashboard.setup.${step.id}`)}{' '}
                <span className="visually-hidden">{done ? t('dashboard.setup.done') : t('dashboard.setup.pending')}</span>
              </span>
              {done ? null : (
                <Link to={step.to} className="btn btn-secondary btn-sm">
                  {t(`dashboard.setup.${step.id}Action`)}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
