/**
 * The panels of /admin (issue 26 §6), for an owner with the operator role: owners with their days
 * and the grant-days form, coupons with the create form, bots with their channels' health, and the
 * recent failures (channel updates and jobs that failed for good). Lists wrap line by line, so the
 * screen reads at 390 px as at 1280 px.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AdminBot,
  adminBotsQuery,
  adminCouponsQuery,
  adminErrorCode,
  adminErrorsQuery,
  adminOwnersQuery,
  createCoupon,
  grantDays,
} from '../lib/operator.ts';
import { Alert, Button, bound, Field, HealthBox, Section } from './ui.tsx';

/** Small grey text under a row's main line. */
const MUTED = 'text-xs text-slate-500';
/** One row of a list: wraps on a phone. */
const ROW = 'flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2';

/** A query's failure, said in the operator's language. */
function LoadError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return <Alert tone="error">{t(`admin.errors.${adminErrorCode(error)}`)}</Alert>;
}

/** A time in the operator's language, to the minute. */
const when = (iso: string | null, locale: string) =>
  iso ? new Date(iso).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' }) : '';
/** A day in the operator's language. */
const day = (iso: string | null, locale: string) => (iso ? new Date(iso).toLocaleDateString(locale) : '');

/** Owners, their days and status, and the grant-days form. */
export function OwnersPanel() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const owners = useQuery(adminOwnersQuery);
  const [email, setEmail] = useState('');
  const [days, setDays] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setResult(null);
    try {
      const done = await grantDays({
        email: email.trim(),
        days: Number(days),
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      setResult({
        ok: true,
        text: t('admin.grant.done', { days: done.days, email: done.owner, left: done.daysRemaining }),
      });
      setDays('');
      await queryClient.invalidateQueries({ queryKey: adminOwnersQuery.queryKey });
    } catch (err) {
      setResult({ ok: false, text: t(`admin.errors.${adminErrorCode(err)}`) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title={t('admin.owners.title')}>
      {owners.isError ? <LoadError error={owners.error} /> : null}
      {owners.data?.length === 0 ? <p className="text-sm text-slate-600">{t('admin.owners.empty')}</p> : null}
      <ul className="divide-y divide-slate-100" data-testid="admin-owners">
        {owners.data?.map((o) => (
          <li key={o.id} className={ROW}>
            <span className="min-w-0 break-all font-medium text-slate-900">
              {o.email}
              {o.operator ? (
                <span className="ml-2 text-xs text-brand-700">{t('admin.owners.operator')}</span>
              ) : null}
            </span>
            <span className="text-sm text-slate-700">
              {t(`admin.owners.status.${o.status}`)} · {t('admin.owners.days', { count: o.daysRemaining })} ·{' '}
              {t('admin.owners.bots', { count: o.bots })}
            </span>
            {o.expiresAt ? (
              <span className={`w-full ${MUTED}`}>
                {t('admin.owners.until', { date: day(o.expiresAt, i18n.language) })}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void submit(e)} className="space-y-3 border-t border-slate-200 pt-4">
        <h3 className="font-semibold">{t('admin.grant.title')}</h3>
        <div className="grid gap-3 min-[700px]:grid-cols-2">
          <div className="min-[700px]:col-span-2">
            <Field
              label={t('admin.grant.email')}
              type="email"
              required
              {...bound(email, setEmail)}
              list="admin-owner-emails"
            />
          </div>
          <Field
            label={t('admin.grant.days')}
            type="number"
            min={1}
            max={3650}
            required
            {...bound(days, setDays)}
          />
          <Field label={t('admin.grant.note')} maxLength={200} {...bound(note, setNote)} />
        </div>
        <datalist id="admin-owner-emails">
          {owners.data?.map((o) => (
            <option key={o.id} value={o.email} />
          ))}
        </datalist>
        {result ? <Alert tone={result.ok ? 'success' : 'error'}>{result.text}</Alert> : null}
        <Button type="submit" disabled={busy} className="min-[700px]:w-auto">
          {t('admin.grant.submit')}
        </Button>
      </form>
    </Section>
  );
}

/** Coupons with their redemptions, and the create form. */
export function CouponsPanel() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const coupons = useQuery(adminCouponsQuery);
  const [code, setCode] = useState('');
  const [days, setDays] = useState('');
  const [max, setMax] = useState('');
  const [until, setUntil] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setResult(null);
    try {
      const row = await createCoupon({
        code: code.trim(),
        days: Number(days),
        maxRedemptions: max ? Number(max) : null,
        // A date is valid through the end of that day (UTC), as `charla coupons create --until`.
        validUntil: until ? `${until}T23:59:59.999Z` : null,
      });
      setResult({ ok: true, text: t('admin.coupons.created', { code: row.code }) });
      setCode('');
      setDays('');
      setMax('');
      setUntil('');
      await queryClient.invalidateQueries({ queryKey: adminCouponsQuery.queryKey });
    } catch (err) {
      setResult({ ok: false, text: t(`admin.errors.${adminErrorCode(err)}`) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title={t('admin.coupons.title')}>
      {coupons.isError ? <LoadError error={coupons.error} /> : null}
      {coupons.data?.length === 0 ? (
        <p className="text-sm text-slate-600">{t('admin.coupons.empty')}</p>
      ) : null}
      <ul className="divide-y divide-slate-100" data-testid="admin-coupons">
        {coupons.data?.map((c) => (
          <li key={c.id} className={ROW}>
            <span className="font-mono font-semibold text-slate-900">{c.code}</span>
            <span className="text-sm text-slate-700">
              {t('admin.coupons.days', { count: c.days })} ·{' '}
              {c.max_redemptions === null
                ? t('admin.coupons.usedUnlimited', { used: c.redeemed })
                : t('admin.coupons.used', { used: c.redeemed, max: c.max_redemptions })}
            </span>
            <span className={`w-full ${MUTED}`}>
              {c.valid_until
                ? t('admin.coupons.until', { date: day(c.valid_until, i18n.language) })
                : t('admin.coupons.noEnd')}{' '}
              · {t('admin.coupons.by', { who: c.created_by })}
            </span>
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void submit(e)} className="space-y-3 border-t border-slate-200 pt-4">
        <h3 className="font-semibold">{t('admin.coupons.create')}</h3>
        <div className="grid gap-3 min-[700px]:grid-cols-2">
          <Field
            label={t('admin.coupons.code')}
            required
            pattern="[A-Za-z0-9_\-]{1,64}"
            hint={t('admin.coupons.codeHint')}
            {...bound(code, setCode)}
          />
          <Field
            label={t('admin.coupons.daysField')}
            type="number"
            min={1}
            max={3650}
            required
            {...bound(days, setDays)}
          />
          <Field label={t('admin.coupons.max')} type="number" min={1} max={3650} {...bound(max, setMax)} />
          <Field label={t('admin.coupons.untilField')} type="date" {...bound(until, setUntil)} />
        </div>
        {result ? <Alert tone={result.ok ? 'success' : 'error'}>{result.text}</Alert> : null}
        <Button type="submit" disabled={busy} className="min-[700px]:w-auto">
          {t('admin.coupons.submit')}
        </Button>
      </form>
    </Section>
  );
}

/** One bot's channels: a health box for each channel that is set up. */
function BotChannels({ bot }: { bot: AdminBot }) {
  const { t, i18n } = useTranslation();
  const shown = bot.channels.filter((c) => c.state !== 'disconnected');
  if (shown.length === 0) return <p className={MUTED}>{t('admin.bots.noChannels')}</p>;
  return (
    <div className="grid w-full gap-2 min-[700px]:grid-cols-2">
      {shown.map((c) => (
        <HealthBox
          key={c.channel}
          ok={c.state === 'connected'}
          testId={`admin-health-${bot.id}-${c.channel}`}
          title={`${c.channel} · ${t(`admin.bots.state.${c.state}`)}`}
          error={c.lastError}
        >
          <p className={MUTED}>
            {c.mode}
            {c.lastUpdateAt
              ? ` · ${t('admin.bots.lastUpdate', { date: when(c.lastUpdateAt, i18n.language) })}`
              : ''}
          </p>
        </HealthBox>
      ))}
    </div>
  );
}

/** Every bot with its owner and channels' health. */
export function BotsPanel() {
  const { t } = useTranslation();
  const bots = useQuery(adminBotsQuery);
  return (
    <Section title={t('admin.bots.title')}>
      {bots.isError ? <LoadError error={bots.error} /> : null}
      {bots.data?.length === 0 ? <p className="text-sm text-slate-600">{t('admin.bots.empty')}</p> : null}
      <ul className="divide-y divide-slate-100" data-testid="admin-bots">
        {bots.data?.map((b) => (
          <li key={b.id} className={`${ROW} space-y-2`}>
            <span className="min-w-0 break-words font-medium text-slate-900">{b.name}</span>
            <span className="min-w-0 break-all text-sm text-slate-700">
              {b.owner} · {t('admin.bots.replies', { count: b.replies })}
            </span>
            <BotChannels bot={b} />
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** Channel updates and jobs that failed for good, newest first. */
export function ErrorsPanel() {
  const { t, i18n } = useTranslation();
  const errors = useQuery(adminErrorsQuery);
  const rows = [
    ...(errors.data?.updates.map((u) => ({
      key: `u${u.id}`,
      what: t('admin.recent.update', { channel: u.channel, attempts: u.attempts }),
      error: u.error,
      at: u.at,
    })) ?? []),
    ...(errors.data?.jobs.map((j) => ({
      key: `j${j.id}`,
      what: t('admin.recent.job', { queue: j.queue }),
      error: j.error,
      at: j.at,
    })) ?? []),
  ].sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''));
  return (
    <Section title={t('admin.recent.title')}>
      {errors.isError ? <LoadError error={errors.error} /> : null}
      {errors.data && rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t('admin.recent.none')}</p>
      ) : null}
      <ul className="divide-y divide-slate-100" data-testid="admin-errors">
        {rows.map((r) => (
          <li key={r.key} className={ROW}>
            <span className="font-medium text-slate-900">{r.what}</span>
            <span className={MUTED}>{when(r.at, i18n.language)}</span>
            {r.error ? <span className="w-full break-words text-sm text-red-800">{r.error}</span> : null}
          </li>
        ))}
      </ul>
    </Section>
  );
}
