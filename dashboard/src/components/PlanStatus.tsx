/**
 * The owner's plan on /main and /charla-web (issue 10, spec 001 §2): "Plan premium" (or "Plan
 * mensual") with "Ilimitado" or its days, "Días Restantes" and the count for days still running,
 * "Sin días" and 0 in red when the owner is not paid, and then the red warning that the bot is
 * paused (lib/plan.ts decides which, from the server's plan, daysRemaining and paid). The warning
 * links to Gestión once that screen exists (lib/features.ts); until then it says whom to ask.
 */
import { useTranslation } from 'react-i18next';
import { enabled } from '../lib/features.ts';
import { type PlanInfo, planStatus } from '../lib/plan.ts';

/** Spec 001 §2: the subscription screen, where days are renewed. */
const GESTION_PATH = '/gestion';

/** The plan's label and its value (days, "Ilimitado" or 0), as a label over a big figure. */
export function PlanSummary({ info, testId }: { info: PlanInfo; testId: string }) {
  const { t } = useTranslation();
  const status = planStatus(info);
  const label =
    status.kind === 'subscription'
      ? status.days === null
        ? t(`plan.${status.plan}`)
        : `${t(`plan.${status.plan}`)} · ${t('plan.daysRemaining')}`
      : status.kind === 'days'
        ? t('plan.daysRemaining')
        : t('plan.noDays');
  const value =
    status.kind === 'subscription'
      ? status.days === null
        ? t('plan.unlimited')
        : String(status.days)
      : status.kind === 'days'
        ? String(status.days)
        : '0';
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2" data-plan={status.kind}>
      <span className="text-sm text-slate-600" data-testid={`${testId}-label`}>
        {label}
      </span>
      <span
        className={`font-semibold ${status.kind === 'paused' ? 'text-red-700' : 'text-brand-700'} ${
          value.length > 4 ? 'text-lg' : 'text-2xl'
        }`}
        data-testid={testId}
      >
        {value}
      </span>
    </span>
  );
}

/** The red warning of a paused bot; nothing while the owner is paid. */
export function PausedWarning({ info, className = '' }: { info: PlanInfo; className?: string }) {
  const { t } = useTranslation();
  if (planStatus(info).kind !== 'paused') return null;
  return (
    <div
      role="alert"
      className={`space-y-1 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 ${className}`}
      data-testid="paused-warning"
    >
      <p className="font-semibold">{t('plan.paused')}</p>
      {enabled('gestion') ? (
        <a href={GESTION_PATH} className="font-semibold underline hover:no-underline">
          {t('plan.renew')}
        </a>
      ) : (
        <p>{t('plan.renewHelp')}</p>
      )}
    </div>
  );
}
