/**
 * `/reset-password` (spec 000 §2, §5): an e-mail and "Enviar enlace de restablecimiento"; the mailed
 * link leads to /update-password. The answer is the same whether or not the e-mail has an account.
 */
import { createFileRoute, Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, AuthLayout, Button, Field } from '../components/ui.tsx';
import { authClient } from '../lib/auth.ts';

export const Route = createFileRoute('/reset-password')({ component: ResetPassword });

function ResetPassword() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!email.trim()) return setError(t('reset.required'));
    setBusy(true);
    const { error: failure } = await authClient.requestPasswordReset({
      email: email.trim(),
      redirectTo: '/update-password',
    });
    setBusy(false);
    if (failure)
      return setError(failure.status === 429 ? t('reset.errorTooMany') : failure.message || t('reset.error'));
    setSent(true);
  }

  return (
    <AuthLayout title={t('reset.title')} subtitle={t('reset.subtitle')}>
      <form className="space-y-4" onSubmit={submit} noValidate>
        {error ? <Alert tone="error">{error}</Alert> : null}
        {sent ? <Alert tone="success">{t('reset.sent')}</Alert> : null}
        <Field
          label={t('reset.email')}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Button type="submit" disabled={busy}>
          {busy ? t('reset.submitting') : t('reset.submit')}
        </Button>
        <Link to="/login" className="block text-center text-sm font-semibold text-brand-700 hover:underline">
          {t('reset.back')}
        </Link>
      </form>
    </AuthLayout>
  );
}
