/**
 * Structured logging with pino. Secrets are redacted by path wherever they appear in a log
 * object (tokens, keys, passwords, authorization headers), so a stray `log.info({ bot })` never
 * prints a Telegram token.
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
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'telegram_token',
  'meta_token',
  'token',
  'apiKey',
  'password',
  'secret',
];

/**
 * Creates the root logger. `pretty` prints human lines (the CLI on a terminal); otherwise JSON
 * lines go to stdout, one object per event.
 */
export function createLogger(options: { level?: string; pretty?: boolean; name?: string } = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  return pino({
    name: options.name ?? 'charla',
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
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
  });
}
