/**
 * The reservations viewer's rows (spec 001 §2, §4; issue 27 §6), shared by the list and the
 * calendar's details: date and time, the customer, the code and channel, the status badge
 * (HOLD, CONFIRMADA…, CANCELADA), who cancelled or moved it and when (in the calendar's time
 * zone), and the owner's actions: "Reserva abonada", completed, cancel, delete.
 */
import { useTranslation } from 'react-i18next';
import { statusKey } from '../../../plugins/reservations/api.ts';
import { instantText } from '../lib/reservation-calendar.ts';
import type { ReservationRow } from '../lib/reservations.ts';
import { DangerButton } from './ui.tsx';

/** The owner's actions on a row (ReservationViewer.tsx). */
export interface RowActions {
  toggle: (r: ReservationRow, flag: 'is_paid' | 'is_completed', value: boolean) => void;
  cancel: (r: ReservationRow) => void;
  remove: (r: ReservationRow) => void;
}

/** A row's badge: spec 001 §4's statuses, and CANCELADA (issue 27 §6). */
export type BadgeKey = ReturnType<typeof statusKey> | 'cancelled';

/** The badge key of a row. */
export function badgeOf(r: ReservationRow): BadgeKey {
  return r.status === 'cancelled' ? 'cancelled' : statusKey(r);
}

const BADGE: Record<BadgeKey, string> = {
  hold: 'bg-amber-100 text-amber-900',
  confirmed: 'bg-sky-100 text-sky-900',
  paid: 'bg-emerald-100 text-emerald-900',
  completed: 'bg-slate-200 text-slate-800',
  cancelled: 'bg-rose-100 text-rose-900',
  other: 'bg-slate-100 text-slate-700',
};

/**
 * Who cancelled or moved a booking and when, in the calendar's time zone: "Cancelada por el
 * cliente el 27 nov, 15:40"; a move also says the start it had before.
 */
export function HistoryNote({ r, timezone }: { r: ReservationRow; timezone: string }) {
  const { t, i18n } = useTranslation();
  const when = (iso: string) => instantText(iso, i18n.language, timezone);
  const lines: string[] = [];
  if (r.cancelledAt)
    lines.push(
      t(`reservations.history.cancelled.${r.cancelledBy ?? 'unknown'}`, { when: when(r.cancelledAt) }),
    );
  if (r.changedAt && r.changedBy) {
    const moved = t(`reservations.history.changed.${r.changedBy}`, { when: when(r.changedAt) });
    lines.push(
      r.changedFrom ? `${moved} (${t('reservations.history.before', { when: when(r.changedFrom) })})` : moved,
    );
  }
  if (lines.length === 0) return null;
  return (
    <>
      {lines.map((line) => (
        <p key={line} className="text-sm font-medium text-rose-900">
          {line}
        </p>
      ))}
    </>
  );
}

/** One reservation with its actions (a list item's or the calendar's details' content). */
export function ReservationItem({
  r,
  timezone,
  actions,
}: {
  r: ReservationRow;
  timezone: string;
  actions: RowActions;
}) {
  const { t, i18n } = useTranslation();
  const key = badgeOf(r);
  const cancelled = r.status === 'cancelled';
  const dateText = new Intl.DateTimeFormat(i18n.language, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: timezone,
  }).format(new Date(r.startsAt));
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 space-y-0.5">
        <p className={`font-semibold ${cancelled ? 'text-slate-600 line-through' : ''}`}>
          {dateText} · {r.start}–{r.end}
        </p>
        <p className="break-words text-sm text-slate-700">
          {[
            r.customer_name,
            r.customer_contact,
            r.customer_email,
            r.mail ? t(`reservationsMail.${r.mail}`) : null,
            r.party_size ? t('reservations.people', { count: r.party_size }) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
        {r.reason ? <p className="break-words text-sm text-slate-600">“{r.reason}”</p> : null}
        <HistoryNote r={r} timezone={timezone} />
        <p className="text-xs text-slate-600">
          {t('reservations.code')} <span className="font-mono font-semibold">{r.code}</span> ·{' '}
          {r.channel ?? t('reservations.byHand')}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${BADGE[key]}`}>
          {t(`reservations.status.${key}`)}
        </span>
        {r.changedAt && !cancelled ? (
          <span className="rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-bold text-violet-900">
            {t('reservations.status.changed')}
          </span>
        ) : null}
        {r.status === 'confirmed'
          ? (['is_paid', 'is_completed'] as const).map((flag) => (
              <label key={flag} className="flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  checked={r[flag]}
                  onChange={(e) => actions.toggle(r, flag, e.target.checked)}
                  className="h-4 w-4 accent-brand-700"
                />
                {t(flag === 'is_paid' ? 'reservations.paid' : 'reservations.completed')}
              </label>
            ))
          : null}
        {r.status === 'confirmed' || r.status === 'hold' ? (
          <button
            type="button"
            onClick={() => actions.cancel(r)}
            className="rounded-lg px-2 py-1 text-sm font-semibold text-slate-700 underline hover:bg-slate-100"
          >
            {t('reservations.cancelBooking')}
          </button>
        ) : null}
        <DangerButton look="quiet" onClick={() => actions.remove(r)} label={t('reservations.delete')} />
      </div>
    </div>
  );
}

/** The list of rows. */
export function ReservationList({
  rows,
  timezone,
  actions,
}: {
  rows: readonly ReservationRow[];
  timezone: string;
  actions: RowActions;
}) {
  const { t } = useTranslation();
  return (
    <ul
      className="divide-y divide-slate-200 rounded-xl border border-slate-200"
      aria-label={t('reservations.viewerTitle')}
    >
      {rows.map((r) => (
        <li key={r.id} className={`p-3 ${r.status === 'cancelled' ? 'bg-slate-50' : ''}`}>
          <ReservationItem r={r} timezone={timezone} actions={actions} />
        </li>
      ))}
    </ul>
  );
}
