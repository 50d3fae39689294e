/**
 * Operations routes (issue 26 §3), for load balancers, orchestrators and Prometheus:
 *
 * - `GET /healthz` — liveness: the process is up and its event loop answers. 200 `{status:'ok'}`
 *   always (a node whose database is down is alive and recovers by itself; restarting it would
 *   not help), plus what it runs on (`store`, `llm`) and, informative only, `db`.
 * - `GET /readyz` — readiness: 200 `{status:'ready', checks}` when the database answers, every
 *   migration is applied, the file storage answers and the job worker runs; otherwise 503
 *   `{status:'unready', failing:[…], checks}` naming the failing parts, so a load balancer sends
 *   no traffic to a node that cannot serve it (e.g. one whose job worker failed to start).
 * - `GET /metrics` — Prometheus text format (engine/metrics.ts). When `CHARLA_METRICS_TOKEN` is set
 *   it needs `Authorization: Bearer <token>` (401 otherwise); unset, it is open like /healthz
 *   (bind the port privately or set the token in production: docs/deploy.md).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Metrics } from '../../metrics.ts';
import { ping, type StoreKind } from '../../store/connect.ts';
import type { Database } from '../../store/database.ts';

/** The body of /readyz. */
interface ReadyBody {
  status: 'ready' | 'unready';
  store: StoreKind;
  failing?: string[];
  checks: Record<string, boolean>;
}

/** What the operations routes read. */
export interface OpsDeps {
  db: Kysely<Database>;
  storeKind: StoreKind;
  /** `offline` when replies come from the offline responder. */
  llm: 'offline' | 'configured';
  /** True when every migration (core and plugins) is applied. */
  migrationsCurrent: () => Promise<boolean>;
  /** Resolves when the file storage answers; throws otherwise. */
  storageReachable: () => Promise<void>;
  /** True while the job worker runs (started and not failed or stopped); absent: not checked. */
  jobsRunning?: () => boolean;
  metrics: Metrics;
  /** `CHARLA_METRICS_TOKEN`: required as a bearer token on /metrics when set. */
  metricsToken?: string | undefined;
}

/** Resolves true, or false when `check` throws or takes more than `ms`. */
async function passes(check: () => Promise<unknown>, ms = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), ms);
      }),
    ]);
    return result !== false;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** True when `given` is `Bearer <token>` (compared in constant time). */
function bearerMatches(given: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Registers /healthz, /readyz and /metrics. */
export const opsRoutes: FastifyPluginAsync<OpsDeps> = async (app, deps) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({
    status: 'ok',
    store: deps.storeKind,
    llm: deps.llm,
    db: (await passes(() => ping(deps.db), 1000)) ? 'ok' : 'unreachable',
  }));

  // Probes come often and from several balancers: probes that arrive while a check runs share its
  // answer, so a slow database is not sent a pile of probe queries. Migrations, once all applied,
  // stay applied for this process.
  let migrated = false;
  let running: Promise<ReadyBody> | undefined;
  const check = async (): Promise<ReadyBody> => {
    const db = await passes(() => ping(deps.db));
    migrated ||= db && (await passes(deps.migrationsCurrent));
    const checks = {
      db,
      migrations: migrated,
      storage: await passes(deps.storageReachable),
      jobs: deps.jobsRunning ? deps.jobsRunning() : true,
    };
    const failing = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    return failing.length === 0
      ? { status: 'ready', store: deps.storeKind, checks }
      : { status: 'unready', store: deps.storeKind, failing, checks };
  };
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    running ??= check().finally(() => {
      running = undefined;
    });
    const body = await running;
    return reply.code(body.status === 'ready' ? 200 : 503).send(body);
  });

  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (deps.metricsToken && !bearerMatches(req.headers.authorization, deps.metricsToken))
      return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'Unauthorized' });
    const body = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).send(body);
  });
};
