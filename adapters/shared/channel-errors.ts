/**
 * A channel connection's last error as a code with parameters (issue 29 "Language": errors stored
 * by the server are shown in the owner's language). The adapters keep their last error as text
 * (Telegram in memory, WhatsApp in `whatsapp_connections.last_error`): the raw text — often the
 * provider's English message — stays for the operator's panel and the logs, and the owner's routes
 * answer {@link channelErrorCode}'s code, which the dashboard translates (`channelErrors.<code>` in
 * the seven locales). Stored text this module does not recognise (older rows, new provider
 * messages) becomes `channel_error`, shown as a generic translated "channel error (code X)".
 * Browser-safe (no Node imports).
 */
import { TEMPLATE_NOTES } from '../whatsapp/cloud/template-texts.ts';
import { WHATSAPP_ERRORS } from '../whatsapp/texts.ts';

/** A last error as the dashboard translates it: `channelErrors.<code>` with `params` interpolated. */
export interface ChannelErrorCode {
  code: string;
  params: Record<string, string | number>;
}

/**
 * Every code {@link channelErrorCode} answers (each is a `channelErrors.<code>` key in the seven
 * dashboard locales).
 */
export const CHANNEL_ERROR_CODES = [
  'channel_error',
  'channel_unreachable',
  'telegram_token_rejected',
  'telegram_conflict',
  'telegram_no_worker',
  'telegram_webhook_elsewhere',
  'telegram_webhook_failing',
  'telegram_file_refused',
  'whatsapp_connecting',
  'whatsapp_logged_out',
  'whatsapp_qr_expired',
  'whatsapp_link_network',
  'whatsapp_replaced',
  'whatsapp_held_elsewhere',
  'whatsapp_window_24h',
  'whatsapp_file_refused',
  'whatsapp_send_failed',
  'whatsapp_token_rejected',
  'whatsapp_template_missing',
  'whatsapp_template_refused',
  'whatsapp_held_failed',
  'whatsapp_session_failed',
  'channel_credentials_unreadable',
] as const;

/** A template of WHATSAPP_ERRORS as a regular expression capturing its `{name}` placeholders. */
function templatePattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\{(\w+)\}/g, '(?<$1>.*?)')}$`, 's');
}

/** WhatsApp's own texts → code; `{reason}` (the provider's words) is never passed on. */
const WHATSAPP_PATTERNS: Array<[RegExp, string]> = (
  [
    ['loggedOut', 'whatsapp_logged_out'],
    ['qrExpired', 'whatsapp_qr_expired'],
    ['replaced', 'whatsapp_replaced'],
    ['heldElsewhere', 'whatsapp_held_elsewhere'],
    ['window24h', 'whatsapp_window_24h'],
    ['fileRefused', 'whatsapp_file_refused'],
    ['sendFailed', 'whatsapp_send_failed'],
    ['cloudTokenRejected', 'whatsapp_token_rejected'],
  ] as const
)
  .map(([key, code]): [RegExp, string] => [templatePattern(WHATSAPP_ERRORS[key]), code])
  .concat([
    [templatePattern(TEMPLATE_NOTES.noTemplate), 'whatsapp_template_missing'],
    [templatePattern(TEMPLATE_NOTES.refused), 'whatsapp_template_refused'],
    [templatePattern(TEMPLATE_NOTES.heldFailed), 'whatsapp_held_failed'],
  ]);

/** An HTTP status in a provider's message (`401: Unauthorized`, `… webhook: 502`), if any. */
function statusIn(text: string): number | null {
  const m = /\b([45]\d\d)\b/.exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * The code of a connection's last error text (see the module comment); null for no error.
 * Parameters are only what Charla itself put in the text (a chat number, a file name, a URL, an
 * HTTP status), never the provider's sentence.
 */
export function channelErrorCode(text: string | null | undefined): ChannelErrorCode | null {
  if (!text) return null;
  if (text.startsWith(WHATSAPP_ERRORS.linkNetwork)) return { code: 'whatsapp_link_network', params: {} };
  for (const [pattern, code] of WHATSAPP_PATTERNS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.groups ?? {})) if (k !== 'reason' && k !== 'langs') params[k] = v;
    return { code, params };
  }
  if (text === 'WhatsApp se está conectando…') return { code: 'whatsapp_connecting', params: {} };
  if (text.startsWith('no se pudo abrir la sesión')) return { code: 'whatsapp_session_failed', params: {} };
  if (text.startsWith('stored token unreadable'))
    return { code: 'channel_credentials_unreadable', params: {} };
  const file = /^Telegram rechazó el archivo (.*?): /s.exec(text);
  if (file) return { code: 'telegram_file_refused', params: { file: file[1] ?? '' } };
  if (text.startsWith('ningún nodo de trabajo')) return { code: 'telegram_no_worker', params: {} };
  const elsewhere = /^webhook apunta a "(.*)"$/s.exec(text);
  if (elsewhere) return { code: 'telegram_webhook_elsewhere', params: { url: elsewhere[1] ?? '' } };
  if (/^Wrong response from the webhook/i.test(text))
    return { code: 'telegram_webhook_failing', params: { status: statusIn(text) ?? 0 } };
  if (/^401\b|unauthorized/i.test(text)) return { code: 'telegram_token_rejected', params: { status: 401 } };
  if (/^409\b|conflict/i.test(text)) return { code: 'telegram_conflict', params: { status: 409 } };
  if (
    /ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|fetch failed|network|^red: |timed? ?out/i.test(
      text,
    )
  )
    return { code: 'channel_unreachable', params: {} };
  const status = statusIn(text);
  return { code: 'channel_error', params: { code: status ?? '—' } };
}

/**
 * A connection's health as the owner's routes answer it: the engine's health plus
 * `lastErrorCode`/`lastErrorParams` ({@link channelErrorCode} of its `lastError`).
 */
export function ownerHealth<H extends { lastError: string | null }>(
  health: H,
): H & { lastErrorCode: string | null; lastErrorParams: Record<string, string | number> } {
  const coded = channelErrorCode(health.lastError);
  return { ...health, lastErrorCode: coded?.code ?? null, lastErrorParams: coded?.params ?? {} };
}
