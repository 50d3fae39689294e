/**
 * `/gestion`, subscription and account management (spec 001 §2, §4, §5, §8, §9; issue 11): guarded.
 * The days counter and badge, the account's e-mail, id and state, the Telegram warning, "Suscripción
 * Activa" with the cancel-renewal button or the coupon field, the monthly and custom plan cards
 * (components/GestionPlans.tsx), the Facebots popup button, the history of what added days, the
 * notification settings (components/NotificationSettings.tsx, issue 27 §1), the account (password and
 * e-mail: components/AccountSettings.tsx, issue 29), the owner's data (download it, delete the account:
 * issue 26 §5); the navigation (components/AppNav.tsx) replaces the way back to /main. Back from Stripe (`?pago=ok|cancelado`) it shows the result; after a payment it
 * reloads the status for a short while, until the webhook has added the days.
 * Mobile layout below 700 px (spec 001 §9): one column.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountSettings } from '../components/AccountSettings.tsx';
import { DaysCard, History, SubscriptionOrCoupon } from '../components/GestionAccount.tsx';
import { AccountData } from '../components/GestionAccountData.tsx';
import { PlanCards } from '../components/GestionPlans.tsx';
import { NotificationSettings } from '../components/NotificationSettings.tsx';
import { DirectoryLink, PageShell, PageTitle } from '../components/PageShell.tsx';
import { Alert } from '../components/ui.tsx';
import { meQuery, requireSession } from '../lib/auth.ts';
import { BillingError, billingQuery } from '../lib/billing.ts';
import { enabled } from '../lib/features.ts';

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
    <PageShell className="min-h-dvh pb-16" main="mx-auto max-w-5xl space-y-6 px-4 py-6 min-[700px]:py-8">
      <PageTitle title={t('gestion.title')} subtitle={t('gestion.subtitle')} />

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
          <DirectoryLink className="inline-flex w-fit shrink-0 items-center rounded-lg bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
            {t('gestion.facebots.button')}
            <span className="sr-only"> ({t('main.promo.popupNote')})</span>
          </DirectoryLink>
        </section>
      ) : null}

      <NotificationSettings />
      {status ? <History items={status.history} /> : null}
      {/* Issue 29, the account menu: password and e-mail, then the data and the account's deletion. */}
      <AccountSettings />
      <AccountData />
    </PageShell>
  );
}
