/**
 * Shared pieces of the `charla` commands: exit codes, output, and opening the app for one command.
 */

import { type CharlaConfig, ConfigError, loadConfig } from '../engine/config.ts';
import { AppError } from '../engine/errors.ts';
import { createLogger, type Logger } from '../engine/logger.ts';
import { DataDirBusyError } from '../engine/store/data-dir-lock.ts';
import { type CharlaApp, createApp } from './app.ts';

/** Exit codes of every command (also in `charla --help`). */
export const EXIT = {
  ok: 0,
  /** Unexpected failure (database down, migration error, …). */
  failure: 1,
  /** Invalid usage or input. */
  usage: 2,
  /** The bot, file or owner does not exist. */
  notFound: 3,
  /** The embedded database is held by another process. */
  busy: 4,
} as const;

/** An error that ends a command with a given exit code and message. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** Prints a progress line to stderr (stdout stays clean for data and --json). */
export function progress(line: string): void {
  process.stderr.write(`• ${line}\n`);
}

/** Prints data: JSON when `json`, else the text. */
export function output(json: boolean, data: unknown, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${text()}\n`);
}

/** The CLI's logger: human lines on stderr, warnings and up unless LOG_LEVEL says otherwise. */
export function cliLogger(level?: string): Logger {
  return createLogger({ pretty: true, level: level ?? process.env.LOG_LEVEL ?? 'warn' });
}

/**
 * Runs `fn` with a composed app and closes it afterwards.
 * @throws CliError with EXIT.busy when the embedded database is in use.
 */
export async function withApp<T>(
  fn: (app: CharlaApp, config: CharlaConfig) => Promise<T>,
  options: { log?: Logger } = {},
): Promise<T> {
  const config = loadConfig();
  let app: CharlaApp;
  try {
    app = await createApp(config, { log: options.log ?? cliLogger() });
  } catch (err) {
    if (err instanceof DataDirBusyError) throw new CliError(err.message, EXIT.busy);
    throw err;
  }
  try {
    return await fn(app, config);
  } finally {
    await app.close();
  }
}

/** Maps any error to a message and an exit code. */
export function exitFor(err: unknown): { message: string; code: number } {
  if (err instanceof CliError) return { message: err.message, code: err.exitCode };
  // An invalid environment (DATABASE_URL, …) is invalid input (issue 24 §7).
  if (err instanceof ConfigError) return { message: err.message, code: EXIT.usage };
  if (err instanceof AppError)
    return { message: err.message, code: err.code === 'NOT_FOUND' ? EXIT.notFound : EXIT.usage };
  if (err instanceof DataDirBusyError) return { message: err.message, code: EXIT.busy };
  return { message: err instanceof Error ? err.message : String(err), code: EXIT.failure };
}
