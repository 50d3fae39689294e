/**
 * The plan cards of /gestion (spec 001 §2, §5, §9; issue 11): the monthly plan ("Más popular",
 * 19,99 € every 30 days, 35 days each) and the custom plan (0,90 € a day, 1 to 21 days, with the
 * live total). Prices come from plugins/billing/plans.ts, the amounts Charla charges. Paying asks
 * the server for a Stripe Checkout Session and goes to its address; a failure says "Error iniciando
 * el pago". Without payments on the server, the cards say to ask its operator instead.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CUSTOM_PLAN,
  customDaysProblem,
  customTotalCents,
  formatEur,
  MONTHLY_PLAN,
  monthlyCentsPerDay,
  type PlanId,
} from '../../../plugins/billing/plans.ts';
import { BillingError, startCheckout } from '../lib/billing.ts';
import { Alert } from './ui.tsx';

/** The two plan cards. */
export function PlanCards({
  paymentsEnabled,
  subscribed,
  onError,
}: {
  paymentsEnabled: boolean;
  /** A subscription renews: the monthly card shows it is the current plan. */
  subscribed: boolean;
  /** Shows an error text (the screen's alert area). */
  onError: (text: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState<PlanId | null>(null);
  const [daysText, setDaysText] = useState('7');
  const days = daysText.trim() === '' ? Number.NaN : Number(daysText);
  const problem = customDaysProblem(days);
  const eur = (cents: number) => formatEur(cents, i18n.language);

  async function pay(plan: PlanId) {
    setBusy(plan);
    try {
      window.location.assign(await startCheckout(plan, plan === 'custom' ? days : undefined, i18n.language));
    } catch (err) {
      const code = err instanceof BillingError ? err.code : 'checkout';
      onError(
        code === 'alreadySubscribed'
          ? t('gestion.errors.alreadySubscribed')
          : code === 'paymentsOff'
            ? t('gestion.plans.paymentsOff')
            : t('gestion.errors.checkout'),
      );
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="plans-title" className="space-y-3">
      <h2 id="plans-title" className="text-xl font-semibold">
        {t('gestion.plans.title')}
      </h2>
      {!paymentsEnabled ? (
        <p
          className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="payments-off"
        >
          {t('gestion.plans.paymentsOff')}
        </p>
      ) : null}
      <div className="grid gap-4 min-[700px]:grid-cols-2">
        <article
          aria-labelledby="plan-monthly"
          className="relative flex flex-col rounded-2xl border-2 border-brand-600 bg-white p-5 shadow-sm"
          data-testid="plan-monthly"
        >
          <span className="absolute -top-3 left-5 rounded-full bg-brand-700 px-3 py-0.5 text-xs font-semibold text-white">
            {t('gestion.plans.popular')}
          </span>
          <h3 id="plan-monthly" className="text-lg font-semibold">
            {t('gestion.plans.monthly.title')}
          </h3>
          <p className="mt-2">
            <span className="text-3xl font-bold">{eur(MONTHLY_PLAN.amountCents)}</span>{' '}
            <span className="text-sm text-slate-600">
              {t('gestion.plans.monthly.every', { days: MONTHLY_PLAN.billingDays })}
            </span>
          </p>
          <ul className="mt-3 flex-1 space-y-1 text-sm text-slate-700">
            <li>✓ {t('gestion.plans.monthly.days', { days: MONTHLY_PLAN.days })}</li>
            <li>
              ✓{' '}
              {t('gestion.plans.monthly.free', {
                free: MONTHLY_PLAN.days - MONTHLY_PLAN.billingDays,
                year: MONTHLY_PLAN.freeDaysPerYear,
              })}
            </li>
            <li>✓ {t('gestion.plans.monthly.perDay', { price: eur(monthlyCentsPerDay()) })}</li>
            <li>✓ {t('gestion.plans.monthly.features')}</li>
            <li>✓ {t('gestion.plans.monthly.renews')}</li>
          </ul>
          {paymentsEnabled ? (
            <button
              type="button"
              disabled={subscribed || busy !== null}
              onClick={() => void pay('monthly_35')}
              className="mt-4 w-full rounded-lg bg-brand-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-400"
            >
              {subscribed
                ? t('gestion.plans.monthly.current')
                : busy === 'monthly_35'
                  ? t('gestion.plans.redirecting')
                  : t('gestion.plans.monthly.button')}
            </button>
          ) : null}
        </article>

        <article
          aria-labelledby="plan-custom"
          className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
          data-testid="plan-custom"
        >
          <h3 id="plan-custom" className="text-lg font-semibold">
            {t('gestion.plans.custom.title')}
          </h3>
          <p className="mt-2">
            <span className="text-3xl font-bold">{eur(CUSTOM_PLAN.dayCents)}</span>{' '}
            <span className="text-sm text-slate-600">{t('gestion.plans.custom.perDay')}</span>
          </p>
          <p className="mt-1 text-sm text-slate-600">
            {t('gestion.plans.custom.text', { min: CUSTOM_PLAN.minDays, max: CUSTOM_PLAN.maxDays })}
          </p>
          <div className="mt-3 flex flex-1 flex-col gap-2">
            <label htmlFor="custom-days" className="text-sm font-medium text-slate-700">
              {t('gestion.plans.custom.daysLabel')}
            </label>
            <input
              id="custom-days"
              type="number"
              inputMode="numeric"
              min={CUSTOM_PLAN.minDays}
              max={CUSTOM_PLAN.maxDays}
              step={1}
              value={daysText}
              onChange={(e) => setDaysText(e.target.value)}
              aria-describedby="custom-total"
              className="w-32 rounded-lg border border-slate-300 px-3 py-2 text-base focus:border-brand-600 focus:ring-2 focus:ring-brand-100 focus:outline-none"
            />
            <p id="custom-total" className="text-sm" data-testid="custom-total" aria-live="polite">
              {problem
                ? null
                : t('gestion.plans.custom.total', {
                    count: days,
                    price: eur(CUSTOM_PLAN.dayCents),
                    total: eur(customTotalCents(days)),
                  })}
            </p>
            {problem === 'tooFew' || problem === 'notWhole' ? (
              <Alert tone="error">{t('gestion.plans.custom.tooFew')}</Alert>
            ) : null}
            {problem === 'tooMany' ? (
              <Alert tone="error">
                {t('gestion.plans.custom.tooMany', {
                  days: MONTHLY_PLAN.days,
                  price: eur(MONTHLY_PLAN.amountCents),
                })}
              </Alert>
            ) : null}
          </div>
          {paymentsEnabled ? (
            <button
              type="button"
              disabled={problem !== null || busy !== null}
              onClick={() => void pay('custom')}
              className="mt-4 w-full rounded-lg bg-brand-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-400"
            >
              {busy === 'custom'
                ? t('gestion.plans.redirecting')
                : problem
                  ? t('gestion.plans.custom.buttonIdle')
                  : t('gestion.plans.custom.button', { total: eur(customTotalCents(days)) })}
            </button>
          ) : null}
        </article>
      </div>
    </section>
  );
}
