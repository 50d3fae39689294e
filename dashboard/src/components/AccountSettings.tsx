/**
 * "Tu cuenta" on /gestion (issue 29, the account menu): change the password (the current one first;
 * better-auth `POST /api/auth/change-password`, other sessions signed out) and change the e-mail (a
 * link is sent to the new address; it changes when opened: `POST /api/auth/change-email`). Downloading
 * the data and deleting the account are the section below (GestionAccountData.tsx).
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadAuthClient, meQuery } from '../lib/auth.ts';
import { Alert, Button, Field } from './ui.tsx';

/** Issue 3: the shortest password accepted (the server says the same: MIN_PASSWORD_LENGTH). */
const MIN_PASSWORD = 8;

/** A form's outcome: nothing yet, working, done (its message key) or failed (its message key). */
type Outcome = { state: 'idle' | 'busy' } | { state: 'done' | 'error'; key: string };

/** The translation key of a better-auth failure's status: too many, a wrong value, else the server. */
function failureKey(status: number | undefined, wrong: string): string {
  if (status === 429) return 'account.errors.tooMany';
  if (status && status >= 400 && status < 500) return wrong;
  return 'account.errors.server';
}

/** The section: the owner's address, the password form and the e-mail form. */
export function AccountSettings() {
  const { t } = useTranslation();
  const { data: me } = useQuery(meQuery);
  return (
    <section
      id="cuenta"
      aria-labelledby="account-title"
      className="scroll-mt-4 space-y-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div>
        <h2 id="account-title" className="text-lg font-semibold">
          {t('account.title')}
        </h2>
        {me ? <p className="text-sm text-slate-700">{t('account.signedInAs', { email: me.email })}</p> : null}
      </div>
      <div className="grid gap-6 min-[700px]:grid-cols-2">
        <PasswordForm />
        <EmailForm />
      </div>
    </section>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (next.length < MIN_PASSWORD) return setOutcome({ state: 'error', key: 'account.password.tooShort' });
    if (next !== confirm) return setOutcome({ state: 'error', key: 'account.password.mismatch' });
    setOutcome({ state: 'busy' });
    const client = await loadAuthClient();
    const { error } = await client.changePassword({
      currentPassword: current,
      newPassword: next,
      revokeOtherSessions: true,
    });
    if (error) return setOutcome({ state: 'error', key: failureKey(error.status, 'account.password.wrong') });
    setCurrent('');
    setNext('');
    setConfirm('');
    setOutcome({ state: 'done', key: 'account.password.done' });
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-3" noValidate aria-labelledby="password-title">
      <h3 id="password-title" className="font-semibold">
        {t('account.password.title')}
      </h3>
      <Field
        label={t('account.password.current')}
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
      />
      <Field
        label={t('account.password.new')}
        hint={t('account.password.hint')}
        type="password"
        autoComplete="new-password"
        value={next}
        onChange={(e) => setNext(e.target.value)}
      />
      <Field
        label={t('account.password.confirm')}
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
      />
      <OutcomeNote outcome={outcome} />
      <Button
        type="submit"
        disabled={!current || !next || outcome.state === 'busy'}
        className="min-[700px]:w-auto"
      >
        {t('account.password.submit')}
      </Button>
    </form>
  );
}

function EmailForm() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const [sentTo, setSentTo] = useState('');

  async function submit(e: FormEvent) {
    e.preventDefault();
    const address = email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address))
      return setOutcome({ state: 'error', key: 'account.email.invalid' });
    setOutcome({ state: 'busy' });
    const client = await loadAuthClient();
    const { error } = await client.changeEmail({ newEmail: address, callbackURL: '/gestion' });
    if (error) return setOutcome({ state: 'error', key: failureKey(error.status, 'account.email.invalid') });
    setSentTo(address);
    setEmail('');
    setOutcome({ state: 'done', key: 'account.email.sent' });
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-3" noValidate aria-labelledby="email-title">
      <h3 id="email-title" className="font-semibold">
        {t('account.email.title')}
      </h3>
      <p className="text-sm text-slate-600">{t('account.email.text')}</p>
      <Field
        label={t('account.email.new')}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <OutcomeNote outcome={outcome} email={sentTo} />
      <Button type="submit" disabled={!email || outcome.state === 'busy'} className="min-[700px]:w-auto">
        {t('account.email.submit')}
      </Button>
    </form>
  );
}

/** A form's result as an alert (success or error), nothing while idle or busy. */
function OutcomeNote({ outcome, email }: { outcome: Outcome; email?: string }) {
  const { t } = useTranslation();
  if (outcome.state === 'done') return <Alert tone="success">{t(outcome.key, { email })}</Alert>;
  if (outcome.state === 'error') return <Alert tone="error">{t(outcome.key)}</Alert>;
  return null;
}
