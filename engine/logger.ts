/**
 * Structured logging with pino. Secrets are redacted by path wherever they appear in a log
 * object (tokens, keys, passwords, authorization headers), so a stray `log.info({ bot })` never
 * prints a Telegram token; errors are serialized with Bot API tokens scrubbed from their text
 * (a network error's message carries the request URL, which carries the token).
 */
import { type Logger, pino } from 'pino';

export type { Logger };

/** Paths pino replaces with "[redacted]". */
export const REDACT_PATHS = [
  '*.telegram_token',
  '*.meta_token',
  '*.token',
  '*.apiKey',
  '*.password',
  '*.secret',
  '*.accessToken',
  '*.appSecret',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'telegram_token',
  'meta_token',
  'token',
  'apiKey',
  'password',
  'secret',
  'accessToken',
  'appSecret',
];

/** A Bot API URL path carries the token (`/bot<id>:<secret>/method`): never print it. */
const BOT_TOKEN_IN_TEXT = /bot\d+:[\w-]+/g;

/** A Meta (Graph API) access token: `EAA` and a long run of letters and digits. */
const META_TOKEN_IN_TEXT = /\bEAA[A-Za-z0-9]{20,}/g;

/** Replaces Telegram bot tokens and Meta access tokens in a text (error messages, URLs). */
export function scrubTokens(text: string): string {
  return text.replace(BOT_TOKEN_IN_TEXT, 'bot<token>').replace(META_TOKEN_IN_TEXT, 'EAA<token>');
}

/** pino's error serializer, with tokens scrubbed from the message, the stack and nested causes. */
function errSerializer(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  const clean = (v: unknown): unknown =>
    typeof v === 'string'
      ? scrubTokens(v)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clean(x)]))
        : v;
  return clean(out);
}

/**
 * Creates the root logger. `pretty` prints human lines (the CLI on a terminal); otherwise JSON
 * lines go to stdout (or `destination`), one object per event.
 */
export function createLogger(
  options: { level?: string; pretty?: boolean; name?: string; destination?: NodeJS.WritableStream } = {},
): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  const settings = {
    name: options.name ?? 'charla',
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: errSerializer },
    ...(options.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: {
              colorize: true,
              ignore: 'pid,hostname,name',
              translateTime: 'HH:MM:ss',
              destination: 2,
            },
          },
        }
      : {}),
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
