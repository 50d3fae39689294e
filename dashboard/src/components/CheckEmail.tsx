/**
 * "Revisa tu correo" after signing up (issue 29): where the confirmation mail went — when the server
 * sends no mail (no SMTP, `GET /api/auth-config` `mail: false`) it says the link is in the server's
 * records and to ask its operator, never naming settings — and "Reenviar", which asks better-auth
 * to send the link again (`POST /api/auth/send-verification-email`, limited per address by the
 * server: a refusal says to wait).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authConfigQuery, loadAuthClient } from '../lib/auth.ts';
import { AuthLink } from './AuthForm.tsx';
import { Alert, Button } from './ui.tsx';

/** The screen after a sign-up to `email`: the message, where the mail went, resend, back to /login. */
export function CheckEmail({ email }: { email: string }) {
  const { t } = useTranslation();
  const config = useQuery(authConfigQuery);
  const [state, setState] = useState<'idle' | 'busy' | 'sent' | 'tooMany' | 'error'>('idle');

  async function resend() {
    setState('busy');
    const client = await loadAuthClient();
    const { error } = await client.sendVerificationEmail({ email, callbackURL: '/auth/callback' });
    setState(error ? (error.status === 429 ? 'tooMany' : 'error') : 'sent');
  }

  return (
    <div className="space-y-4" data-testid="check-email">
      <Alert tone="success">{t('register.checkEmail', { email })}</Alert>
      {config.data && !config.data.mail ? (
        <Alert tone="info">
          <span data-testid="no-mail-note">{t('register.noMail')}</span>
        </Alert>
      ) : null}
      <div className="space-y-2 text-center">
        <p className="text-sm text-slate-600">{t('register.notReceived')}</p>
        <Button
          variant="secondary"
          disabled={state === 'busy'}
          onClick={() => void resend()}
          className="min-[480px]:w-auto"
        >
          {state === 'busy' ? t('register.resending') : t('register.resend')}
        </Button>
        <p role="status" className="text-sm text-slate-700">
          {state === 'sent' ? t('register.resent') : null}
        </p>
        {state === 'tooMany' ? <Alert tone="error">{t('register.errorTooMany')}</Alert> : null}
        {state === 'error' ? <Alert tone="error">{t('register.errorServer')}</Alert> : null}
      </div>
      <AuthLink to="/login">{t('register.backToLogin')}</AuthLink>
    </div>
  );
}
