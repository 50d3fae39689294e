/**
 * Pieces the reservations dialogs share (spec 001 §2 Reservations screens; issue 12 §10): the
 * dialog frame with its title, subtitle and Close button, a long local date, a small time input.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A reservations dialog: full-height scroll on a phone, centred from `sm`; `width` is the panel's
 * max-width class (`max-w-2xl` for the wizard, `max-w-5xl` for the viewer with its week calendar).
 */
export function ReservationDialog({
  titleId,
  title,
  subtitle,
  width,
  onClose,
  children,
}: {
  titleId: string;
  title: string;
  subtitle: ReactNode;
  width: 'max-w-2xl' | 'max-w-3xl' | 'max-w-5xl';
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div
      className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-slate-900/40 p-3 sm:items-center sm:p-4"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
    >
      <div className={`w-full ${width} space-y-4 rounded-2xl bg-white p-4 shadow-xl sm:p-6`}>
        <div className="flex items-start justify-between gap-3">
          <div>
            <h3 id={titleId} className="text-lg font-semibold">
              {title}
            </h3>
            {subtitle}
          </div>
          <button
            type="button"
            onClick={onClose}
            className="rounded-lg px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
          >
            {t('reservations.close')}
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

/** "martes, 24 de noviembre" for a local `YYYY-MM-DD`, in the interface language. */
export function longDate(date: string, lang: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(lang, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d, 12)));
}

/** A small labelled time input. */
export function TimeInput({
  label,
  value,
  disabled,
  onChange,
}: {
  label: string;
  value: string;
  disabled: boolean;
  onChange: (v: string) => void;
}) {
  return (
    <label className="flex items-center gap-1 text-xs text-slate-700">
      {label}
      <input
        type="time"
        step={900}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        className="rounded-md border border-slate-300 px-1.5 py-1 text-sm disabled:bg-slate-100"
      />
    </label>
  );
}
