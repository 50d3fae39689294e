/**
 * Issue 29 "Language": what the server stores as a code with parameters (a channel's last error,
 * adapters/shared/channel-errors.ts) shown in the owner's language. Known codes are
 * `channelErrors.<code>` in the seven locales; an unknown one is the generic
 * `channelErrors.channel_error` ("channel error (code X)") with the code as X — never the
 * server's raw text.
 */
import type { TFunction } from 'i18next';

/** The owner's text of a code; null when there is no code (no error). */
export function serverCodeText(
  t: TFunction,
  exists: (key: string) => boolean,
  code: string | null | undefined,
  params: Record<string, string | number> = {},
): string | null {
  if (!code) return null;
  const key = `channelErrors.${code}`;
  if (/^\w+$/.test(code) && exists(key)) return t(key, { code: '—', ...params });
  return t('channelErrors.channel_error', { code });
}

/** The owner's text of a health's last error (its code, or the generic text for an uncoded one). */
export function healthErrorText(
  t: TFunction,
  exists: (key: string) => boolean,
  health: {
    lastError: string | null;
    lastErrorCode?: string | null;
    lastErrorParams?: Record<string, string | number>;
  },
): string | null {
  if (health.lastErrorCode) return serverCodeText(t, exists, health.lastErrorCode, health.lastErrorParams);
  return health.lastError ? t('channelErrors.channel_error', { code: '—' }) : null;
}
