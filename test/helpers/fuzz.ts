/**
 * The project's own fuzz check (issue 24): every route of the route table
 * (`FastifyInstance.routeTable`, engine/http/server.ts) gets malformed requests over real HTTP
 * from a listening server (test/helpers/fuzz-cases.ts draws them, test/helpers/fuzz-wire.ts sends
 * them on raw sockets), with real parameters of a seeded owner (bot id, file id, web key, IALanding
 * slug) and garbage ones, as an anonymous visitor, the owner, or another owner. A run fails on any
 * 5xx (but the short {@link ALLOWED_5XX} list), on a request that gets no answer when one was due,
 * on an uncaught error in the process, and when the server stops answering `/healthz`. It collects
 * a status table (per route: requests per status class) and the first example of each 5xx with the
 * error the server logged.
 *
 * Used by test/fuzz.test.ts (a short fixed-seed run in CI) and bench/fuzz.ts (`npm run fuzz`).
 * Imports nothing of vitest, so the bench runs it as a plain script.
 *
 * Nothing leaves the machine: Telegram's Bot API, Meta's Graph API and Stripe point at a local
 * server that refuses every call (401), linked WhatsApp devices get the fake `makeWASocket` of
 * test/servers/whatsapp-web.ts (never WhatsApp's servers), the LLM is off, speech and search are
 * unconfigured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { adapterFactories } from '../../adapters/index.ts';
import { createWhatsAppAdapter } from '../../adapters/whatsapp/index.ts';
import { type CharlaApp, createApp } from '../../cli/app.ts';
import { createSessionToken, upsertOwnerWithPassword } from '../../engine/auth/owners.ts';
import { loadConfig } from '../../engine/config.ts';
import { createLogger, type Logger } from '../../engine/logger.ts';
import type { ChannelAdapter } from '../../engine/registry/index.ts';
import type { Store } from '../../engine/store/connect.ts';
import { FakeWhatsApp } from '../servers/whatsapp-web.ts';
import {
  type FuzzRequest,
  type FuzzRoute,
  type FuzzSecrets,
  type FuzzTargets,
  fmtBytes,
  type JsonSchema,
  makeRequest,
  Rng,
} from './fuzz-cases.ts';
import { exchange, type WireAnswer } from './fuzz-wire.ts';
import { multipart } from './multipart.ts';

export type { FuzzRequest, FuzzRoute, FuzzTargets } from './fuzz-cases.ts';

// ————————————————————————————————————————————— logs

/** An error the server logged (pino level ≥ 50) while the fuzzer ran. */
export interface LoggedError {
  /** Date.now() when it was written. */
  at: number;
  msg: string;
  /** The request URL the log line names, when it names one. */
  url?: string | undefined;
  /** The error's type, message and stack. */
  error?: string | undefined;
}

/** A logger that keeps the errors it is given (and drops the rest). */
export interface LogCapture {
  log: Logger;
  errors: LoggedError[];
}

/** Keeps at most this many logged errors. */
const MAX_LOGGED = 2000;

/** A logger for the fuzz app that keeps every error line (pino JSON), for the 5xx examples. */
export function captureLogs(): LogCapture {
  const errors: LoggedError[] = [];
  let pending = '';
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      pending += chunk.toString('utf8');
      let nl = pending.indexOf('\n');
      while (nl >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        nl = pending.indexOf('\n');
        try {
          const entry = JSON.parse(line) as {
            level?: number;
            msg?: string;
            url?: string;
            err?: { type?: string; message?: string; stack?: string } | string;
          };
          if ((entry.level ?? 0) < 50 || errors.length >= MAX_LOGGED) continue;
          const err = entry.err;
          errors.push({
            at: Date.now(),
            msg: entry.msg ?? '',
            url: entry.url,
            error:
              typeof err === 'string' ? err : err ? err.stack || `${err.type}: ${err.message}` : undefined,
          });
        } catch {
          // not a JSON line
        }
      }
      done();
    },
  });
  return { log: createLogger({ level: 'error', destination }), errors };
}

// ————————————————————————————————————————————— the app

/** A composed Charla for fuzzing, the local upstream that refuses it, and the secrets it signs with. */
export interface FuzzApp {
  app: CharlaApp;
  capture: LogCapture;
  secrets: FuzzSecrets;
  /** Calls that reached the stand-in for Telegram, Meta and Stripe so far. */
  upstreamCalls(): number;
  close(): Promise<void>;
}

/**
 * A local stand-in for Telegram's Bot API, Meta's Graph API and Stripe that refuses every call with
 * 401 in each one's error shape, so routes that call them answer their "token refused" 4xx.
 */
async function refusingUpstream(): Promise<{ server: Server; url: string; calls: () => number }> {
  let calls = 0;
  const server = createServer((req, res) => {
    calls++;
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ok: false,
        error_code: 401,
        description: 'Unauthorized',
        error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls };
}

/**
 * Composes Charla as `charla serve` does (channels and jobs started) on `store`, with a temporary
 * data dir, rate limits off (so requests reach validation: a 429 says nothing), every external
 * service pointed at a local server that refuses it, and a logger that keeps errors.
 * @param migrate run the migrations (a store that is not migrated yet; tests pass migrated ones).
 */
export async function createFuzzApp(options: {
  store: Store;
  migrate?: boolean;
  env?: Record<string, string>;
}): Promise<FuzzApp> {
  const capture = captureLogs();
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-fuzz-'));
  const upstream = await refusingUpstream();
  const secrets: FuzzSecrets = { metaAppSecret: 'fuzz-meta-app-secret', stripeWebhookSecret: 'whsec_fuzz' };
  const env: Record<string, string> = {
    CHARLA_DATA_DIR: dataDir,
    CHARLA_SECRET: 'fuzz-secret-of-at-least-32-characters',
    CHARLA_RATE_LIMITS: 'off',
    TELEGRAM_API_ROOT: upstream.url,
    WHATSAPP_GRAPH_URL: upstream.url,
    META_APP_ID: '1234567890',
    META_APP_SECRET: secrets.metaAppSecret,
    STRIPE_SECRET_KEY: 'sk_test_fuzz',
    STRIPE_WEBHOOK_SECRET: secrets.stripeWebhookSecret,
    STRIPE_API_URL: upstream.url,
    ...options.env,
  };
  // Linked devices on the fake socket: a fuzzed "request a number" must not dial WhatsApp.
  const whatsapp = new FakeWhatsApp(await import('@whiskeysockets/baileys'));
  const adapters = adapterFactories.map((make) => {
    const adapter = make();
    return adapter.id === 'whatsapp'
      ? (createWhatsAppAdapter({ loadBaileys: async () => whatsapp.lib }) as unknown as ChannelAdapter<never>)
      : adapter;
  });
  let app: CharlaApp | undefined;
  try {
    app = await createApp(loadConfig(env), {
      log: capture.log,
      store: options.store,
      skipMigrations: !options.migrate,
      llm: null,
      env,
      adapters,
    });
    await app.startChannels();
  } catch (err) {
    await (app ? app.close() : options.store.close()).catch(() => {});
    upstream.server.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const started = app;
  return {
    app: started,
    capture,
    secrets,
    upstreamCalls: upstream.calls,
    async close() {
      await started.close();
      upstream.server.closeAllConnections();
      await new Promise<void>((resolve) => upstream.server.close(() => resolve()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ————————————————————————————————————————————— seeded data

const DAY_MS = 86_400_000;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** The seeded owners' e-mails. */
const OWNER_EMAIL = 'fuzz-owner@example.com';
const OTHER_EMAIL = 'fuzz-other@example.com';

/**
 * Seeds (or restores, between batches: a fuzz request may sign the owner out, switch the web
 * service off or delete the file) an owner with days left, a bot with the web service on, a key,
 * an IALanding and a file; another owner with a bot; a web visitor of the first bot.
 * Steps that fail leave a random value in place and are listed in `warnings`.
 */
export async function seedTargets(
  app: CharlaApp,
  http: FastifyInstance,
  previous?: FuzzTargets,
): Promise<{ targets: FuzzTargets; warnings: string[] }> {
  const warnings: string[] = [];
  const rng = new Rng(Date.now());
  const person = async (email: string, known?: { id: string; token: string }) => {
    if (known) {
      const me = await http.inject({
        method: 'GET',
        url: '/api/me',
        headers: { authorization: `Bearer ${known.token}` },
      });
      if (me.statusCode === 200 && (me.json() as { owner: unknown }).owner) return known;
    }
    const { id } = await upsertOwnerWithPassword(app.auth, email, 'contraseña-segura');
    const expires = new Date(Date.now() + 30 * DAY_MS);
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: id, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
      .execute();
    return { id, token: await createSessionToken(app.auth, id) };
  };
  const owner = await person(OWNER_EMAIL, previous?.owner);
  const other = await person(OTHER_EMAIL, previous?.other);
  const as = (who: { token: string }) => ({ authorization: `Bearer ${who.token}` });
  const bot = async (who: { token: string }, name: string, known?: string) => {
    const mine = await http.inject({ method: 'GET', url: '/api/my-chatbot', headers: as(who) });
    const found =
      mine.statusCode === 200 ? (mine.json() as { bot?: { id?: string } | null }).bot?.id : undefined;
    if (found && (!known || found === known)) return found;
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: as(who),
      payload: {
        business_name: name,
        business_description: 'Restaurante de cocina casera. Abrimos de 13 a 23.',
      },
    });
    const id = saved.statusCode === 200 ? (saved.json() as { id?: string }).id : undefined;
    if (!id) warnings.push(`save-chatbot ${saved.statusCode}: ${saved.body.slice(0, 200)}`);
    return id ?? rng.uuid();
  };
  const botId = await bot(owner, 'Fuzz Bar', previous?.botId);
  const otherBotId = await bot(other, 'Otro Bar', previous?.otherBotId);

  let webKey = previous?.webKey ?? rng.hex(12);
  let slug = previous?.slug ?? 'fuzz-bar';
  const web = await http.inject({
    method: 'GET',
    url: `/api/charla-web?chatbotId=${botId}`,
    headers: as(owner),
  });
  if (web.statusCode === 200) {
    const body = web.json() as {
      chatbot?: { charla_key?: string; web_enabled?: boolean };
      ialanding?: { slug?: string };
    };
    webKey = body.chatbot?.charla_key ?? webKey;
    slug = body.ialanding?.slug ?? slug;
    if (!body.chatbot?.web_enabled) {
      const on = await http.inject({
        method: 'POST',
        url: '/api/charla-web/toggle',
        headers: as(owner),
        payload: { chatbotId: botId, enabled: true },
      });
      if (on.statusCode !== 200)
        warnings.push(`charla-web/toggle ${on.statusCode}: ${on.body.slice(0, 200)}`);
    }
  } else warnings.push(`charla-web ${web.statusCode}: ${web.body.slice(0, 200)}`);

  let fileId = previous?.fileId;
  let filePath = previous?.filePath;
  const files = await http.inject({
    method: 'GET',
    url: `/api/chatbot-files?chatbotId=${botId}`,
    headers: as(owner),
  });
  const list = files.statusCode === 200 ? (files.json() as Array<{ id: string; file_url?: string }>) : [];
  const kept = Array.isArray(list) ? (list.find((f) => f.id === fileId) ?? list[0]) : undefined;
  if (kept) {
    fileId = kept.id;
    filePath = kept.file_url?.replace(/^.*\/files\//, '') ?? filePath;
  } else {
    const form = await multipart(
      { chatbotId: botId, keyword: 'carta', context: 'La carta' },
      { field: 'file', name: 'carta.pdf', data: PDF },
    );
    const up = await http.inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { ...as(owner), 'content-type': form.contentType },
      payload: form.body,
    });
    if (up.statusCode === 201) {
      const f = up.json() as { id: string; file_url?: string };
      fileId = f.id;
      filePath = f.file_url?.replace(/^.*\/files\//, '');
    } else warnings.push(`chatbot-files ${up.statusCode}: ${up.body.slice(0, 200)}`);
  }

  const followerId = previous?.followerId ?? `fuzz-visitor-${rng.hex(4)}`;
  if (!previous) {
    const said = await http.inject({
      method: 'POST',
      url: `/api/web/${webKey}/message`,
      payload: { visitorId: followerId, userMessage: 'Hola', messageId: `m-${rng.hex(4)}`, channel: 'web' },
    });
    if (said.statusCode !== 200) warnings.push(`web message ${said.statusCode}: ${said.body.slice(0, 200)}`);
  }
  return {
    targets: {
      owner,
      other,
      botId,
      otherBotId,
      fileId: fileId ?? rng.uuid(),
      filePath: filePath ?? `${botId}/carta.pdf`,
      webKey,
      slug,
      followerId,
    },
    warnings,
  };
}

// ————————————————————————————————————————————— the routes

/** The OpenAPI document's shape, as far as the fuzzer reads it. */
interface OpenApiDoc {
  paths?: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ in: string; name: string; required?: boolean; schema?: JsonSchema }>;
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
}

/** A route table entry, with the route's schema when the table carries it. */
type TableEntry = FastifyInstance['routeTable'][number] & {
  schema?: { body?: unknown; querystring?: unknown; consumes?: string[] };
};

/** A zod schema (or a JSON schema) as JSON Schema, or undefined. */
function asJsonSchema(schema: unknown): JsonSchema | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  if (typeof (schema as { safeParse?: unknown }).safeParse === 'function') {
    try {
      return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    } catch {
      return undefined;
    }
  }
  return schema as JsonSchema;
}

/**
 * The routes to fuzz, from the server's route table: HEAD is sent now and then to GET routes
 * instead of being a row of its own; the dashboard's static files (a route each) are one row.
 * Body and query schemas come from the table when it carries them, else from the OpenAPI document.
 */
export function fuzzRoutes(http: FastifyInstance): FuzzRoute[] {
  const doc = (http as unknown as { swagger?: () => OpenApiDoc }).swagger?.() ?? {};
  const routes: FuzzRoute[] = [];
  const statics: string[] = [];
  const seen = new Set<string>();
  for (const entry of http.routeTable as TableEntry[]) {
    if (entry.method === 'HEAD') continue;
    const key = `${entry.method} ${entry.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (isStaticFile(entry.url)) {
      statics.push(entry.url);
      continue;
    }
    const op = doc.paths?.[entry.url.replace(/:(\w+)/g, '{$1}')]?.[entry.method.toLowerCase()];
    const content = op?.requestBody?.content ?? {};
    const queryParams = op?.parameters?.filter((p) => p.in === 'query') ?? [];
    const body = asJsonSchema(entry.schema?.body) ?? content['application/json']?.schema;
    const query =
      asJsonSchema(entry.schema?.querystring) ??
      (queryParams.length
        ? {
            type: 'object',
            properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema ?? { type: 'string' }])),
            required: queryParams.filter((p) => p.required).map((p) => p.name),
          }
        : undefined);
    routes.push({
      key,
      method: entry.method,
      url: entry.url,
      owner: Boolean(entry.owner),
      public: entry.public,
      body,
      query,
      multipart:
        'multipart/form-data' in content ||
        Boolean(entry.schema?.consumes?.includes('multipart/form-data')) ||
        MULTIPART_URLS.test(entry.url),
    });
  }
  if (statics.length)
    routes.push({
      key: `GET (${statics.length} static files of the dashboard)`,
      method: 'GET',
      url: statics[0]!,
      urls: statics.sort(),
      owner: false,
      public: true,
      multipart: false,
    });
  return routes.sort((a, b) => a.key.localeCompare(b.key));
}

/** Routes that read a multipart form (engine/http/multipart.ts readers), should the document not say. */
const MULTIPART_URLS =
  /^\/api\/(chatbot-files$|chatbot-voice\/|web\/:key\/voice$|apply-audio-effect$|telegram-broadcast$|conversations\/:chatbotId\/voice$)/;

/** A file of the dashboard's build, registered by @fastify/static as a route of its own. */
function isStaticFile(url: string): boolean {
  return (
    !url.includes(':') &&
    !url.includes('*') &&
    (url.startsWith('/assets/') || /\.(br|gz|map|png|ico|webmanifest|woff2?|html)$/.test(url))
  );
}

// ————————————————————————————————————————————— 5xx that are the contract

/** A 5xx that is a route's documented answer, with the reason. */
export interface Allowed5xx {
  method: string;
  url: string;
  status: number;
  reason: string;
  /** Only when this holds (e.g. the id is a real bot's). */
  when?: (req: FuzzRequest, answer: WireAnswer, targets: FuzzTargets) => boolean;
}

/** The short list of 5xx answers that are contracts, not failures. */
export const ALLOWED_5XX: Allowed5xx[] = [
  {
    method: 'POST',
    url: '/channels/telegram/:chatbotId',
    status: 503,
    reason:
      'a known bot that is not connected in this process: Telegram retries later (adapters/telegram/webhook.ts, issue 24 §7)',
    when: (req, _answer, t) => {
      const target = typeof req.target === 'string' ? req.target : req.target.toString('latin1');
      // The id as the router reads it: from an origin-form or absolute-form target, without query or fragment.
      const id = /\/channels\/telegram\/([^/?#]*)/.exec(target)?.[1];
      return id === t.botId || id === t.otherBotId;
    },
  },
  {
    method: 'POST',
    url: '/api/create-checkout-session',
    status: 502,
    reason:
      'Stripe (here the local stand-in) refuses the operator’s STRIPE_SECRET_KEY: a payment provider failure, not the request’s; documented 502 "Error iniciando el pago" (plugins/billing/routes.ts)',
    when: (_req, answer) => answer.body.includes('"code":"checkout"'),
  },
  ...['reply', 'voice'].map(
    (action): Allowed5xx => ({
      method: 'POST',
      url: `/api/conversations/:chatbotId/${action}`,
      status: 502,
      reason:
        'the follower’s channel cannot deliver the owner’s message (here: the bot’s WhatsApp or Telegram is not connected); documented 502 `channel` with the channel’s words (plugins/conversations/routes.ts)',
      when: (_req, answer) => answer.body.includes('"code":"channel"'),
    }),
  ),
];

// ————————————————————————————————————————————— the run

/** Counts of one row of the status table. */
export interface Row {
  sent: number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  /** Requests that got no status (a timeout, the connection closed first). */
  none: number;
  /** Time of all its exchanges, ms. */
  ms: number;
}

/** The first request of one route and 5xx status, with how often it happened. */
export interface Example5xx {
  route: string;
  status: number;
  count: number;
  allowed?: string | undefined;
  request: string;
  answer: string;
  logged?: string | undefined;
}

/** Why a run failed. */
export interface Failure {
  type: '5xx' | 'no answer' | 'uncaught' | 'crash';
  text: string;
}

/** What a run found. */
export interface FuzzReport {
  seed: number;
  planned: number;
  sent: number;
  ms: number;
  routes: number;
  table: Map<string, Row>;
  kinds: Map<string, Row>;
  statuses: Map<number, number>;
  examples: Example5xx[];
  failures: Failure[];
  warnings: string[];
  stopped?: string | undefined;
}

/** Options of {@link runFuzz}. */
export interface FuzzOptions {
  fuzz: FuzzApp;
  seed: number;
  /** Requests to send. */
  requests: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Stop sending after this long, ms (the report says so). */
  timeBudgetMs?: number;
  /** Only these request numbers (a replay of a failure). */
  only?: number[];
  /** Only routes whose key matches. */
  routeFilter?: RegExp;
  /** Called every batch with the requests sent so far. */
  onProgress?: (sent: number, planned: number) => void;
  /** Time limit of one request, ms (default 30 000); requests that may hang get {@link HANG_MS}. */
  requestTimeoutMs?: number;
}

/** Time given to a request the server may rightly leave waiting (a body shorter than declared), ms. */
const HANG_MS = 2_000;
/** Requests between health checks and restoring the seeded data. */
const BATCH = 200;

/** Shuffles `items` with `rng` (Fisher–Yates), a copy. */
function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const emptyRow = (): Row => ({ sent: 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, none: 0, ms: 0 });

/**
 * Runs the fuzzer against `fuzz.app`'s HTTP server, listening on a free loopback port for the run.
 * Request `i` goes to route `order[i % routes]` (a seeded shuffle of the routes), so even a short
 * run reaches every route; its contents are drawn by {@link makeRequest} from (seed, i).
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const { app, capture, secrets } = options.fuzz;
  const http = await app.http();
  await http.listen({ port: 0, host: '127.0.0.1' });
  const port = (http.server.address() as AddressInfo).port;
  const seeded = await seedTargets(app, http);
  let targets = seeded.targets;
  const warnings = [...seeded.warnings];
  const all = fuzzRoutes(http).filter((r) => !options.routeFilter || options.routeFilter.test(r.key));
  const order = shuffled(all, new Rng(options.seed, -1));
  const numbers = options.only ?? Array.from({ length: options.requests }, (_, i) => i);
  const report: FuzzReport = {
    seed: options.seed,
    planned: numbers.length,
    sent: 0,
    ms: 0,
    routes: all.length,
    table: new Map(all.map((r) => [r.key, emptyRow()])),
    kinds: new Map(),
    statuses: new Map(),
    examples: [],
    failures: [],
    warnings,
  };
  const uncaught = (err: unknown) =>
    report.failures.push({
      type: 'uncaught',
      text: err instanceof Error ? err.stack || err.message : String(err),
    });
  process.on('uncaughtException', uncaught);
  process.on('unhandledRejection', uncaught);
  const concurrency = options.concurrency ?? 4;
  try {
    for (let from = 0; from < numbers.length; from += BATCH) {
      if (options.timeBudgetMs && Date.now() - started > options.timeBudgetMs) {
        report.stopped = `time budget of ${Math.round(options.timeBudgetMs / 1000)} s reached after ${report.sent} requests`;
        break;
      }
      const batch = numbers.slice(from, from + BATCH);
      let next = 0;
      const worker = async () => {
        for (;;) {
          const i = batch[next++];
          if (i === undefined) return;
          const route = order[i % order.length]!;
          const req = makeRequest(i, route, { seed: options.seed, targets, secrets, port });
          const at = Date.now();
          const answer = await exchange(
            port,
            req,
            req.mayNotAnswer ? HANG_MS : (options.requestTimeoutMs ?? 30_000),
          );
          record(report, req, answer, targets, capture, at);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      options.onProgress?.(report.sent, report.planned);
      const health = await healthy(port);
      if (!health.ok) {
        report.failures.push({ type: 'crash', text: `the server stopped answering /healthz: ${health.why}` });
        report.stopped = `server down after ${report.sent} requests`;
        break;
      }
      const restored = await seedTargets(app, http, targets).catch((err: Error) => {
        warnings.push(`restoring the seeded data failed: ${err.message}`);
        return undefined;
      });
      if (restored) {
        targets = restored.targets;
        warnings.push(...restored.warnings);
      }
    }
  } finally {
    process.off('uncaughtException', uncaught);
    process.off('unhandledRejection', uncaught);
  }
  report.ms = Date.now() - started;
  return report;
}

/** `/healthz` answers 200 within 10 s (one retry a second later). */
async function healthy(port: number): Promise<{ ok: boolean; why: string }> {
  let why = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const a = await exchange(
      port,
      {
        method: 'GET',
        target: '/healthz',
        headers: [
          ['Host', `127.0.0.1:${port}`],
          ['Connection', 'close'],
        ],
      },
      10_000,
    );
    if (a.status === 200) return { ok: true, why: '' };
    why = `${a.status ?? a.outcome} ${a.error ?? ''} ${a.body.slice(0, 200)}`;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return { ok: false, why };
}

/** Adds one exchange to the report. */
function record(
  report: FuzzReport,
  req: FuzzRequest,
  answer: WireAnswer,
  targets: FuzzTargets,
  capture: LogCapture,
  at: number,
) {
  report.sent++;
  if (process.env.FUZZ_DEBUG_SLOW && answer.ms > Number(process.env.FUZZ_DEBUG_SLOW))
    process.stderr.write(
      `slow ${answer.ms} ms ${answer.status ?? answer.outcome}: ${describeRequest(req).slice(0, 300)}\n`,
    );
  const cls = answer.status === undefined ? 'none' : (`${Math.floor(answer.status / 100)}xx` as keyof Row);
  for (const row of [rowOf(report.table, req.route), rowOf(report.kinds, req.kind)]) {
    row.sent++;
    row[cls]++;
    row.ms += answer.ms;
  }
  if (answer.status !== undefined)
    report.statuses.set(answer.status, (report.statuses.get(answer.status) ?? 0) + 1);
  if (answer.status === undefined) {
    if (!req.mayNotAnswer)
      report.failures.push({
        type: 'no answer',
        text: `${describeRequest(req)}\n  → ${answer.outcome}${answer.error ? ` (${answer.error})` : ''} after ${answer.ms} ms`,
      });
    return;
  }
  if (answer.status < 500) return;
  const route = req.route;
  const allowed = ALLOWED_5XX.find(
    (a) =>
      `${a.method} ${a.url}` === route &&
      a.status === answer.status &&
      (!a.when || a.when(req, answer, targets)),
  );
  const known = report.examples.find(
    (e) => e.route === route && e.status === answer.status && Boolean(e.allowed) === Boolean(allowed),
  );
  const logged = loggedFor(capture, req, at, answer.ms);
  if (known) known.count++;
  else
    report.examples.push({
      route,
      status: answer.status,
      count: 1,
      allowed: allowed?.reason,
      request: describeRequest(req),
      answer: answer.body.slice(0, 300),
      logged,
    });
  if (!allowed)
    report.failures.push({
      type: '5xx',
      text: `${answer.status} ← ${describeRequest(req)}\n  answer: ${answer.body.slice(0, 300)}${logged ? `\n  logged: ${logged}` : ''}`,
    });
}

function rowOf(map: Map<string, Row>, key: string): Row {
  let row = map.get(key);
  if (!row) {
    row = emptyRow();
    map.set(key, row);
  }
  return row;
}

/**
 * The error the server logged for a request: one naming its URL, logged while it was in flight;
 * else one naming no URL from that time (requests run concurrently, so never another URL's).
 */
function loggedFor(capture: LogCapture, req: FuzzRequest, at: number, ms: number): string | undefined {
  const target = typeof req.target === 'string' ? req.target : req.target.toString('latin1');
  const during = capture.errors.filter((e) => e.at >= at - 5 && e.at <= at + ms + 5);
  const hit = during.find((e) => e.url === target) ?? during.find((e) => e.url === undefined);
  if (!hit) return undefined;
  return `${hit.msg}${hit.url ? ` (${hit.url.slice(0, 120)})` : ''}: ${(hit.error ?? '').split('\n').slice(0, 8).join('\n    ')}`;
}

/** A request as the report shows it: enough to send it again by hand. */
export function describeRequest(req: FuzzRequest): string {
  const target = printable(
    typeof req.target === 'string' ? Buffer.from(req.target, 'latin1') : req.target,
    160,
  );
  const headers = req.headers
    .filter(([k]) => !/^(host|connection|user-agent)$/i.test(k))
    .map(([k, v]) => `${k}: ${printable(typeof v === 'string' ? Buffer.from(v, 'latin1') : v, 70)}`)
    .join(' | ');
  const body = req.body
    ? ` body ${fmtBytes(req.body.length)}: ${printable(req.body.subarray(0, 120), 120)}`
    : '';
  return `#${req.n} ${req.method} ${target} [${req.kind}: ${req.summary}; ${req.persona}] ${headers}${body}`;
}

/** Bytes as readable text: control and non-ASCII bytes as \xNN, cut at `max` characters. */
function printable(bytes: Buffer, max: number): string {
  let out = '';
  for (const b of bytes) {
    out += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
    if (out.length >= max) return `${out}…`;
  }
  return out;
}

// ————————————————————————————————————————————— the report

/**
 * The status table (route × 2xx/3xx/4xx/5xx/no answer), the 4xx statuses, the rows by kind of
 * request, and each 5xx's first example with what the server logged.
 */
export function formatReport(report: FuzzReport, label = ''): string {
  const lines: string[] = [];
  lines.push(
    `Fuzz${label ? ` on ${label}` : ''}: seed ${report.seed}, ${report.sent} of ${report.planned} requests to ${report.routes} routes in ${(report.ms / 1000).toFixed(1)} s` +
      (report.stopped ? ` (stopped: ${report.stopped})` : ''),
  );
  const width = Math.max(40, ...[...report.table.keys()].map((k) => k.length));
  const head = (title: string, ms = false) =>
    `${title.padEnd(width)} ${['sent', '2xx', '3xx', '4xx', '5xx', 'none', ...(ms ? ['avg ms'] : [])].map((h) => h.padStart(6)).join(' ')}`;
  const line = (key: string, row: Row, ms = false) =>
    `${key.padEnd(width)} ${[row.sent, row['2xx'], row['3xx'], row['4xx'], row['5xx'], row.none, ...(ms ? [Math.round(row.ms / Math.max(1, row.sent))] : [])].map((n) => String(n).padStart(6)).join(' ')}`;
  const total = emptyRow();
  lines.push('', head('route'));
  for (const [key, row] of [...report.table].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(line(key, row));
    for (const k of Object.keys(total) as Array<keyof Row>) total[k] += row[k];
  }
  lines.push(line('total', total));
  lines.push('', head('kind of request', true));
  for (const [key, row] of [...report.kinds].sort(([a], [b]) => a.localeCompare(b)))
    lines.push(line(key, row, true));
  lines.push(
    '',
    `statuses: ${[...report.statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(', ')}`,
  );
  const failing = report.examples.filter((e) => !e.allowed);
  const allowed = report.examples.filter((e) => e.allowed);
  lines.push(
    '',
    `5xx: ${failing.reduce((n, e) => n + e.count, 0)} (allowed by contract: ${allowed.reduce((n, e) => n + e.count, 0)})`,
  );
  for (const e of failing) {
    lines.push(`- ${e.status} ${e.route} ×${e.count}`, `    first: ${e.request}`, `    answer: ${e.answer}`);
    if (e.logged) lines.push(`    logged: ${e.logged}`);
  }
  for (const e of allowed) lines.push(`- allowed: ${e.status} ${e.route} ×${e.count}: ${e.allowed}`);
  const others = report.failures.filter((f) => f.type !== '5xx');
  if (others.length) {
    lines.push('', `other failures: ${others.length}`);
    for (const f of others.slice(0, 20)) lines.push(`- ${f.type}: ${f.text}`);
  }
  if (report.warnings.length)
    lines.push('', 'warnings:', ...[...new Set(report.warnings)].map((w) => `- ${w}`));
  return lines.join('\n');
}
