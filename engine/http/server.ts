/**
 * The HTTP server (DESIGN.md, HTTP): Fastify 5 with zod schemas as validation, types and the
 * OpenAPI document at `/api/docs`; one error handler maps errors to status codes and the spec's
 * messages; stored files are served under `/files/` with `X-Content-Type-Options: nosniff` and a
 * sandboxing Content-Security-Policy, the dashboard's page with its own (engine/http/csp.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { AppError, INVALID_DATA, SERVER_ERROR } from '../errors.ts';
import { logContextEnabled, requestIdOf, withLogContext } from '../log-context.ts';
import type { Logger } from '../logger.ts';
import type { Registry } from '../registry/index.ts';
import type { StoreKind } from '../store/connect.ts';
import { DATABASE_RETRY_AFTER_S, isBadInputError, isDatabaseUnavailable } from '../store/errors.ts';
import { requireOwner } from './auth.ts';
import { API_DOCS_CSP, DASHBOARD_CSP } from './csp.ts';
import { appOrigins, CROSS_SITE_REFUSED, isCrossSiteRequest } from './csrf.ts';
import { interfaceLanguage, localizeError } from './error-language.ts';
import { inputProblem, invalidHost, stripNul } from './input-guards.ts';
import { accountRoutes } from './routes/account.ts';
import { authRoutes } from './routes/auth.ts';
import type { RouteDeps } from './routes/deps.ts';
import { fileTextRoutes } from './routes/file-texts.ts';
import { fileRoutes } from './routes/files.ts';
import { registerFileServing } from './routes/files-serve.ts';
import { operatorAdminRoutes } from './routes/operator-admin.ts';
import { type OpsDeps, opsRoutes } from './routes/ops.ts';
import { ownerRoutes } from './routes/owner.ts';
import { endLiveStreams } from './sse.ts';

/** What the routes need. */
export interface HttpDeps extends RouteDeps {
  storeKind: StoreKind;
  registry: Registry;
  log: Logger;
  /** PUBLIC_URL: the app's own origin, which owner routes' state-changing requests must come from. */
  publicUrl: string | undefined;
  version: string;
  /** The built dashboard (dist/dashboard), served with a history fallback when present. */
  dashboardDir?: string | undefined;
  /** Proxies whose X-Forwarded-For is believed (engine/config.ts). */
  trustProxy: string;
  /** /healthz, /readyz and /metrics (./routes/ops.ts), and the HTTP latency histogram. */
  ops: Omit<OpsDeps, 'db' | 'storeKind' | 'llm'>;
  /**
   * `CHARLA_ROLE` (engine/config.ts; default `all`): a `worker` node serves only /healthz, /readyz
   * and /metrics (and stored files are not served there either), issue 26 §2.
   */
  role?: 'all' | 'web' | 'worker';
  /** The instance secret's derivations: the operator token (engine/operator.ts) is checked with it. */
  secrets: { derive(purpose: string, value: string): string };
}

/** One registered route: the table the cross-tenant test walks (issue 3). */
export interface RouteEntry {
  method: string;
  url: string;
  owner: import('./auth.ts').OwnerScope | undefined;
  public: boolean;
  /** The route's schema (zod body, querystring, `consumes`), for the fuzz check (test/helpers/fuzz.ts). */
  schema?: { body?: unknown; querystring?: unknown; consumes?: string[] } | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

/**
 * The dashboard's page paths as patterns (dist/dashboard/routes.json, written by its build from the
 * route tree: `/ialanding/$slug` matches any one segment); undefined when the build has no list.
 */
function loadAppPages(dir: string): RegExp[] | undefined {
  try {
    const paths = JSON.parse(readFileSync(join(dir, 'routes.json'), 'utf8')) as unknown;
    if (!Array.isArray(paths)) return undefined;
    return paths
      .filter((p): p is string => typeof p === 'string')
      .map(
        (p) =>
          new RegExp(`^${p.replace(/[.*+?^{}()|[\]\\]/g, '\\$&').replace(/\\\$\w+|\$\w+/g, '[^/]+')}/?$`),
      );
  } catch {
    return undefined;
  }
}

/** Builds the Fastify app (not listening). */
export async function buildServer(deps: HttpDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log.child({ component: 'http' }) as FastifyBaseLogger,
    // Per-request lines cost throughput; turns and errors are logged where they happen.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: deps.trustProxy,
    bodyLimit: 1024 * 1024,
    // Issue 26 §3: ids unique across nodes (or the proxy's), in every line the request logs, even
    // deep in the engine: the logger's mixin reads them from the request's context, so req.log
    // need not bind them again (that would print the key twice).
    genReqId: (raw) => requestIdOf(raw.headers['x-request-id']),
    ...(logContextEnabled()
      ? { childLoggerFactory: (logger, _bindings, options) => logger.child({}, options) }
      : {}),
  }).withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    if (logContextEnabled()) withLogContext({ reqId: req.id }, done);
    else done();
  });
  app.setValidatorCompiler(validatorCompiler);
  // Responses are serialised with plain JSON.stringify: the zod response schemas document the API
  // (/api/docs) and the tests check replies against them, but validating every reply on the way out
  // cost a measurable share of a turn (issue 2 benchmark).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Issue 29: a refusal's `error` in the dashboard's language (./error-language.ts), whoever sent it.
  app.addHook('onSend', async (req, reply, payload) => {
    const lang = reply.statusCode >= 400 ? interfaceLanguage(req.headers) : null;
    if (!lang || lang === 'es' || typeof payload !== 'string' || !payload.startsWith('{')) return payload;
    try {
      const body = JSON.parse(payload) as { error?: unknown };
      if (typeof body.error !== 'string') return payload;
      return JSON.stringify({ ...body, error: localizeError(body.error, lang, reply.statusCode) });
    } catch {
      return payload;
    }
  });

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof AppError) return reply.code(err.status).send({ error: err.message });
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
      return reply
        .code(400)
        .send({ error: `Datos no válidos${where ? ` (${where})` : ''}: ${first?.message ?? ''}`.trim() });
    }
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500)
      return reply.code(status).send({ error: (err as Error).message });
    // Issue 24 §1: the database is down or dropped the connection. The client retries; nothing crashes.
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err: (err as Error).message, url: req.url }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send({ error: SERVER_ERROR });
    }
    // Issue 24 §7: a value PostgreSQL refuses (NUL in text, a malformed literal) came from the client.
    if (isBadInputError(err)) return reply.code(400).send({ error: INVALID_DATA });
    req.log.error({ err, url: req.url }, 'request failed');
    return reply.code(500).send({ error: SERVER_ERROR });
  });
  // Issue 24 §7: an invalid Host, a NUL character or absurd nesting is the client's error (400).
  let proxyWarned = false;
  app.addHook('onRequest', async (req) => {
    if (invalidHost(req.headers.host)) throw new AppError('BAD_REQUEST', INVALID_DATA);
    // Behind a proxy TRUST_PROXY does not name, every client has the proxy's address: per-address
    // limits would then count everyone together. Said once, for the operator.
    if (!proxyWarned && req.headers['x-forwarded-for'] && req.ip === req.socket.remoteAddress) {
      proxyWarned = true;
      deps.log.warn(
        { peer: req.socket.remoteAddress, trustProxy: deps.trustProxy },
        'a request came through a proxy that TRUST_PROXY does not name: clients are counted by the proxy’s address; set TRUST_PROXY to it',
      );
    }
  });
  app.addHook('preValidation', async (req) => {
    // A webhook's update carries a follower's words: NULs are dropped, never the message.
    if (req.url.startsWith('/channels/') && req.body !== undefined) req.body = stripNul(req.body);
    const problem = inputProblem(req.params) ?? inputProblem(req.query) ?? inputProblem(req.body);
    if (problem === 'nul') throw new AppError('BAD_REQUEST', `${INVALID_DATA} (carácter nulo)`);
    if (problem === 'depth') throw new AppError('BAD_REQUEST', `${INVALID_DATA} (demasiado anidado)`);
  });
  const origins = appOrigins(deps.publicUrl);
  // Owner routes refuse cross-site requests (issue 24 §5), then require a session before their
  // body is validated, so an anonymous request gets 401 whatever it sends, and nothing of the
  // route's contract leaks.
  app.addHook('onRequest', async (req) => {
    const owner = Boolean(req.routeOptions.config?.owner);
    if ((owner || req.routeOptions.url === '/api/auth/*') && isCrossSiteRequest(req, origins))
      throw new AppError('FORBIDDEN', CROSS_SITE_REFUSED);
    if (owner) await requireOwner(req, deps);
  });
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeTable.push({
        method,
        url: route.url,
        owner: route.config?.owner,
        public: route.config?.public === true,
        schema: route.schema as RouteEntry['schema'],
      });
    }
  });
  // The dashboard is a single-page app: a browser asking for any other page gets its index.html
  // (history fallback); API and file paths keep their JSON 404.
  const dashboard =
    deps.role !== 'worker' && deps.dashboardDir && existsSync(join(deps.dashboardDir, 'index.html'))
      ? deps.dashboardDir
      : undefined;
  const appPages = dashboard ? loadAppPages(dashboard) : undefined;
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const isPage =
      req.method === 'GET' &&
      !/^\/(api|files|channels|plugins|assets|site)(\/|$)/.test(path) &&
      (req.headers.accept ?? '').includes('text/html');
    // Issue 29 (departing from spec 001 §2's redirect to the home page): an unknown path gets the
    // app with status 404, whose router shows its "not found" page in the visitor's language.
    const unknown = appPages ? !appPages.some((page) => page.test(path)) : false;
    if (dashboard && isPage) {
      return reply
        .code(unknown ? 404 : 200)
        .header('cache-control', 'no-cache')
        .header('content-security-policy', DASHBOARD_CSP)
        .type('text/html; charset=utf-8')
        .sendFile('index.html', dashboard);
    }
    return reply.code(404).send({ error: `No existe ${req.method} ${path}` });
  });

  await app.register(fastifyHelmet, {
    // The API and files are fetched by pages on other origins (widget, landing previews).
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    contentSecurityPolicy: false,
  });
  await app.register(fastifyMultipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Charla API',
        description:
          'The HTTP API of Charla. Chat routes are public; owner routes need `Authorization: Bearer <token>`.',
        version: deps.version,
      },
      components: { securitySchemes: { owner: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: API_DOCS_CSP });

  if (dashboard) {
    await app.register(fastifyStatic, {
      root: dashboard,
      prefix: '/',
      index: false,
      wildcard: false,
      // The build writes .br and .gz copies of its assets (scripts/precompress.mjs).
      preCompressed: true,
      setHeaders(res, path) {
        res.header('X-Content-Type-Options', 'nosniff');
        // Issue 24 §9: the app's page (index.html, also reached as /index.html).
        if (path.endsWith('.html')) res.header('content-security-policy', DASHBOARD_CSP);
        // Vite names assets by content hash: they never change under the same name.
        if (path.includes(`${sep}assets${sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  // Stored files, from the local disk or the S3 bucket alike (./routes/files-serve.ts).
  if (deps.role !== 'worker') registerFileServing(app, deps.storage);

  await app.register(opsRoutes, {
    ...deps.ops,
    db: deps.db,
    storeKind: deps.storeKind,
    llm: deps.engine.offline ? 'offline' : 'configured',
  });
  // Latency by route pattern (not by URL: ids would make a series per bot).
  const httpDuration = deps.ops.metrics.httpDuration;
  app.addHook('onResponse', async (req, reply) => {
    httpDuration.observe(
      { method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  // A stopping node ends its live event streams first: `close()` waits for every open connection
  // (issue 26 §3; engine/http/sse.ts).
  app.addHook('preClose', async () => {
    endLiveStreams(app.server);
  });

  if (deps.role === 'worker') return app;
  await app.register(authRoutes, deps);
  await app.register(ownerRoutes, deps);
  await app.register(accountRoutes, deps);
  await app.register(fileRoutes, deps);
  await app.register(fileTextRoutes, deps);
  await app.register(operatorAdminRoutes, deps);
  for (const r of deps.registry.routes()) await app.register(r.plugin, { prefix: r.prefix });
  // Channel adapters: webhooks under /channels/<id>, owner routes at the spec's /api/... paths.
  for (const adapter of deps.registry.adapters.values()) {
    if (adapter.routes) await app.register(adapter.routes, { prefix: `/channels/${adapter.id}` });
    if (adapter.apiRoutes) await app.register(adapter.apiRoutes);
  }
  return app;
}
