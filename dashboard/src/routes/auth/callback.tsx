/**
 * `/auth/callback` (spec 000 §2): "Procesando autenticación" while it decides. An expired link
 * (better-auth's TOKEN_EXPIRED, the spec's otp_expired) goes to /login?msg=link-expirado; a
 * recovery token goes to /update-password; any other error to /login?msg=error-sesion; with a
 * session it goes to /update-password when a recovery is pending, else to /main (or where the
 * owner was going).
 */
import { createFileRoute, redirect } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { meQuery, NEEDS_PASSWORD_UPDATE, safeRedirect } from '../../lib/auth.ts';

export const Route = createFileRoute('/auth/callback')({
  validateSearch: (
    s: Record<string, unknown>,
  ): { error?: string; error_code?: string; token?: string; type?: string; redirect?: string } => {
    const out: Record<string, string> = {};
    for (const k of ['error', 'error_code', 'token', 'type', 'redirect'])
      if (typeof s[k] === 'string' && s[k]) out[k] = s[k] as string;
    return out;
  },
  beforeLoad: async ({ context, search }) => {
    const code = `${search.error_code ?? ''} ${search.error ?? ''}`.toLowerCase();
    if (code.includes('otp_expired') || code.includes('token_expired') || code.includes('expired')) {
      throw redirect({ to: '/login', search: { msg: 'link-expirado' } });
    }
    if (search.type === 'recovery' && search.token) {
      localStorage.setItem(NEEDS_PASSWORD_UPDATE, 'true');
      throw redirect({ to: '/update-password', search: { token: search.token } });
    }
    if (search.error) throw redirect({ to: '/login', search: { msg: 'error-sesion' } });
    const me = await context.queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
    if (!me) throw redirect({ to: '/login', search: { msg: 'error-sesion' } });
    if (localStorage.getItem(NEEDS_PASSWORD_UPDATE) === 'true') throw redirect({ to: '/update-password' });
    throw redirect({ href: safeRedirect(search.redirect) });
  },
  pendingComponent: Processing,
  component: Processing,
});

function Processing() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh items-center justify-center" role="status">
      <p className="text-lg text-slate-700">{t('callback.processing')}…</p>
    </div>
  );
}
