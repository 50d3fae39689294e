/**
 * The deploy files (issue 26 §4) are real, though nothing here builds them (no Docker daemon):
 *
 * - compose.yaml: two Charla nodes from the same build and image with the same settings, and every
 *   variable set on them is one Charla reads — the core schema (engine/config.ts `EnvSchema`), the
 *   adapters' and plugins' `envSchema`, the rate limits (engine/rate-limits.ts) and the variables
 *   read directly from `process.env` — so a misspelt or invented name fails here instead of being
 *   silently ignored in production; required secrets use `${VAR:?…}`; readiness probes; the proxy
 *   (deploy/Caddyfile) balances over both nodes without buffering event streams;
 * - Dockerfile: multi-stage, Debian's ffmpeg, production dependencies only, a non-root user, a
 *   HEALTHCHECK on /healthz, `bin/charla.js serve`, and every file it copies exists and is not
 *   left out of the build context by .dockerignore;
 * - no runtime source imports a package that `npm ci --omit=dev` leaves out;
 * - docs/deploy.md names every variable compose.yaml sets on the nodes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { adapterFactories } from '../adapters/index.ts';
import { LIMITS } from '../engine/rate-limits.ts';
import { plugins } from '../plugins/index.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
/** The folders whose code runs in the server (their tests aside). */
const RUNTIME_DIRS = ['cli', 'engine', 'adapters', 'plugins', 'migrations', 'bin'];

/** A service of compose.yaml, as far as this test reads it. */
interface Service {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  environment?: Record<string, string | number | boolean | null> | string[];
  healthcheck?: { test?: string | string[] };
  depends_on?: Record<string, { condition?: string }> | string[];
  volumes?: Array<string | { source?: string; target?: string }>;
}

const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;

/** A service's environment as name → value (compose accepts a map or `NAME=value` lines). */
function envOf(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env))
    return Object.fromEntries(env.map((line) => [line.split('=')[0]!, line.split('=').slice(1).join('=')]));
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

/** The services that run Charla: those built from this repository. */
const nodeNames = Object.keys(services).filter((name) => {
  const build = services[name]!.build;
  const context = typeof build === 'string' ? build : build?.context;
  return context === '.' || context === './';
});

/** The variable names of a settings schema (a `z.object`, possibly piped into a transform). */
function settingNames(schema: unknown, owner: string): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) return settingNames(schema.in, owner);
  throw new Error(`${owner}: its envSchema is not a z.object, so this test cannot list its variables`);
}

/** Every file under `dir` (relative to the root) with one of the source extensions, tests aside. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(ROOT, rel), { withFileTypes: true })) {
      const path = join(rel, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (/\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(path);
    }
  };
  walk(dir);
  return out;
}

/**
 * Every environment variable Charla reads: the core schema's keys (not exported, so read from the
 * text of engine/config.ts), each adapter's and plugin's `envSchema`, the rate limits, and the
 * names the runtime code reads from `process.env` directly (cli/commands/serve.ts, engine/media.ts …).
 */
function knownVariables(): Map<string, string> {
  const known = new Map<string, string>();
  const add = (name: string, where: string) => {
    if (!known.has(name)) known.set(name, where);
  };
  const config = read('engine/config.ts');
  const body = /const EnvSchema = z\.object\(\{([\s\S]*?)\n\}\);/.exec(config)?.[1];
  if (!body) throw new Error('engine/config.ts: `const EnvSchema = z.object({ … });` not found');
  for (const m of body.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)) add(m[1]!, 'engine/config.ts EnvSchema');
  for (const factory of adapterFactories) {
    const adapter = factory();
    if (adapter.envSchema)
      for (const n of settingNames(adapter.envSchema, `adapter ${adapter.id}`))
        add(n, `adapter ${adapter.id}`);
  }
  for (const plugin of plugins)
    if (plugin.envSchema)
      for (const n of settingNames(plugin.envSchema, `plugin ${plugin.id}`)) add(n, `plugin ${plugin.id}`);
  for (const limit of Object.values(LIMITS)) add(limit.env, 'engine/rate-limits.ts');
  add('CHARLA_RATE_LIMITS', 'engine/rate-limits.ts');
  for (const dir of RUNTIME_DIRS)
    for (const file of sourceFiles(dir)) {
      const text = read(file);
      for (const m of text.matchAll(/process\.env\)?\.([A-Z][A-Z0-9_]*)\b/g)) add(m[1]!, file);
      for (const m of text.matchAll(/process\.env\[['"]([A-Z][A-Z0-9_]*)['"]\]/g)) add(m[1]!, file);
    }
  return known;
}

describe('compose.yaml', () => {
  const known = knownVariables();

  it('finds the variables Charla reads (the check below would pass anything otherwise)', () => {
    for (const name of ['DATABASE_URL', 'CHARLA_SECRET', 'S3_BUCKET', 'TELEGRAM_MODE', 'PORT', 'FFMPEG_PATH'])
      expect(known.has(name), name).toBe(true);
    expect(known.has('CHARLA_NOT_A_SETTING')).toBe(false);
  });

  it('runs two Charla nodes from the same build and image, with the same settings', () => {
    expect(nodeNames).toHaveLength(2);
    const [a, b] = nodeNames.map((n) => services[n]!);
    expect(b!.build).toEqual(a!.build);
    expect(a!.image).toBeTruthy();
    expect(b!.image).toBe(a!.image);
    expect(Object.keys(envOf(b!)).sort()).toEqual(Object.keys(envOf(a!)).sort());
    expect(envOf(b!)).toEqual(envOf(a!));
  });

  it('sets on the nodes only variables Charla reads', () => {
    for (const name of nodeNames) {
      const unknown = Object.keys(envOf(services[name]!)).filter((v) => !known.has(v));
      expect(unknown, `${name}: variables Charla does not read`).toEqual([]);
    }
  });

  it('sets what a multi-node deployment needs, the secrets as required variables', () => {
    const env = envOf(services[nodeNames[0]!]!);
    for (const name of [
      'DATABASE_URL',
      'PUBLIC_URL',
      'TRUST_PROXY',
      'CHARLA_SECRET',
      'SMTP_URL',
      'MAIL_FROM',
      'S3_ENDPOINT',
      'S3_BUCKET',
      'S3_REGION',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_FORCE_PATH_STYLE',
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'CHARLA_METRICS_TOKEN',
      'CHARLA_SHUTDOWN_GRACE_MS',
      'LOG_LEVEL',
      'TELEGRAM_MODE',
    ])
      expect(env, name).toHaveProperty(name);
    for (const name of ['CHARLA_SECRET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'PUBLIC_URL'])
      expect(env[name], name).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/[^$]*\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\//);
    expect(env.S3_ENDPOINT).toBe('http://minio:9000');
    expect(env.S3_FORCE_PATH_STYLE).toBe('true');
    // TRUST_PROXY names the proxy's fixed address on the network.
    const proxyNets = (services.proxy as { networks?: Record<string, { ipv4_address?: string }> }).networks;
    expect(Object.values(proxyNets ?? {}).map((n) => n.ipv4_address)).toContain(env.TRUST_PROXY);
  });

  it('probes the nodes for readiness and starts them after PostgreSQL 16 and the bucket', () => {
    for (const name of nodeNames) {
      const service = services[name]!;
      expect([service.healthcheck?.test].flat().join(' ')).toContain('/readyz');
      const deps = service.depends_on as Record<string, { condition?: string }>;
      expect(deps.postgres?.condition).toBe('service_healthy');
      expect(deps['minio-init']?.condition).toBe('service_completed_successfully');
    }
    expect(services.postgres?.image).toMatch(/^postgres:16\b/);
    expect(services.minio?.image).toMatch(/minio\/minio\b/);
    expect(services['minio-init']?.image).toMatch(/minio\/mc\b/);
  });

  it('balances both nodes in the proxy, round-robin, with streams unbuffered', () => {
    const mount = (services.proxy?.volumes ?? [])
      .map((v) => (typeof v === 'string' ? v : `${v.source}:${v.target}`))
      .find((v) => v.split(':')[1] === '/etc/caddy/Caddyfile');
    expect(mount).toBeDefined();
    const caddyfile = read(mount!.split(':')[0]!.replace(/^\.\//, ''));
    const upstreams = /^\s*reverse_proxy\s+([^{\n]+)\{/m.exec(caddyfile)?.[1]?.trim().split(/\s+/) ?? [];
    expect(upstreams.sort()).toEqual(nodeNames.map((n) => `${n}:8787`).sort());
    expect(caddyfile).toMatch(/^\s*lb_policy round_robin$/m);
    expect(caddyfile).toMatch(/^\s*flush_interval -1$/m);
    expect(caddyfile).toMatch(/^\s*health_uri \/readyz$/m);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile').replace(/\\\n/g, ' ');
  const lines = dockerfile.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
  const instructions = (name: string) =>
    lines.filter((l) => l.trimStart().toUpperCase().startsWith(`${name} `)).map((l) => l.trim());
  const stages = instructions('FROM');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('builds in one stage and runs Node 20 on Debian slim in another', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const nodeImage = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1];
    expect(stages.at(-1)!.replace(/\$\{NODE_IMAGE\}/, nodeImage ?? '')).toMatch(
      /^FROM node:20-bookworm-slim\b/,
    );
    expect(dockerfile).toMatch(/npm run build/);
    expect(runtime).toMatch(/npm ci --omit=dev/);
  });

  it('installs ffmpeg, runs as a non-root user, checks /healthz and serves bin/charla.js', () => {
    expect(runtime).toMatch(/apt-get install[^\n]*\bffmpeg\b/);
    const user = instructions('USER').at(-1);
    expect(user).toBeDefined();
    expect(user!.split(/\s+/)[1]).not.toMatch(/^(root|0)(:|$)/);
    const health = instructions('HEALTHCHECK').at(-1);
    expect(health).toMatch(/\/healthz/);
    expect(health).not.toMatch(/\bcurl\b|\bwget\b/);
    const cmd = JSON.parse(instructions('CMD').at(-1)!.slice(4)) as string[];
    expect(cmd.slice(0, 3)).toEqual(['node', 'bin/charla.js', 'serve']);
    expect(cmd).toEqual(expect.arrayContaining(['--host', '0.0.0.0', '--port', '8787']));
    expect(instructions('EXPOSE')).toContain('EXPOSE 8787');
    expect(runtime).toMatch(/CHARLA_DATA_DIR=\/data/);
  });

  it('copies only files that exist and that .dockerignore keeps in the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const copied = instructions('COPY').map((l) => l.split(/\s+/).filter((p) => !p.startsWith('--')));
    expect(copied.length).toBeGreaterThan(0);
    for (const parts of copied) {
      for (const source of parts.slice(1, -1)) {
        const path = source.replace(/^\/app\//, '');
        // `.` is the context itself; dist/ is what the build stage's `npm run build` makes.
        if (path === '.' || path === 'dist') continue;
        expect(existsSync(join(ROOT, path)), `${path} exists`).toBe(true);
        const top = path.split('/')[0]!;
        expect(ignored, `${path} is in the build context`).not.toContain(top);
        expect(ignored).not.toContain(path);
      }
    }
  });

  it('sets in the image only variables Charla (or Node) reads', () => {
    const known = knownVariables();
    const set = instructions('ENV').flatMap((l) =>
      [...l.matchAll(/\b([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]!),
    );
    expect(set).toContain('CHARLA_DATA_DIR');
    expect(set.filter((n) => n !== 'NODE_ENV' && !known.has(n))).toEqual([]);
  });
});

describe('production dependencies', () => {
  it('every package the server code imports is a dependency, none only a devDependency', () => {
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    const problems: string[] = [];
    for (const dir of RUNTIME_DIRS)
      for (const file of sourceFiles(dir)) {
        const text = read(file);
        const specifiers = [
          ...text.matchAll(/^\s*import\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm),
          ...text.matchAll(/^\s*export\s+(?!type\s)[^'";]*?\sfrom\s+['"]([^'"]+)['"]/gm),
          ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
        ].map((m) => m[1]!);
        for (const spec of specifiers) {
          if (spec.startsWith('.') || spec.startsWith('node:') || spec.startsWith('virtual:')) continue;
          const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
          if (!(name in pkg.dependencies)) problems.push(`${file}: ${name}`);
        }
      }
    expect(problems, 'imports npm ci --omit=dev would not install').toEqual([]);
  });

  it('the packages the bundle leaves external are installed without devDependencies', () => {
    const external = /external:\s*\[([\s\S]*?)\]/.exec(read('scripts/bundle.mjs'))?.[1];
    const names = [...(external ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(0);
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean }> };
    for (const name of names) {
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry, name).toBeDefined();
      expect(entry!.dev ?? false, `${name} is dev-only`).toBe(false);
    }
  });
});

describe('docs/deploy.md', () => {
  it('documents every variable compose.yaml sets on the nodes', () => {
    const doc = read('docs/deploy.md');
    const missing = Object.keys(envOf(services[nodeNames[0]!]!)).filter((n) => !doc.includes(`\`${n}\``));
    expect(missing).toEqual([]);
  });
});
