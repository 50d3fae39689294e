/**
 * `/reset-password` (spec 000 §2, §5): an e-mail and "Enviar enlace de restablecimiento"; the mailed
 * link leads to /update-password. The answer is the same whether or not the e-mail has an account.
 */
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthForm, AuthLink, useAuthForm } from '../components/AuthForm.tsx';
import { Alert, AuthLayout } from '../components/ui.tsx';
import { loadAuthClient } from '../lib/auth.ts';

export const Route = createFileRoute('/reset-password')({ component: ResetPassword });

function ResetPassword() {
  const { t } = useTranslation();
  const form = useAuthForm();
  const { values, setBusy, setError } = form;
  const [sent, setSent] = useState(false);

  async function submit() {
    const email = (values.email ?? '').trim();
    if (!email) return setError(t('reset.required'));
    setBusy(true);
    const authClient = await loadAuthClient();
    const { error: failure } = await authClient.requestPasswordReset({
      email,
      redirectTo: '/update-password',
    });
    setBusy(false);
    if (failure)
      return setError(failure.status === 429 ? t('reset.errorTooMany') : failure.message || t('reset.error'));
    setSent(true);
  }

  return (
    <AuthLayout title={t('reset.title')} subtitle={t('reset.subtitle')}>
      <AuthForm
        form={form}
        texts="reset"
        inputs={[{ name: 'email', type: 'email', autoComplete: 'email' }]}
        onSubmit={submit}
        notice={sent ? <Alert tone="success">{t('reset.sent')}</Alert> : null}
        noValidate
      >
        <AuthLink to="/login">{t('reset.back')}</AuthLink>
      </AuthForm>
    </AuthLayout>
  );
}
