/**
 * The sign-in screens' form shell (spec 000 §2: /login, /register, /reset-password,
 * /update-password): the inputs from a list, the error above them, the submit button with its busy
 * label, and the "done" card with its way on. Each screen keeps its own checks and calls.
 */
import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { preloadAuthClient } from '../lib/auth.ts';
import { Alert, Button, Field } from './ui.tsx';

/** One input of a sign-in form; its label is the screen's text `<texts>.<name>`. */
export interface AuthInput {
  /** The input's `name`, its key in the form's values and in the screen's texts. */
  name: string;
  type: 'email' | 'password';
  autoComplete: string;
  hint?: string;
  required?: boolean;
}

/** A sign-in form's state: the values by input name ('' until typed), busy, the error shown. */
export function useAuthForm() {
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onValue = (name: string, value: string) => setValues((v) => ({ ...v, [name]: value }));
  return { values, onValue, busy, setBusy, error, setError };
}

/** See {@link useAuthForm}. */
export type AuthFormState = ReturnType<typeof useAuthForm>;

/**
 * A sign-in form: the error (an alert) and `notice` first, the inputs, `beforeSubmit`, the submit
 * button (`<texts>.submit`, `<texts>.submitting` while busy), then `children`. Focusing it starts
 * loading better-auth's client, which the submit needs.
 */
export function AuthForm({
  form,
  texts,
  inputs,
  onSubmit,
  notice,
  beforeSubmit,
  noValidate,
  children,
}: {
  form: AuthFormState;
  /** The screen's texts' prefix (`login`, `register`, `reset`, `update`). */
  texts: string;
  inputs: AuthInput[];
  /** The screen's checks and call, once the page's own submit is stopped and the error cleared. */
  onSubmit: () => void | Promise<void>;
  notice?: ReactNode;
  beforeSubmit?: ReactNode;
  noValidate?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <form
      className="space-y-4"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        form.setError(null);
        void onSubmit();
      }}
      onFocus={preloadAuthClient}
      noValidate={noValidate}
    >
      {form.error ? <Alert tone="error">{form.error}</Alert> : null}
      {notice}
      {inputs.map((input) => (
        <Field
          key={input.name}
          label={t(`${texts}.${input.name}`)}
          hint={input.hint}
          type={input.type}
          name={input.name}
          autoComplete={input.autoComplete}
          required={input.required}
          value={form.values[input.name] ?? ''}
          onChange={(e) => form.onValue(input.name, e.target.value)}
        />
      ))}
      {beforeSubmit}
      <Button type="submit" disabled={form.busy}>
        {form.busy ? t(`${texts}.submitting`) : t(`${texts}.submit`)}
      </Button>
      {children}
    </form>
  );
}

/** A finished step: the success message and the link onwards (register's mail sent, a new password). */
export function AuthDone({ message, to, link }: { message: string; to: '/login' | '/main'; link: string }) {
  return (
    <div className="space-y-4">
      <Alert tone="success">{message}</Alert>
      <AuthLink to={to}>{link}</AuthLink>
    </div>
  );
}

/** The centred bold link of the sign-in screens. */
export function AuthLink({ to, children }: { to: '/login' | '/main'; children: ReactNode }) {
  return (
    <Link to={to} className="block text-center text-sm font-semibold text-brand-700 hover:underline">
      {children}
    </Link>
  );
}

/** The line that leads to the other sign-in screen: "No account? Register" and the reverse. */
export function AuthSwitch({
  question,
  to,
  link,
}: {
  question: string;
  to: '/login' | '/register';
  link: string;
}) {
  return (
    <p className="text-center text-sm text-slate-600">
      {question}{' '}
      <Link to={to} className="font-semibold text-brand-700 hover:underline">
        {link}
      </Link>
    </p>
  );
}
