/**
 * `charla` as a process, run exactly as `npm start` runs it (issue 10): `node bin/charla.js`, which
 * imports the esbuild bundle dist/charla.mjs (scripts/bundle.mjs), never the TypeScript sources.
 * {@link bundleLikeNpmStart} makes the bundle the way bin/charla.js does on every start, and fails the
 * test when it cannot be built (bin/charla.js would fall back to the sources and hide a bundling
 * bug); the spawned process's output is checked for that fallback too.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The `charla` command (package.json `bin`; `npm start` is `node bin/charla.js start`). */
export const BIN = new URL('../../bin/charla.js', import.meta.url).pathname;

/** What bin/charla.js prints when it cannot bundle and runs the sources instead. */
const SOURCE_FALLBACK = 'running them through tsx';

/**
 * Builds dist/charla.mjs when a source is newer (the call bin/charla.js makes before importing it)
 * and returns its path. @throws when esbuild cannot bundle the sources.
 */
export async function bundleLikeNpmStart(): Promise<string> {
  const { ensureBundle } = (await import(new URL('../../scripts/bundle.mjs', import.meta.url).href)) as {
    ensureBundle: () => Promise<string>;
  };
  const bundle = await ensureBundle();
  if (!existsSync(bundle)) throw new Error(`no bundle at ${bundle}`);
  return bundle;
}

/**
 * The environment of a spawned `charla`: the test's own, without the variables that would change
 * what runs (CHARLA_FROM_SOURCE, a database or an LLM of the developer's shell), plus `extra`.
 */
export function charlaEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const {
    CHARLA_FROM_SOURCE: _s,
    OPENAI_API_KEY: _k,
    OPENAI_BASE_URL: _b,
    DATABASE_URL: _d,
    ...rest
  } = process.env;
  return { ...rest, LOG_LEVEL: 'warn', ...extra };
}

/** Runs one `charla` command to its end: exit code, stdout and stderr (60 s at most). */
export function runCharla(args: string[], env: NodeJS.ProcessEnv) {
  const res = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  if (res.stderr?.includes(SOURCE_FALLBACK)) throw new Error(`charla ran the sources:\n${res.stderr}`);
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** A running `charla serve`. */
export interface CharlaServer {
  child: ChildProcess;
  /** Where it listens, e.g. http://127.0.0.1:40123. */
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
}

/**
 * Starts `charla serve --port 0` and resolves once it prints its URL; rejects when it exits first,
 * does not start within 60 s, or runs the sources instead of the bundle (then it is killed).
 */
export function serveCharla(env: NodeJS.ProcessEnv): Promise<CharlaServer> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env });
  let out = '';
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      child.kill('SIGKILL');
      reject(new Error(`${why}:\n${out}`));
    };
    const timer = setTimeout(() => fail('serve did not start'), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Charla is running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        if (out.includes(SOURCE_FALLBACK)) fail('charla ran the sources');
        else resolve({ child, url: m[1]!, output: () => out });
      }
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code ?? signal}):\n${out}`));
    });
  });
}
