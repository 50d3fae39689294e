/** Small building blocks of the dashboard's forms: layout, fields, buttons, alerts. */
import type { ButtonHTMLAttributes, ChangeEvent, InputHTMLAttributes, ReactNode } from 'react';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelector } from './LanguageSelector.tsx';
import { Logo } from './Logo.tsx';

export { Logo };

/** The brand: the logo and the app's name, inside a header link. */
export function BrandMark() {
  const { t } = useTranslation();
  return (
    <>
      <Logo />
      <span className="text-lg">{t('app.name')}</span>
    </>
  );
}

/** A label above its control; `children` renders the control (and what follows it) with its new id. */
function Labelled({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

/** The centred card of the sign-in screens, with the brand and the language selector. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex items-center justify-between px-4 py-3 sm:px-8">
        <a href="/login" className="flex items-center gap-2 font-semibold text-brand-800">
          <BrandMark />
        </a>
        <LanguageSelector />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pb-12 pt-4 sm:items-center sm:pt-0">
        <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          {subtitle ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
      </main>
      <footer className="px-4 pb-6 text-center text-xs text-slate-500">{t('app.tagline')}</footer>
    </div>
  );
}

/** A labelled input. */
export function Field({
  label,
  hint,
  ...input
}: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Labelled label={label}>
      {(id) => (
        <>
          <input
            id={id}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-xs placeholder:text-slate-400 focus:border-brand-600 focus:ring-2 focus:ring-brand-100 focus:outline-none"
            aria-describedby={hint ? `${id}-hint` : undefined}
            {...input}
          />
          {hint ? (
            <p id={`${id}-hint`} className="text-xs text-slate-500">
              {hint}
            </p>
          ) : null}
        </>
      )}
    </Labelled>
  );
}

/** The main action of a form. */
export function Button({
  variant = 'primary',
  className = '',
  ...props
}: { variant?: 'primary' | 'secondary' } & ButtonHTMLAttributes<HTMLButtonElement>) {
  const style =
    variant === 'primary'
      ? 'bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-400'
      : 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-400';
  return (
    <button
      type="button"
      className={`inline-flex w-full items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors disabled:cursor-not-allowed ${style} ${className}`}
      {...props}
    />
  );
}

/** A message box; `role` alert for errors so screen readers announce them. */
export function Alert({ tone, children }: { tone: 'error' | 'info' | 'success'; children: ReactNode }) {
  const style = {
    error: 'border-red-200 bg-red-50 text-red-800',
    info: 'border-sky-200 bg-sky-50 text-sky-900',
    success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  }[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg border px-3 py-2 text-sm ${style}`}
    >
      {children}
    </div>
  );
}

/** A titled white card of a form. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** The id, value and `onChange` (with the new text) of a labelled text area or drop-down. */
function controlled(id: string, value: string, onChange: (v: string) => void) {
  return {
    id,
    value,
    onChange: (e: ChangeEvent<HTMLTextAreaElement | HTMLSelectElement>) => onChange(e.target.value),
  };
}

/** A labelled multi-line text field. */
export function TextArea({
  label,
  value,
  onChange,
  rows,
  placeholder,
  maxLength,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  rows: number;
  placeholder?: string;
  /** Characters the field takes at most. */
  maxLength?: number;
}) {
  return (
    <Labelled label={label}>
      {(id) => (
        <textarea
          {...controlled(id, value, onChange)}
          rows={rows}
          placeholder={placeholder}
          maxLength={maxLength}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-400 focus:border-brand-600 focus:ring-2 focus:ring-brand-100 focus:outline-none"
        />
      )}
    </Labelled>
  );
}

/** A labelled drop-down. */
export function Select({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  children: ReactNode;
}) {
  return (
    <Labelled label={label}>
      {(id) => (
        <select
          {...controlled(id, value, onChange)}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 focus:border-brand-600 focus:ring-2 focus:ring-brand-100 focus:outline-none"
        >
          {children}
        </select>
      )}
    </Labelled>
  );
}

/** A labelled checkbox. */
export function Check({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-800">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="h-4 w-4 rounded border-slate-300 accent-brand-700"
      />
      {label}
    </label>
  );
}

/**
 * A modal dialog: the dimmed backdrop and the white panel (`panel`: its size and spacing classes),
 * labelled by its title's id (`labelledBy`).
 */
export function Dialog({
  labelledBy,
  panel,
  children,
}: {
  labelledBy: string;
  panel: string;
  children: ReactNode;
}) {
  return (
    <div
      className="fixed inset-0 z-40 flex items-center justify-center bg-slate-900/40 p-4"
      role="dialog"
      aria-modal="true"
      aria-labelledby={labelledBy}
    >
      <div className={panel}>{children}</div>
    </div>
  );
}

/** Calls `onClose` when Escape is pressed (issue 10: Escape closes modals). */
export function useEscape(onClose: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
}

/** A panel's title row: its `h2` (with `id`, for `aria-labelledby`) and a small button that closes it. */
export function TitleBar({
  id,
  title,
  closeLabel,
  onClose,
}: {
  id: string;
  title: string;
  closeLabel: string;
  onClose: () => void;
}) {
  return (
    <div className="flex items-center justify-between gap-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <button
        type="button"
        onClick={onClose}
        className="rounded-lg border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50"
      >
        {closeLabel}
      </button>
    </div>
  );
}

/**
 * The looks of the red buttons: outlined (disconnect a channel, delete a file) or quiet (delete a
 * row, discard a recording, unlink a phone), in the sizes their places use.
 */
const DANGER_LOOKS = {
  outline: 'rounded-lg border border-red-200 px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50',
  outlineSmall: 'rounded-lg border border-red-200 px-3 py-1 text-sm text-red-700 hover:bg-red-50',
  quiet: 'rounded-lg px-2 py-1 text-sm font-medium text-red-700 hover:bg-red-50',
  quietMedium: 'rounded-lg px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50',
  quietLarge: 'rounded-lg px-3 py-2 text-sm font-medium text-red-700 hover:bg-red-50',
} as const;

/** A red button of a destructive action (disconnect, delete), disabled while `busy`. */
export function DangerButton({
  look,
  onClick,
  busy,
  label,
}: {
  look: keyof typeof DANGER_LOOKS;
  onClick: () => void;
  busy?: boolean;
  label: string;
}) {
  return (
    <button type="button" onClick={onClick} disabled={busy} className={DANGER_LOOKS[look]}>
      {label}
    </button>
  );
}

/**
 * A channel's health box (Telegram, WhatsApp): green while `ok`, else red; `title` (state) in bold,
 * then `children` (mode and details), then `error` (the last error's text) when there is one.
 */
export function HealthBox({
  ok,
  testId,
  title,
  error,
  children,
}: {
  ok: boolean;
  testId: string;
  title: ReactNode;
  error: string | null;
  children: ReactNode;
}) {
  return (
    <div
      className={`rounded-xl border p-3 text-sm ${ok ? 'border-emerald-200 bg-emerald-50' : 'border-red-200 bg-red-50'}`}
      data-testid={testId}
    >
      <p className={`font-semibold ${ok ? 'text-emerald-800' : 'text-red-800'}`}>{title}</p>
      {children}
      {error ? <p className="mt-1 text-xs break-words text-red-800">{error}</p> : null}
    </div>
  );
}

/** A label only screen readers read, for a control whose placeholder or place says what it is. */
export function SrLabel({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="sr-only">
      {children}
    </label>
  );
}

/** The `<option>`s of a drop-down: one a value, shown as `text(value)` (by default the value itself). */
export function Options<V extends string | number>({
  values,
  text = String,
}: {
  values: readonly V[];
  text?: (value: V) => string;
}) {
  return values.map((v) => (
    <option key={v} value={v}>
      {text(v)}
    </option>
  ));
}

/** The `value` and `onChange` of an input bound to a string state (`set`: its setter). */
export function bound(value: string, set: (v: string) => void) {
  return { value, onChange: (e: ChangeEvent<HTMLInputElement>) => set(e.target.value) };
}
