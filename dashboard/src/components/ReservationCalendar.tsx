/**
 * The reservations calendar beside the list (issue 27 §6): a day or a Monday-first week in the
 * calendar's time zone, hours down the side, each booking placed by its local start and end
 * (overlapping ones side by side), cancelled ones greyed, dashed and struck through, moved ones
 * marked ↻. Day view by default on a phone (under 640 px), week view on a wider screen. Every
 * booking is a button (Tab reaches them in time order; Enter shows its details and actions below);
 * previous / today / next and a date field move the view. Active and cancelled bookings of the
 * days shown, refreshed every 15 s.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dayName, daysOf, hourSpan, type Placed, placeDay, shiftDate } from '../lib/reservation-calendar.ts';
import { type ReservationRow, rangeQuery } from '../lib/reservations.ts';
import { badgeOf, ReservationItem, type RowActions } from './ReservationList.tsx';

/** Height of one hour on the grid, px. */
const HOUR_PX = 48;

const TONE: Record<ReturnType<typeof badgeOf>, string> = {
  hold: 'border-amber-400 bg-amber-50 text-amber-950',
  confirmed: 'border-sky-400 bg-sky-50 text-sky-950',
  paid: 'border-emerald-500 bg-emerald-50 text-emerald-950',
  completed: 'border-slate-400 bg-slate-100 text-slate-800',
  cancelled: 'border-dashed border-slate-400 bg-slate-100 text-slate-600 line-through',
  other: 'border-slate-300 bg-white text-slate-800',
};

/** The calendar view (inside the viewer's "Calendario" tab). */
export function ReservationCalendar({
  chatbotId,
  today,
  timezone,
  actions,
}: {
  chatbotId: string;
  /** Today's local date in the calendar's time zone (from the server). */
  today: string;
  timezone: string;
  actions: RowActions;
}) {
  const { t, i18n } = useTranslation();
  const dateId = useId();
  const [mode, setMode] = useState<'day' | 'week'>(() =>
    typeof window !== 'undefined' && window.matchMedia('(min-width: 640px)').matches ? 'week' : 'day',
  );
  const [anchor, setAnchor] = useState(today);
  const [selected, setSelected] = useState<string | null>(null);
  const days = daysOf(mode, anchor);
  const range = useQuery(rangeQuery(chatbotId, days[0]!, days[days.length - 1]!));
  const rows = range.data?.reservations ?? [];
  const byDay = new Map(days.map((d) => [d, placeDay(rows.filter((r) => r.date === d))]));
  const { first, last } = hourSpan([...byDay.values()].flat());
  const hours = Array.from({ length: last - first }, (_, i) => first + i);
  const chosen = rows.find((r) => r.id === selected) ?? null;
  const step = mode === 'day' ? 1 : 7;
  const title =
    mode === 'day'
      ? dayName(anchor, i18n.language, 'long')
      : `${dayName(days[0]!, i18n.language, 'long')} – ${dayName(days[6]!, i18n.language, 'long')}`;

  const label = (r: ReservationRow) =>
    [
      `${r.start}–${r.end}`,
      r.customer_name,
      r.party_size ? t('reservations.people', { count: r.party_size }) : null,
      t(`reservations.status.${badgeOf(r)}`),
      r.changedAt && r.status !== 'cancelled' ? t('reservations.status.changed') : null,
    ]
      .filter(Boolean)
      .join(', ');

  const navButton =
    'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50';
  return (
    <section className="space-y-3" aria-label={t('reservations.calendar.label')}>
      <div className="flex flex-wrap items-end gap-2">
        <fieldset className="flex overflow-hidden rounded-lg border border-slate-300">
          <legend className="sr-only">{t('reservations.calendar.viewLabel')}</legend>
          {(['day', 'week'] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
              className={`px-3 py-1.5 text-sm font-semibold ${mode === m ? 'bg-brand-700 text-white' : 'bg-white text-slate-800 hover:bg-slate-50'}`}
            >
              {t(`reservations.calendar.${m}`)}
            </button>
          ))}
        </fieldset>
        <div className="flex gap-1">
          <button
            type="button"
            className={navButton}
            onClick={() => setAnchor(shiftDate(anchor, -step))}
            aria-label={t('reservations.calendar.prev')}
          >
            ‹
          </button>
          <button type="button" className={navButton} onClick={() => setAnchor(today)}>
            {t('reservations.calendar.today')}
          </button>
          <button
            type="button"
            className={navButton}
            onClick={() => setAnchor(shiftDate(anchor, step))}
            aria-label={t('reservations.calendar.next')}
          >
            ›
          </button>
        </div>
        <div className="flex flex-col">
          <label htmlFor={dateId} className="text-xs font-medium text-slate-700">
            {t('reservations.calendar.goTo')}
          </label>
          <input
            id={dateId}
            type="date"
            value={anchor}
            onChange={(e) => {
              if (/^\d{4}-\d{2}-\d{2}$/.test(e.target.value)) setAnchor(e.target.value);
            }}
            className="rounded-lg border border-slate-300 px-2 py-1 text-sm"
          />
        </div>
      </div>
      <h4 className="font-semibold first-letter:uppercase" aria-live="polite">
        {title}
      </h4>
      {range.data && rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t('reservations.calendar.empty')}</p>
      ) : null}
      <div
        className="grid rounded-xl border border-slate-200"
        style={{ gridTemplateColumns: `2.5rem repeat(${days.length}, minmax(0, 1fr))` }}
      >
        <div className="border-b border-slate-200" />
        {days.map((d) => (
          <div key={d} className="min-w-0 border-b border-l border-slate-200 p-1 text-center">
            {mode === 'week' ? (
              <button
                type="button"
                onClick={() => {
                  setAnchor(d);
                  setMode('day');
                }}
                aria-label={dayName(d, i18n.language, 'long')}
                className={`w-full rounded px-0.5 text-xs font-semibold leading-tight ${d === today ? 'bg-brand-700 text-white' : 'text-slate-800 hover:bg-slate-100'}`}
              >
                <span className="block truncate">{dayName(d, i18n.language, 'weekday')}</span>
                <span className="block">{Number(d.slice(8))}</span>
              </button>
            ) : (
              <span className="text-xs font-semibold text-slate-800">
                {dayName(d, i18n.language, 'short')}
              </span>
            )}
          </div>
        ))}
        <div className="relative" style={{ height: hours.length * HOUR_PX }} aria-hidden="true">
          {hours.map((h, i) => (
            <span
              key={h}
              className="absolute right-1 text-[11px] text-slate-600"
              style={{ top: i * HOUR_PX }}
            >
              {String(h).padStart(2, '0')}:00
            </span>
          ))}
        </div>
        {days.map((d) => (
          <DayColumn
            key={d}
            date={d}
            placed={byDay.get(d) ?? []}
            first={first}
            hours={hours.length}
            label={(r) => label(r)}
            selected={selected}
            onSelect={setSelected}
            name={dayName(d, i18n.language, 'long')}
          />
        ))}
      </div>
      <p className="text-xs text-slate-600">{t('reservations.calendar.legend')}</p>
      {chosen ? (
        <div className="rounded-xl border border-slate-300 p-3" aria-live="polite">
          <ReservationItem r={chosen} timezone={timezone} actions={actions} />
        </div>
      ) : null}
    </section>
  );
}

/** One day's column: the hour lines and its bookings as buttons placed by time. */
function DayColumn({
  date,
  placed,
  first,
  hours,
  label,
  selected,
  onSelect,
  name,
}: {
  date: string;
  placed: Placed[];
  first: number;
  hours: number;
  label: (r: ReservationRow) => string;
  selected: string | null;
  onSelect: (id: string) => void;
  name: string;
}) {
  return (
    <ul
      aria-label={name}
      data-date={date}
      className="relative min-w-0 border-l border-slate-200"
      style={{
        height: hours * HOUR_PX,
        backgroundImage: `repeating-linear-gradient(to bottom, #e2e8f0 0, #e2e8f0 1px, transparent 1px, transparent ${HOUR_PX}px)`,
      }}
    >
      {placed.map((p) => {
        const top = ((p.start - first * 60) / 60) * HOUR_PX;
        const height = Math.max(((p.end - p.start) / 60) * HOUR_PX, 20);
        return (
          <li
            key={p.row.id}
            className="absolute px-0.5"
            style={{
              top,
              height,
              left: `${(p.lane / p.lanes) * 100}%`,
              width: `${100 / p.lanes}%`,
            }}
          >
            <button
              type="button"
              aria-label={label(p.row)}
              aria-pressed={selected === p.row.id}
              onClick={() => onSelect(p.row.id)}
              className={`h-full w-full overflow-hidden rounded-md border px-0.5 py-0.5 text-left text-[10px] leading-tight sm:px-1 sm:text-[11px] ${TONE[badgeOf(p.row)]} ${selected === p.row.id ? 'ring-2 ring-brand-700' : ''}`}
            >
              <span className="block font-semibold">
                {p.row.changedAt && p.row.status !== 'cancelled' ? '↻ ' : ''}
                {p.row.start}
              </span>
              <span className="block truncate">{p.row.customer_name ?? p.row.code}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
