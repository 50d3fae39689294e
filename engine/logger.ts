/**
 * Structured logging with pino. Secrets never reach a log (issue 24 item 6): they are redacted by
 * key wherever they appear in a log object (tokens, keys, passwords, cookies, authorization
 * headers, connection URLs with a password), so a stray `log.info({ bot })` never prints a Telegram
 * token; and every text logged (the message, string values at any depth, an error's message, stack
 * and causes) is scrubbed of the secrets that travel inside texts and URLs ({@link scrubTokens}: a
 * network error's message carries the Bot API URL, which carries the bot's token).
 */
import { type Logger, pino } from 'pino';
import { currentLogContext } from './log-context.ts';

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
  '*.app_secret',
  '*.refreshToken',
  '*.refresh_token',
  '*.access_token',
  '*.idToken',
  '*.id_token',
  '*.authorization',
  '*.cookie',
  '*["set-cookie"]',
  '*["x-charla-operator"]',
  '*.smtpUrl',
  '*.databaseUrl',
  '*.webhookSecret',
  '*.privKey',
  '*.creds',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'telegram_token',
  'meta_token',
  'token',
  'apiKey',
  'password',
  'secret',
  'accessToken',
  'appSecret',
  'app_secret',
  'refreshToken',
  'refresh_token',
  'access_token',
  'idToken',
  'id_token',
  'authorization',
  'cookie',
  'smtpUrl',
  'databaseUrl',
  'webhookSecret',
  'privKey',
  'creds',
];

/**
 * Secrets that travel inside texts, each with what replaces it. Telegram bot tokens (in Bot API
 * URLs, `/bot<id>:<secret>/method`, or bare), Meta (Graph API) access tokens (`EAA…`), Stripe
 * secret and restricted keys and webhook secrets, OpenAI-style keys (`sk-…`), `Bearer` credentials,
 * a URL's password (`postgres://user:pass@…`, `smtp://user:pass@…`), URL parameters that carry a
 * credential (`token`, `access_token`, `hub.verify_token`, `code`, `state`, `key`, `secret`,
 * `password`, `signature`, …) and better-auth's reset link path (`/reset-password/<token>`).
 */
const SECRETS_IN_TEXT: ReadonlyArray<[RegExp, string]> = [
  [/bot\d+:[\w-]+/g, 'bot<token>'],
  [/\b\d{5,}:[A-Za-z0-9_-]{30,}/g, '<telegram token>'],
  [/\bEAA[A-Za-z0-9]{20,}/g, 'EAA<token>'],
  [/\b(sk|rk)_(live|test)_[A-Za-z0-9]{8,}/g, '$1_$2_<key>'],
  [/\bwhsec_[A-Za-z0-9+/=]{8,}/g, 'whsec_<secret>'],
  [/\bsk-[A-Za-z0-9_-]{20,}/g, 'sk-<key>'],
  [/\b(bearer)\s+[A-Za-z0-9._~+/-]{8,}=*/gi, '$1 <token>'],
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]+:)[^\s@/?#]+@/gi, '$1<password>@'],
  [
    /([?&#;](?:[a-z0-9_.-]*token|code|state|key|api_?key|secret|password|signature|sig)=)[^&#\s"'<>]+/gi,
    '$1<redacted>',
  ],
  [/(\/reset-password\/)[^/?#\s"'<>]+/g, '$1<token>'],
];

/**
 * Replaces the secrets that travel inside a text (error messages, URLs, log messages) with a
 * placeholder; see {@link SECRETS_IN_TEXT}. Everything else is left as it is.
 */
export function scrubTokens(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRETS_IN_TEXT) out = out.replace(pattern, replacement);
  return out;
}

/**
 * A log object with every string scrubbed ({@link scrubTokens}), at any depth of plain objects and
 * arrays (at most 6 levels). Errors, dates and buffers are left to their serializers.
 */
function scrubObject(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubTokens(value);
  if (depth >= 6 || !value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubObject(v, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubObject(v, depth + 1)]));
}

/** pino's error serializer, with tokens scrubbed from the message, the stack and nested causes. */
function errSerializer(err: unknown): unknown {
  let out: Record<string, unknown>;
  try {
    out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  } catch {
    // A frozen error (the serializer tags it to detect cycles): its own fields, never a throw.
    const e = err as Partial<Error>;
    out = { type: e?.name ?? typeof err, message: String(e?.message ?? err), stack: String(e?.stack ?? '') };
  }
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
    // The request, job or update the line belongs to (engine/log-context.ts). A copy: pino merges
    // the line's own fields into the mixin's object (Object.assign), which must not be the frozen
    // empty context (a TypeError that ended the process) nor the context itself (fields would stick).
    mixin: () => ({ ...currentLogContext() }),
    formatters: { log: (object: Record<string, unknown>) => scrubObject(object) as Record<string, unknown> },
    hooks: {
      logMethod(this: Logger, args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? scrubTokens(a) : a)),
        );
      },
    },
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
