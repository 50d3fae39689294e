/**
 * The account parts of /gestion (spec 001 §2, §4, §8; issue 11): the days counter and its badge
 * ("Días Restantes" / "Sin días"), the account's e-mail, id and state, the Telegram warning at 10
 * days or fewer without a renewing subscription, "Suscripción Activa" with the cancel-renewal
 * button (or the coupon field when no subscription renews), and the history of what added days.
 * The owner's data (download, delete the account) is in GestionAccountData.tsx.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEur } from '../../../plugins/billing/plans.ts';
import {
  BillingError,
  type BillingStatus,
  cancelRenewal,
  type HistoryItem,
  redeemCoupon,
} from '../lib/billing.ts';
import { Alert } from './ui.tsx';

/** Spec 001 §9: the Telegram warning shows at this many days or fewer. */
export const WARNING_DAYS = 10;

/** Days counter, badge, account details and the Telegram warning. */
export function DaysCard({ status, loadFailed }: { status: BillingStatus | undefined; loadFailed: boolean }) {
  const { t, i18n } = useTranslation();
  // While the status loads, a placeholder: showing 0 and "Sin días" in red until it arrives told
  // a paying owner for a moment that their bot was paused.
  if (!status && !loadFailed) {
    return (
      <section
        aria-busy="true"
        aria-label={t('gestion.days.title')}
        className="h-40 animate-pulse rounded-2xl border border-slate-200 bg-white shadow-sm"
      />
    );
  }
  // Spec 001 §8: a profile that cannot be loaded counts as 0 days.
  const days = loadFailed ? 0 : (status?.daysRemaining ?? 0);
  const unlimited = Boolean(status?.unlimited) && !loadFailed;
  const renewing = Boolean(status?.subscription && !status.subscription.cancelAtPeriodEnd);
  const state = unlimited ? 'unlimited' : days > 0 ? 'active' : 'noDays';
  return (
    <section
      aria-labelledby="days-title"
      className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm min-[700px]:grid-cols-[auto_1fr]"
    >
      <div className="flex flex-col items-start gap-2 min-[700px]:border-r min-[700px]:border-slate-200 min-[700px]:pr-6">
        <h2 id="days-title" className="sr-only">
          {t('gestion.days.title')}
        </h2>
        <span
          className={`rounded-full px-3 py-1 text-sm font-semibold ${
            days > 0 || unlimited ? 'bg-emerald-100 text-emerald-800' : 'bg-red-100 text-red-800'
          }`}
          data-testid="days-badge"
        >
          {unlimited
            ? t('gestion.days.unlimited')
            : days > 0
              ? t('gestion.days.remaining')
              : t('gestion.days.none')}
        </span>
        <span className="text-5xl font-bold text-brand-700" data-testid="gestion-days">
          {unlimited ? '∞' : days}
        </span>
        {status?.expiresAt && days > 0 ? (
          <span className="text-sm text-slate-600">
            {t('gestion.days.until', {
              date: new Date(status.expiresAt).toLocaleDateString(i18n.language, { dateStyle: 'medium' }),
            })}
          </span>
        ) : null}
      </div>
      <dl className="grid min-w-0 gap-x-4 gap-y-2 text-sm min-[700px]:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-600">{t('gestion.account.email')}</dt>
        <dd className="min-w-0 break-words" data-testid="account-email">
          {status?.email ?? '—'}
        </dd>
        <dt className="font-medium text-slate-600">{t('gestion.account.id')}</dt>
        <dd className="min-w-0 font-mono text-xs break-all">{status?.id ?? '—'}</dd>
        <dt className="font-medium text-slate-600">{t('gestion.account.state')}</dt>
        <dd data-testid="account-state">{t(`gestion.account.states.${state}`)}</dd>
      </dl>
      {!unlimited && !renewing && status && days <= WARNING_DAYS ? (
        <p
          role="status"
          className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 min-[700px]:col-span-2"
          data-testid="telegram-warning"
        >
          {days > 0 ? t('gestion.telegramWarning', { count: days }) : t('gestion.telegramOff')}
        </p>
      ) : null}
    </section>
  );
}

/** "Suscripción Activa" with the cancel button, or (no renewing subscription) the coupon field. */
export function SubscriptionOrCoupon({
  status,
  onChanged,
}: {
  status: BillingStatus;
  /** Called after a change, to reload the status. */
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const sub = status.subscription;
  return (
    <section
      aria-labelledby="sub-title"
      className="space-y-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="sub-title" className="text-lg font-semibold">
        {sub && !sub.cancelAtPeriodEnd ? t('gestion.subscription.active') : t('gestion.coupon.title')}
      </h2>
      {sub && !sub.cancelAtPeriodEnd ? (
        <CancelRenewal subscriptionId={sub.id} onChanged={onChanged} />
      ) : (
        <>
          {sub?.cancelAtPeriodEnd ? (
            <p className="text-sm text-slate-700" data-testid="renewal-cancelled">
              {sub.currentPeriodEnd
                ? t('gestion.subscription.cancelledUntil', {
                    date: new Date(sub.currentPeriodEnd).toLocaleDateString(i18n.language, {
                      dateStyle: 'medium',
                    }),
                  })
                : t('gestion.subscription.cancelled')}
            </p>
          ) : null}
          <CouponForm onRedeemed={onChanged} />
        </>
      )}
    </section>
  );
}

function CancelRenewal({ subscriptionId, onChanged }: { subscriptionId: string; onChanged: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function cancel() {
    if (!window.confirm(t('gestion.subscription.confirm'))) return;
    setBusy(true);
    setError(null);
    try {
      await cancelRenewal(subscriptionId);
      onChanged();
    } catch (err) {
      setError(
        err instanceof BillingError && err.code === 'network'
          ? t('gestion.errors.network')
          : t('gestion.errors.cancel'),
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-700">{t('gestion.subscription.text')}</p>
      <button
        type="button"
        disabled={busy}
        onClick={() => void cancel()}
        className="rounded-lg border border-red-200 px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50 disabled:opacity-60"
      >
        {t('gestion.subscription.cancel')}
      </button>
      {error ? <Alert tone="error">{error}</Alert> : null}
    </div>
  );
}

/** The coupon field (spec 001 §4): uppercased, button disabled when empty or busy. */
function CouponForm({ onRedeemed }: { onRedeemed: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim() || busy) return;
    setBusy(true);
    setResult(null);
    try {
      await redeemCoupon(code);
      setResult({ tone: 'success', text: t('gestion.coupon.applied') });
      setCode('');
      onRedeemed();
    } catch (err) {
      const reason = err instanceof BillingError ? err.code : 'network';
      const text =
        reason === 'invalid'
          ? t('gestion.coupon.invalid')
          : reason === 'unauthorized'
            ? t('gestion.errors.signIn')
            : `❌ ${t(`gestion.coupon.errors.${['expired', 'exhausted', 'alreadyRedeemed', 'tooMany'].includes(reason) ? reason : 'network'}`)}`;
      setResult({ tone: 'error', text });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-2" noValidate>
      <label htmlFor="coupon-code" className="block text-sm font-medium text-slate-700">
        {t('gestion.coupon.label')}
      </label>
      <div className="flex flex-col gap-2 min-[700px]:flex-row">
        <input
          id="coupon-code"
          value={code}
          onChange={(e) => setCode(e.target.value.toUpperCase())}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('gestion.coupon.placeholder')}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 font-mono text-base uppercase focus:border-brand-600 focus:ring-2 focus:ring-brand-100 focus:outline-none"
        />
        <button
          type="submit"
          disabled={!code.trim() || busy}
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-400"
        >
          {busy ? t('gestion.coupon.applying') : t('gestion.coupon.apply')}
        </button>
      </div>
      {result ? <Alert tone={result.tone}>{result.text}</Alert> : null}
    </form>
  );
}

/** What added days, newest first. */
export function History({ items }: { items: HistoryItem[] }) {
  const { t, i18n } = useTranslation();
  const describe = (h: HistoryItem) => {
    if (h.kind === 'trial') return t('gestion.history.trial');
    if (h.kind === 'coupon') return t('gestion.history.coupon', { code: h.source ?? '' });
    if (h.kind === 'grant') return t('gestion.history.grant', { note: h.source ?? '' });
    if (h.kind === 'renewal') return t('gestion.history.renewal');
    return h.source === 'monthly_35'
      ? t('gestion.history.monthly')
      : t('gestion.history.custom', { count: h.days });
  };
  return (
    <section aria-labelledby="history-title" className="space-y-3">
      <h2 id="history-title" className="text-xl font-semibold">
        {t('gestion.history.title')}
      </h2>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{t('gestion.history.empty')}</p>
      ) : (
        <ul
          className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
          data-testid="history"
        >
          {items.map((h) => (
            <li
              key={`${h.kind}-${h.at}-${h.source ?? ''}`}
              className="flex items-start justify-between gap-3 px-4 py-3 text-sm"
            >
              <span className="min-w-0">
                <span className="block font-medium break-words">{describe(h)}</span>
                <span className="block text-xs text-slate-500">
                  {new Date(h.at).toLocaleDateString(i18n.language, { dateStyle: 'medium' })}
                </span>
              </span>
              <span className="flex shrink-0 flex-col items-end text-right min-[700px]:flex-row min-[700px]:items-baseline min-[700px]:gap-4">
                <span className="font-semibold text-emerald-700">
                  {t('gestion.history.days', { count: h.days })}
                </span>
                <span className="text-slate-600 min-[700px]:w-20 min-[700px]:text-right">
                  {h.amountCents !== null ? formatEur(h.amountCents, i18n.language) : '—'}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
