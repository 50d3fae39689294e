/**
 * Child processes of `npm run bench` (the fake LLM, `charla serve`, the floor): spawning them,
 * reading the first line they print, polling their `/healthz`, and stopping every one of them at
 * the end, also when the bench fails. Measures nothing itself; see bench/index.ts.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PG_ADMIN_URL } from './settings.ts';

/** The repository root (the bench runs every child from there). */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A spawned child and the tail of what it wrote (for error messages). */
export interface Child {
  name: string;
  proc: ChildProcess;
  /** Last ~8 KB of stdout + stderr. */
  output(): string;
  /** Resolves with the first stdout line matching `re` (or rejects on exit / timeout). */
  waitForLine(re: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

const children = new Set<Child>();

/** Spawns `node <args>` in the repository root; stdout/stderr are captured, not printed. */
export function spawnNode(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
): Child {
  const proc = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  let stdoutBuf = '';
  const lineWaiters: Array<{ re: RegExp; resolve: (m: RegExpMatchArray) => void }> = [];
  const keep = (s: string) => {
    tail = (tail + s).slice(-8192);
  };
  proc.stdout!.setEncoding('utf8').on('data', (s: string) => {
    keep(s);
    stdoutBuf += s;
    let nl = stdoutBuf.indexOf('\n');
    while (nl >= 0) {
      const line = stdoutBuf.slice(0, nl);
      stdoutBuf = stdoutBuf.slice(nl + 1);
      for (const w of [...lineWaiters]) {
        const m = line.match(w.re);
        if (m) {
          lineWaiters.splice(lineWaiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
      nl = stdoutBuf.indexOf('\n');
    }
  });
  proc.stderr!.setEncoding('utf8').on('data', keep);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const child: Child = {
    name,
    proc,
    output: () => tail,
    waitForLine(re, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${name}: no line matching ${re} within ${timeoutMs} ms\n${tail}`)),
          timeoutMs,
        );
        const onExit = (code: number | null) =>
          reject(new Error(`${name} exited (code ${code}) before printing ${re}\n${tail}`));
        proc.once('exit', onExit);
        lineWaiters.push({
          re,
          resolve: (m) => {
            clearTimeout(timer);
            proc.off('exit', onExit);
            resolve(m);
          },
        });
      });
    },
    async stop(graceMs = 5000) {
      children.delete(child);
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  children.add(child);
  return child;
}

/** Kills every child still running (synchronously, for exit paths). */
export function killAll(): void {
  for (const c of children) {
    if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  }
  children.clear();
}

/** Stops every child still running, gracefully. */
export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((c) => c.stop()));
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Polls `url` until it answers 200; resolves with the ms elapsed since `since`.
 * @throws when `child` exits first or `timeoutMs` passes.
 */
export async function waitHealthy(
  url: string,
  child: Child,
  timeoutMs: number,
  since = performance.now(),
): Promise<number> {
  const deadline = since + timeoutMs;
  while (performance.now() < deadline) {
    if (child.proc.exitCode !== null || child.proc.signalCode !== null)
      throw new Error(
        `${child.name} exited (code ${child.proc.exitCode}) before ${url} answered\n${child.output()}`,
      );
    if ((await statusOf(url)) === 200) return performance.now() - since;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms\n${child.output()}`);
}

/** The status of a GET (0 on connection errors), on a fresh connection with a 1 s limit. */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = get(url, { agent: false, timeout: 1000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/**
 * Drops and creates the database `name` on the PostgreSQL server of BENCH_PG_ADMIN_URL.
 * @returns its connection string.
 */
export async function freshPostgresDb(name: string): Promise<string> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
