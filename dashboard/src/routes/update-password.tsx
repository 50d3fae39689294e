/**
 * `/update-password` (spec 000 §2, §5): a new password and its confirmation. Opened from the
 * reset mail it carries the reset token; otherwise it needs a session (and, to change a known
 * password, the current one), and without either it goes to /login. Both fields are required
 * ("Por favor, completa todos los campos"), must match, and have at least 8 characters.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthDone, AuthForm, type AuthInput, useAuthForm } from '../components/AuthForm.tsx';
import { AuthLayout } from '../components/ui.tsx';
import { loadAuthClient, meQuery, NEEDS_PASSWORD_UPDATE } from '../lib/auth.ts';

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
  const form = useAuthForm();
  const { values, setBusy, setError } = form;
  const [done, setDone] = useState(false);

  async function submit() {
    const { current = '', password = '', confirm = '' } = values;
    if (!password || !confirm || (mode === 'change' && !current)) return setError(t('update.required'));
    if (password !== confirm) return setError(t('update.mismatch'));
    if (password.length < 8) return setError(t('update.tooShort'));
    setBusy(true);
    const authClient = await loadAuthClient();
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

  const inputs: AuthInput[] = [
    ...(mode === 'change'
      ? [{ name: 'current', type: 'password', autoComplete: 'current-password' } as const]
      : []),
    { name: 'password', type: 'password', autoComplete: 'new-password' },
    { name: 'confirm', type: 'password', autoComplete: 'new-password' },
  ];
  return (
    <AuthLayout title={t('update.title')}>
      {done ? (
        <AuthDone
          message={mode === 'reset' ? t('update.done') : t('update.doneSession')}
          to={mode === 'reset' ? '/login' : '/main'}
          link={mode === 'reset' ? t('update.goLogin') : t('update.goMain')}
        />
      ) : (
        <AuthForm form={form} texts="update" inputs={inputs} onSubmit={submit} noValidate />
      )}
    </AuthLayout>
  );
}
