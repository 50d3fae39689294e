/**
 * `/register` (spec 000 §2, §5): e-mail, password and its confirmation ("Las contraseñas no
 * coinciden"), at least 8 characters (issue 3), then "check your e-mail" and back to /login.
 */
import { createFileRoute, Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, AuthLayout, Button, Field } from '../components/ui.tsx';
import { authClient } from '../lib/auth.ts';

export const Route = createFileRoute('/register')({ component: Register });

function Register() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (password !== confirm) return setError(t('register.mismatch'));
    if (password.length < 8) return setError(t('register.tooShort'));
    setBusy(true);
    const address = email.trim().toLowerCase();
    const { error: failure } = await authClient.signUp.email({
      email: address,
      password,
      name: address.split('@')[0] ?? '',
      callbackURL: '/auth/callback',
    });
    setBusy(false);
    if (failure) {
      setError(
        failure.status === 429
          ? t('register.errorTooMany')
          : failure.status && failure.status >= 500
            ? t('register.errorServer')
            : t('register.error'),
      );
      return;
    }
    setSentTo(address);
  }

  if (sentTo) {
    return (
      <AuthLayout title={t('register.checkEmailTitle')}>
        <div className="space-y-4">
          <Alert tone="success">{t('register.checkEmail', { email: sentTo })}</Alert>
          <Link
            to="/login"
            className="block text-center text-sm font-semibold text-brand-700 hover:underline"
          >
            {t('register.backToLogin')}
          </Link>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('register.title')} subtitle={t('register.subtitle')}>
      <form className="space-y-4" onSubmit={submit}>
        {error ? <Alert tone="error">{error}</Alert> : null}
        <Field
          label={t('register.email')}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Field
          label={t('register.password')}
          hint={t('register.passwordHint')}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Field
          label={t('register.confirm')}
          type="password"
          name="confirm"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <Button type="submit" disabled={busy}>
          {busy ? t('register.submitting') : t('register.submit')}
        </Button>
        <p className="text-center text-sm text-slate-600">
          {t('register.haveAccount')}{' '}
          <Link to="/login" className="font-semibold text-brand-700 hover:underline">
            {t('register.login')}
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
