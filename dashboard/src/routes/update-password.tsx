/**
 * `/update-password` (spec 000 §2, §5): a new password and its confirmation. Opened from the
 * reset mail it carries the reset token; otherwise it needs a session (and, to change a known
 * password, the current one), and without either it goes to /login. Both fields are required
 * ("Por favor, completa todos los campos"), must match, and have at least 8 characters.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, redirect } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, AuthLayout, Button, Field } from '../components/ui.tsx';
import { authClient, meQuery, NEEDS_PASSWORD_UPDATE } from '../lib/auth.ts';

export const Route = createFileRoute('/update-password')({
  validateSearch: (search: Record<string, unknown>): { token?: string; error?: string } => ({
    ...(typeof search.token === 'string' && search.token ? { token: search.token } : {}),
    ...(typeof search.error === 'string' && search.error ? { error: search.error } : {}),
  }),
  beforeLoad: async ({ context, search }) => {
    if (search.error) throw redirect({ to: '/login', search: { msg: 'error-recovery' } });
    if (search.token) return { mode: 'reset' as const };
    const me = await context.queryClient.ensureQueryData(meQuery);
    if (!me) throw redirect({ to: '/login' });
    return { mode: 'change' as const };
  },
  component: UpdatePassword,
});

function UpdatePassword() {
  const { t } = useTranslation();
  const { token } = Route.useSearch();
  const { mode } = Route.useRouteContext();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!password || !confirm || (mode === 'change' && !current)) return setError(t('update.required'));
    if (password !== confirm) return setError(t('update.mismatch'));
    if (password.length < 8) return setError(t('update.tooShort'));
    setBusy(true);
    const result =
      mode === 'reset'
        ? await authClient.resetPassword({ newPassword: password, token: token ?? '' })
        : await authClient.changePassword({
            currentPassword: current,
            newPassword: password,
            revokeOtherSessions: true,
          });
    setBusy(false);
    if (result.error) {
      setError(
        mode === 'change' && result.error.status === 400 ? t('update.errorCurrent') : t('update.error'),
      );
      return;
    }
    localStorage.removeItem(NEEDS_PASSWORD_UPDATE);
    await queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
    setDone(true);
  }

  return (
    <AuthLayout title={t('update.title')}>
      {done ? (
        <div className="space-y-4">
          <Alert tone="success">{mode === 'reset' ? t('update.done') : t('update.doneSession')}</Alert>
          <Link
            to={mode === 'reset' ? '/login' : '/main'}
            className="block text-center text-sm font-semibold text-brand-700 hover:underline"
          >
            {mode === 'reset' ? t('update.goLogin') : t('update.goMain')}
          </Link>
        </div>
      ) : (
        <form className="space-y-4" onSubmit={submit} noValidate>
          {error ? <Alert tone="error">{error}</Alert> : null}
          {mode === 'change' ? (
            <Field
              label={t('update.current')}
              type="password"
              name="current"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          ) : null}
          <Field
            label={t('update.password')}
            type="password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Field
            label={t('update.confirm')}
            type="password"
            name="confirm"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <Button type="submit" disabled={busy}>
            {busy ? t('update.submitting') : t('update.submit')}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
