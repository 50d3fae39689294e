/**
 * `/gestion`, subscription and account management (spec 001 §2, §4, §5, §8, §9; issue 11): guarded.
 * The days counter and badge, the account's e-mail, id and state, the Telegram warning, "Suscripción
 * Activa" with the cancel-renewal button or the coupon field, the monthly and custom plan cards
 * (components/GestionPlans.tsx), the Facebots popup button, the history of what added days, and the
 * way back to /main. Back from Stripe (`?pago=ok|cancelado`) it shows the result; after a payment it
 * reloads the status for a short while, until the webhook has added the days.
 * Mobile layout below 700 px (spec 001 §9): one column.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppHeader } from '../components/AppHeader.tsx';
import { DaysCard, History, SubscriptionOrCoupon } from '../components/GestionAccount.tsx';
import { PlanCards } from '../components/GestionPlans.tsx';
import { Alert } from '../components/ui.tsx';
import { meQuery, requireSession } from '../lib/auth.ts';
import { BillingError, billingQuery } from '../lib/billing.ts';
import { enabled } from '../lib/features.ts';

/** Spec 000 §2: the public directory opens in a 1200 × 800 popup. */
const DIRECTORY_URL = '/facebots';
const POPUP_FEATURES = 'popup,width=1200,height=800';
/** After a payment, the status is reloaded this often (ms) and this many times, until the days arrive. */
const AFTER_PAYMENT_POLL_MS = 2000;
const AFTER_PAYMENT_POLLS = 15;

export const Route = createFileRoute('/gestion')({
  validateSearch: (search: Record<string, unknown>): { pago?: 'ok' | 'cancelado' } =>
    search.pago === 'ok' || search.pago === 'cancelado' ? { pago: search.pago } : {},
  beforeLoad: requireSession,
  component: Gestion,
});

function Gestion() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { pago } = Route.useSearch();
  const [polls, setPolls] = useState(pago === 'ok' ? AFTER_PAYMENT_POLLS : 0);
  const billing = useQuery({ ...billingQuery, refetchInterval: polls > 0 ? AFTER_PAYMENT_POLL_MS : false });
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (polls > 0 && billing.dataUpdatedAt) setPolls((n) => n - 1);
  }, [billing.dataUpdatedAt, polls]);

  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: billingQuery.queryKey });
    void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
  };
  const status = billing.data;

  return (
    <div className="min-h-dvh pb-16">
      <AppHeader />
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-6 min-[700px]:py-8">
        <div className="flex flex-col-reverse gap-3 min-[700px]:flex-row min-[700px]:items-start min-[700px]:justify-between">
          <div>
            <h1 className="text-2xl font-bold tracking-tight min-[700px]:text-3xl">{t('gestion.title')}</h1>
            <p className="mt-1 text-slate-600">{t('gestion.subtitle')}</p>
          </div>
          <Link
            to="/main"
            className="inline-flex w-fit shrink-0 items-center gap-1 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50"
          >
            <span aria-hidden="true">←</span> {t('gestion.back')}
          </Link>
        </div>

        {pago === 'ok' ? <Alert tone="success">{t('gestion.payment.ok')}</Alert> : null}
        {pago === 'cancelado' ? <Alert tone="info">{t('gestion.payment.cancelled')}</Alert> : null}
        {billing.isError ? (
          <Alert tone="error">
            {billing.error instanceof BillingError && billing.error.code === 'unauthorized'
              ? t('gestion.errors.user')
              : t('gestion.errors.status')}
          </Alert>
        ) : null}
        {error ? <Alert tone="error">{error}</Alert> : null}

        <DaysCard status={status} loadFailed={billing.isError} />
        {status ? <SubscriptionOrCoupon status={status} onChanged={reload} /> : null}
        {status ? (
          <PlanCards
            paymentsEnabled={status.paymentsEnabled}
            subscribed={Boolean(status.subscription && !status.subscription.cancelAtPeriodEnd)}
            onError={setError}
          />
        ) : null}

        {/* The directory popup (spec 001 §2) shows once /facebots exists (lib/features.ts). */}
        {enabled('facebots') ? (
          <section
            aria-labelledby="facebots-title"
            className="flex flex-col gap-3 rounded-2xl bg-gradient-to-br from-brand-700 to-brand-800 p-5 text-white min-[700px]:flex-row min-[700px]:items-center min-[700px]:justify-between"
          >
            <div>
              <h2 id="facebots-title" className="text-lg font-semibold">
                {t('gestion.facebots.title')}
              </h2>
              <p className="text-sm text-white/90">{t('gestion.facebots.text')}</p>
            </div>
            <a
              href={DIRECTORY_URL}
              target="facebots"
              rel="noopener"
              onClick={(e) => {
                // A real popup when the browser allows it; the link opens a tab when it does not.
                if (window.open(DIRECTORY_URL, 'facebots', POPUP_FEATURES)) e.preventDefault();
              }}
              className="inline-flex w-fit shrink-0 items-center rounded-lg bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
            >
              {t('gestion.facebots.button')}
              <span className="sr-only"> ({t('main.promo.popupNote')})</span>
            </a>
          </section>
        ) : null}

        {status ? <History items={status.history} /> : null}
      </main>
    </div>
  );
}
