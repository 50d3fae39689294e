/**
 * Prometheus metrics of one Charla process (issue 26 §3), on prom-client: `GET /metrics` serves
 * them in the Prometheus text format (engine/http/routes/ops.ts). Each node is scraped on its own
 * (per-process figures: requests, turns, the event loop); the figures read from the database at
 * scrape time (inbox, jobs, the plugins' gauges) are the whole deployment's, the same on every node.
 *
 * - `charla_http_request_duration_seconds{method,route,status}`: latency by route pattern.
 * - `charla_turns_total{channel,outcome}` and `charla_turn_duration_seconds{channel}`: the engine's
 *   turns (outcome `answered`, `offline`, `failed`, `silent`, `duplicate`, `error`).
 * - `charla_llm_duration_seconds{outcome}`: each LLM completion (`ok`, `error`).
 * - `charla_inbox_pending{channel}` and `charla_inbox_oldest_pending_seconds{channel}`: the durable
 *   inbox's depth and age.
 * - `charla_jobs{queue,state}`: pg-boss jobs by state.
 * - `charla_channel_connected_bots{channel}`: bots whose channel is connected in this process.
 * - the plugins' gauges ({@link Metrics.addPluginGauges}, a plugin's `metrics`): e.g.
 *   `charla_broadcast_recipients{state}`, broadcast deliveries by state (the broadcasts plugin).
 * - prom-client's default process metrics, `nodejs_eventloop_lag_seconds` among them.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ChannelAdapter, PluginGauge } from './registry/index.ts';
import type { Database } from './store/database.ts';

/** Latency buckets, seconds: from 5 ms (a cached page) to 60 s (a long LLM answer). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** What the scrape-time gauges read. */
export interface MetricsSources {
  db: Kysely<Database>;
  /** pg-boss's schema (engine/jobs `jobsSchemaOf`). */
  jobsSchema: string;
  adapters: () => Iterable<ChannelAdapter>;
  /** Logged, not thrown: a failed read leaves that gauge empty for this scrape. */
  onError: (err: unknown, what: string) => void;
}

/** The metrics of one process. */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  turns: Counter<'channel' | 'outcome'>;
  turnDuration: Histogram<'channel'>;
  llmDuration: Histogram<'outcome'>;
  /**
   * Registers the plugins' gauges (Registry `gauges()`, after its setup), each filled from its
   * `collect` at every scrape; a failed read is logged under the plugin's id and leaves it empty.
   * @throws Error naming the plugin when a gauge's name is already registered.
   */
  addPluginGauges(gauges: Iterable<{ plugin: string; gauge: PluginGauge }>): void;
}

/** A table may be absent (a plugin turned off): its gauge is then left empty. */
async function rowsOf<T>(
  sources: MetricsSources,
  what: string,
  query: () => Promise<{ rows: T[] }>,
): Promise<T[]> {
  try {
    return (await query()).rows;
  } catch (err) {
    if (!/does not exist/.test(String((err as Error).message))) sources.onError(err, what);
    return [];
  }
}

/** Creates the registry with every metric above. */
export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const httpDuration = new Histogram({
    name: 'charla_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern, seconds',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const turns = new Counter({
    name: 'charla_turns_total',
    help: 'Turns answered by the engine, by channel and outcome',
    labelNames: ['channel', 'outcome'] as const,
    registers,
  });
  const turnDuration = new Histogram({
    name: 'charla_turn_duration_seconds',
    help: 'Time of a whole turn (load, match, LLM, store), seconds',
    labelNames: ['channel'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const llmDuration = new Histogram({
    name: 'charla_llm_duration_seconds',
    help: 'Time of one LLM completion (tool rounds included), seconds',
    labelNames: ['outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const { db } = sources;
  new Gauge({
    name: 'charla_inbox_pending',
    help: 'Channel updates stored and not handled yet, by channel',
    labelNames: ['channel'] as const,
    registers,
    async collect() {
      this.reset();
      const rows = await rowsOf(sources, 'inbox', () =>
        sql<{ channel: string; n: number; age: number | null }>`
          select channel, count(*)::int as n,
                 extract(epoch from now() - min(received_at))::float8 as age
            from channel_updates where status = 'pending' group by channel`.execute(db),
      );
      for (const r of rows) {
        this.set({ channel: r.channel }, r.n);
        oldest.set({ channel: r.channel }, r.age ?? 0);
      }
    },
  });
  const oldest = new Gauge({
    name: 'charla_inbox_oldest_pending_seconds',
    help: 'Age of the oldest pending channel update, by channel, seconds',
    labelNames: ['channel'] as const,
    registers,
  });
  new Gauge({
    name: 'charla_jobs',
    help: 'Scheduled jobs by queue and state (pg-boss)',
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      const rows = await rowsOf(sources, 'jobs', () =>
        sql<{ name: string; state: string; n: number }>`
          select name, state::text as state, count(*)::int as n
            from ${sql.table(`${sources.jobsSchema}.job`)} group by name, state`.execute(db),
      );
      for (const r of rows) this.set({ queue: r.name, state: r.state }, r.n);
    },
  });
  new Gauge({
    name: 'charla_channel_connected_bots',
    help: 'Bots whose channel is connected in this process, by channel',
    labelNames: ['channel'] as const,
    registers,
    collect() {
      this.reset();
      for (const adapter of sources.adapters())
        if (adapter.connections) this.set({ channel: adapter.id }, adapter.connections.connected().length);
    },
  });
  function addPluginGauges(gauges: Iterable<{ plugin: string; gauge: PluginGauge }>): void {
    for (const { plugin, gauge } of gauges) {
      if (registry.getSingleMetric(gauge.name))
        throw new Error(`plugin "${plugin}": the metric ${gauge.name} is already registered`);
      new Gauge({
        name: gauge.name,
        help: gauge.help,
        labelNames: gauge.labelNames ?? [],
        registers,
        async collect() {
          this.reset();
          const samples = await rowsOf(sources, plugin, async () => ({ rows: await gauge.collect() }));
          for (const sample of samples) this.set(sample.labels, sample.value);
        },
      });
    }
  }
  return { registry, httpDuration, turns, turnDuration, llmDuration, addPluginGauges };
}
