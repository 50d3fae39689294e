/**
 * `/register` (spec 000 §2, §5): e-mail, password and its confirmation ("Las contraseñas no
 * coinciden"), at least 8 characters (issue 3), the links to the terms and the privacy policy, then
 * "check your e-mail" (components/CheckEmail.tsx: where the mail went, "Reenviar") and back to /login.
 */
import { createFileRoute } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { AuthForm, AuthSwitch, useAuthForm } from '../components/AuthForm.tsx';
import { CheckEmail } from '../components/CheckEmail.tsx';
import { AuthLayout } from '../components/ui.tsx';
import { loadAuthClient } from '../lib/auth.ts';

export const Route = createFileRoute('/register')({ component: Register });

function Register() {
  const { t } = useTranslation();
  const form = useAuthForm();
  const { values, setBusy, setError } = form;
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit() {
    const { email = '', password = '', confirm = '' } = values;
    if (password !== confirm) return setError(t('register.mismatch'));
    if (password.length < 8) return setError(t('register.tooShort'));
    setBusy(true);
    const address = email.trim().toLowerCase();
    const authClient = await loadAuthClient();
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
        <CheckEmail email={sentTo} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('register.title')} subtitle={t('register.subtitle')}>
      <AuthForm
        form={form}
        texts="register"
        inputs={[
          { name: 'email', type: 'email', autoComplete: 'email', required: true },
          {
            name: 'password',
            hint: t('register.passwordHint'),
            type: 'password',
            autoComplete: 'new-password',
            required: true,
          },
          { name: 'confirm', type: 'password', autoComplete: 'new-password', required: true },
        ]}
        onSubmit={submit}
      >
        {/* Issue 29: the sign-up links the site's terms and privacy pages (plugins/site, /legal/*). */}
        <p className="text-center text-xs text-slate-600" data-testid="register-legal">
          <Trans
            i18nKey="register.legal"
            components={{
              terms: <LegalLink href="/legal/tos" />,
              privacy: <LegalLink href="/legal/privacy" />,
            }}
          />
        </p>
        <AuthSwitch question={t('register.haveAccount')} to="/login" link={t('register.login')} />
      </AuthForm>
    </AuthLayout>
  );
}

/** A link to one of the site's legal pages, in a new tab; its words come from `<Trans>`. */
function LegalLink({ href, children }: { href: string; children?: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener" className="font-semibold text-brand-800 underline">
      {children}
    </a>
  );
}
