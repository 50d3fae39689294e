/**
 * `/login` (spec 000 §2): e-mail and password, Google (only when the server has it), the Facebots
 * button (new tab; hidden until the directory exists, lib/features.ts), links to /reset-password
 * and /register, and the `msg` values of the auth
 * callback. A signed-in visitor goes on to /main, or back to the guarded page that sent them here.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, redirect, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { AuthForm, AuthSwitch, useAuthForm } from '../components/AuthForm.tsx';
import { Alert, AuthLayout, Button } from '../components/ui.tsx';
import {
  authConfigQuery,
  loadAuthClient,
  meQuery,
  NEEDS_PASSWORD_UPDATE,
  safeRedirect,
} from '../lib/auth.ts';
import { enabled } from '../lib/features.ts';

const MESSAGES = ['link-expirado', 'error-recovery', 'error-sesion', 'cuenta-eliminada'] as const;

/** The query values /login understands; anything else is dropped. */
function validateSearch(search: Record<string, unknown>): {
  msg?: (typeof MESSAGES)[number];
  redirect?: string;
  type?: string;
  token?: string;
} {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const msg = MESSAGES.find((m) => m === search.msg);
  return {
    ...(msg ? { msg } : {}),
    ...(str(search.redirect) ? { redirect: str(search.redirect) } : {}),
    ...(str(search.type) ? { type: str(search.type) } : {}),
    ...(str(search.token) ? { token: str(search.token) } : {}),
  };
}

export const Route = createFileRoute('/login')({
  validateSearch,
  beforeLoad: async ({ context, search }) => {
    if (search.type === 'recovery' || search.token) {
      localStorage.setItem(NEEDS_PASSWORD_UPDATE, 'true');
      throw redirect({ to: '/update-password', search: search.token ? { token: search.token } : {} });
    }
    const me = await context.queryClient.ensureQueryData(meQuery);
    if (me) throw redirect({ href: safeRedirect(search.redirect) });
  },
  component: Login,
});

function Login() {
  const { t } = useTranslation();
  const search = Route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = useQuery(authConfigQuery);
  const form = useAuthForm();
  const { values, setBusy, setError } = form;

  async function submit() {
    setBusy(true);
    // callbackURL: where the confirmation link sent again to an unconfirmed owner lands.
    // No callbackURL: with one, better-auth's client reloads the page on it after signing in, racing
    // the navigation below (the confirmation link re-sent to an unconfirmed owner gets
    // /auth/callback on the server, engine/auth).
    const authClient = await loadAuthClient();
    const { error: failure } = await authClient.signIn.email({
      email: (values.email ?? '').trim(),
      password: values.password ?? '',
    });
    setBusy(false);
    if (failure) {
      if (failure.status === 403) setError(t('login.errorNotVerified'));
      else if (failure.status === 429) setError(t('login.errorTooMany'));
      else if (failure.status === 401 || failure.status === 400) setError(t('login.errorCredentials'));
      else setError(t('login.errorGeneric'));
      return;
    }
    // The guard of the next page reads the session from the cache: load it fresh first.
    await queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
    await navigate({ href: safeRedirect(search.redirect) });
  }

  async function google() {
    setError(null);
    const authClient = await loadAuthClient();
    const { error: failure } = await authClient.signIn.social({
      provider: 'google',
      callbackURL: `/auth/callback${search.redirect ? `?redirect=${encodeURIComponent(safeRedirect(search.redirect))}` : ''}`,
      errorCallbackURL: '/login?msg=error-sesion',
    });
    if (failure) setError(t('login.errorGoogle'));
  }

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <div className="space-y-4">
        {search.msg ? <Alert tone="info">{t(`login.msg.${search.msg}`)}</Alert> : null}
        <AuthForm
          form={form}
          texts="login"
          inputs={[
            { name: 'email', type: 'email', autoComplete: 'email', required: true },
            { name: 'password', type: 'password', autoComplete: 'current-password', required: true },
          ]}
          onSubmit={submit}
          beforeSubmit={
            <div className="text-right text-sm">
              <Link to="/reset-password" className="font-medium text-brand-700 hover:underline">
                {t('login.forgot')}
              </Link>
            </div>
          }
        />
        {config.data?.google ? (
          <>
            <div className="flex items-center gap-3 text-xs uppercase text-slate-400">
              <span className="h-px flex-1 bg-slate-200" />
              {t('login.or')}
              <span className="h-px flex-1 bg-slate-200" />
            </div>
            <Button variant="secondary" onClick={() => void google()}>
              <GoogleMark />
              {t('login.google')}
            </Button>
          </>
        ) : null}
        {enabled('facebots') ? (
          <Button variant="secondary" onClick={() => window.open('/facebots', '_blank', 'noopener')}>
            {t('login.facebots')}
          </Button>
        ) : null}
        <AuthSwitch question={t('login.noAccount')} to="/register" link={t('login.register')} />
      </div>
    </AuthLayout>
  );
}

function GoogleMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 48 48" className="h-4 w-4">
      <path
        fill="#EA4335"
        d="M24 9.5c3.5 0 6.6 1.2 9 3.6l6.7-6.7C35.6 2.4 30.2 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.8 6C12.4 13.6 17.7 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.8c4.3-4 6.9-9.9 6.9-17.2z"
      />
      <path
        fill="#FBBC05"
        d="M10.5 28.7c-.5-1.4-.8-3-.8-4.7s.3-3.2.8-4.7l-7.8-6C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.8-6z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.8c-2.1 1.4-4.8 2.3-8.5 2.3-6.3 0-11.6-4.1-13.5-9.8l-7.8 6C6.6 42.6 14.6 48 24 48z"
      />
    </svg>
  );
}
