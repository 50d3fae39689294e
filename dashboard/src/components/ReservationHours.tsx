/**
 * The wizard's opening hours and time zone (issue 29 §Reservations): each weekday's hours with
 * an optional break, "Copiar a todos los días" and "Copiar el lunes a laborables"; and every IANA
 * time zone (`Intl.supportedValuesOf('timeZone')`), searchable as a text field with a list
 * (an accessible combobox), a zone the browser does not know flagged and not taken.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type DayHours,
  isTimeZone,
  type ReservationConfig,
  timeZones,
  WEEKDAYS,
  type Weekday,
} from '../../../plugins/reservations/config.ts';
import { TimeInput } from './ReservationParts.tsx';
import { Field } from './ui.tsx';

/** The weekdays "Copiar el lunes a laborables" fills (Tuesday to Friday). */
const WORKDAYS: readonly Weekday[] = ['tuesday', 'wednesday', 'thursday', 'friday'];

/**
 * The time zone as a searchable field: typing filters the list («Madrid», «Kolkata»); only a real
 * IANA zone reaches `onChange`, anything else says so under the field.
 */
export function TimeZoneField({ value, onChange }: { value: string; onChange: (zone: string) => void }) {
  const { t } = useTranslation();
  const listId = useId();
  const zones = useMemo(timeZones, []);
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const valid = isTimeZone(text);
  return (
    <div>
      <Field
        label={t('reservations.timezone')}
        hint={valid ? t('reservations.timezoneHint') : t('reservations.timezoneInvalid')}
        list={listId}
        autoComplete="off"
        spellCheck={false}
        value={text}
        aria-invalid={!valid}
        onChange={(e) => {
          setText(e.target.value);
          if (isTimeZone(e.target.value)) onChange(e.target.value);
        }}
      />
      <datalist id={listId}>
        {zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </div>
  );
}

/** The weekly hours, with the copy buttons; `setDay` changes one day, `setHours` them all. */
export function HoursFieldset({
  hours,
  setDay,
  setHours,
}: {
  hours: ReservationConfig['working_hours'];
  setDay: (day: Weekday, change: Partial<DayHours>) => void;
  setHours: (hours: ReservationConfig['working_hours']) => void;
}) {
  const { t } = useTranslation();
  /** Monday's hours on `days` (all when omitted). */
  const copyMonday = (days: readonly Weekday[]) =>
    setHours({ ...hours, ...Object.fromEntries(days.map((d) => [d, { ...hours.monday }])) });
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold text-slate-800">{t('reservations.hours')}</legend>
      {WEEKDAYS.map((day) => {
        const h = hours[day];
        /** The day's time input of `field`, labelled `reservations.<label>`. */
        const time = (label: string, field: 'start' | 'end' | 'break_start' | 'break_end') => (
          <TimeInput
            label={t(`reservations.${label}`)}
            value={h[field] ?? ''}
            disabled={!h.enabled}
            onChange={(v) => setDay(day, { [field]: v })}
          />
        );
        return (
          <div
            key={day}
            className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 p-2 text-sm"
          >
            <label className="flex w-32 items-center gap-2 font-medium">
              <input
                type="checkbox"
                checked={h.enabled}
                onChange={(e) => setDay(day, { enabled: e.target.checked })}
                className="h-4 w-4 accent-brand-700"
              />
              {t(`reservations.days.${day}`)}
            </label>
            {time('from', 'start')}
            {time('to', 'end')}
            {h.break_start !== null ? (
              <>
                {time('breakFrom', 'break_start')}
                {time('breakTo', 'break_end')}
                <button
                  type="button"
                  className="text-xs text-brand-800 underline"
                  onClick={() => setDay(day, { break_start: null, break_end: null })}
                >
                  {t('reservations.removeBreak')}
                </button>
              </>
            ) : (
              <button
                type="button"
                disabled={!h.enabled}
                className="text-xs text-brand-800 underline disabled:text-slate-400"
                onClick={() => setDay(day, { break_start: '14:00', break_end: '15:00' })}
              >
                {t('reservations.addBreak')}
              </button>
            )}
            {day === 'monday' ? (
              <div className="flex w-full flex-wrap gap-2">
                <button
                  type="button"
                  className="rounded-md border border-slate-300 px-2 py-1 text-xs font-semibold text-slate-800 hover:bg-slate-50"
                  onClick={() => copyMonday(WEEKDAYS.slice(1))}
                >
                  {t('reservations.copyAll')}
                </button>
                <button
                  type="button"
                  className="rounded-md border border-slate-300 px-2 py-1 text-xs font-semibold text-slate-800 hover:bg-slate-50"
                  onClick={() => copyMonday(WORKDAYS)}
                >
                  {t('reservations.copyWeekdays')}
                </button>
              </div>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
