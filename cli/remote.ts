/**
 * Operator commands while `charla serve` runs on the embedded database (issue 26 §6). PGlite lets
 * one process open the data dir; the commands `charla coupons create|list` and
 * `charla owners grant-days|list` then send the same operation to the running server's operator API
 * (`/api/operator/*`, plugins/billing/operator-routes.ts) instead of failing with exit 4.
 *
 * How the CLI finds the server: `charla serve` writes `<data dir>/server.json` `{url, pid, store}`
 * (mode 0600) once it listens and removes it on a clean stop (cli/commands/serve.ts). The file is
 * believed only while the process holding the data dir's lock (engine/store/data-dir-lock.ts) is
 * the one it names, so a file left by a killed server is ignored. The token is the operator token
 * derived from the instance secret (`CHARLA_SECRET` or `<data dir>/secret`, engine/operator.ts),
 * which this command reads as the server does. On PostgreSQL (`DATABASE_URL` set) the commands
 * always open the database themselves: several processes may.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { CharlaConfig } from '../engine/config.ts';
import { loadConfig } from '../engine/config.ts';
import { OPERATOR_HEADER, operatorToken } from '../engine/operator.ts';
import { resolveSecret, SecretBox } from '../engine/secrets.ts';
import { dataDirHolder } from '../engine/store/data-dir-lock.ts';
import type { CharlaApp } from './app.ts';
import { serverInfoPath } from './commands/serve.ts';
import { CliError, EXIT, withApp } from './util.ts';

/** A running server to send operator requests to. */
export interface RunningServer {
  /** Its base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The operator token header. */
  headers: Record<string, string>;
}

/**
 * The server that holds this embedded data dir and advertised itself, or null (PostgreSQL, no
 * holder, no or stale `server.json`).
 */
export function runningServer(config: CharlaConfig): RunningServer | null {
  if (config.databaseUrl) return null;
  const holder = dataDirHolder(config.dataDir);
  const file = serverInfoPath(config.dataDir);
  if (holder === null || !existsSync(file)) return null;
  let info: { url?: unknown; pid?: unknown };
  try {
    info = JSON.parse(readFileSync(file, 'utf8')) as typeof info;
  } catch {
    return null;
  }
  if (typeof info.url !== 'string' || info.pid !== holder) return null;
  const token = operatorToken(new SecretBox(resolveSecret(config.dataDir, config.secret)));
  return { url: info.url.replace(/\/$/, ''), headers: { [OPERATOR_HEADER]: token } };
}

/**
 * Sends one operator request and returns its JSON answer.
 * @throws CliError with the server's message: 404 → EXIT.notFound, other 4xx → EXIT.usage,
 *   anything else (or no answer) → EXIT.failure.
 */
export async function operatorRequest<T>(
  server: RunningServer,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...server.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw new CliError(
      `the data dir is in use by a server at ${server.url}, which did not answer: ${(err as Error).message}`,
      EXIT.failure,
    );
  }
  const answer = (await res.json().catch(() => ({}))) as { error?: string };
  if (res.ok) return answer as T;
  const message = answer.error ?? `the server at ${server.url} answered ${res.status}`;
  if (res.status === 404) throw new CliError(message, EXIT.notFound);
  if (res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 403)
    throw new CliError(message, EXIT.usage);
  throw new CliError(`${message} (HTTP ${res.status} from ${server.url})`, EXIT.failure);
}

/**
 * Runs an operator command: directly on the database (`direct`, through {@link withApp}), or, when
 * a running `charla serve` holds the embedded data dir, through its operator API (`remote`). Both
 * must print the same output.
 * @throws CliError EXIT.busy when the data dir is held by a process that did not advertise a URL.
 */
export async function withAppOrServer<T>(
  direct: (app: CharlaApp, config: CharlaConfig) => Promise<T>,
  remote: (server: RunningServer) => Promise<T>,
): Promise<T> {
  const server = runningServer(loadConfig());
  if (server) return remote(server);
  try {
    return await withApp(direct);
  } catch (err) {
    // The server started between the look and the open: ask it.
    const late = err instanceof CliError && err.exitCode === EXIT.busy ? runningServer(loadConfig()) : null;
    if (late) return remote(late);
    throw err;
  }
}
