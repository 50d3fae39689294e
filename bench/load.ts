/**
 * The two loads of `npm run bench`, run from the bench process against a server:
 *
 * - {@link maxThroughput}: closed loop, autocannon with N connections each sending its next
 *   message as soon as the previous answer arrives; measures the most messages/s (2xx per second).
 * - {@link steadyRate}: open loop, messages sent on a fixed schedule (one every 1/rate s) over a
 *   pool of N keep-alive connections; measures latency from each message's scheduled send time to
 *   the end of its answer, so a server that falls behind is charged for the queueing (no
 *   coordinated omission). autocannon's `overallRate` is not used for this: it fires each
 *   connection's whole per-second quota back to back at the top of every second (bursts of N
 *   concurrent requests, then silence) and corrects latencies with a 1 ms expected interval, which
 *   fills the histogram with made-up low values; neither is a steady 500 messages/s.
 *
 * Every connection (closed loop) or connection slot (open loop) is its own follower (visitorId),
 * and every message has a unique messageId.
 */
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

/** One request of a load: path (with query), extra headers and JSON body. */
export interface Prepared {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Where and what to send: one route (`body`), or a path and headers per request (`request`). */
export type Target = {
  /** Full URL of the message route (with `request`: the server's origin is taken from it). */
  url: string;
  /** When set, a 2xx answer not containing this text counts as a mismatch. */
  expect?: string;
} & (
  | {
      /** The JSON body of one message, POSTed to `url`. */
      body(visitorId: string, messageId: string): string;
    }
  | {
      /** The whole request of one message (e.g. a webhook of one of many bots, with its secret). */
      request(visitorId: string, messageId: string): Prepared;
    }
);

/** How a target builds its requests. */
function preparer(target: Target): (visitorId: string, messageId: string) => Prepared {
  if ('request' in target) return (v, m) => target.request(v, m);
  const url = new URL(target.url);
  return (v, m) => ({ path: url.pathname + url.search, headers: {}, body: target.body(v, m) });
}

/** What one load measured. */
export interface LoadResult {
  /** Seconds of load. */
  seconds: number;
  /** Answers with status 2xx (matching `expect`, when set). */
  ok: number;
  non2xx: number;
  /** Connection errors (timeouts not included). */
  errors: number;
  /** Requests without an answer within 10 s. */
  timeouts: number;
  /** 2xx answers that did not contain the expected text. */
  mismatches: number;
  /** Good answers per second. */
  rate: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  max: number;
  /** Open loop only: p50/p99 from the actual send (excludes time queued for a free connection). */
  serviceP50?: number;
  serviceP99?: number;
  /** Status code counts. */
  statuses: Record<string, number>;
}

let runCounter = 0;

/**
 * Closed loop: `connections` followers, each sending its next message as soon as it is answered,
 * for `seconds`, or until `amount` messages were sent when it is given.
 */
export async function maxThroughput(
  target: Target,
  connections: number,
  seconds: number,
  tag = 'max',
  amount?: number,
): Promise<LoadResult> {
  const run = `${tag}${++runCounter}-${Date.now().toString(36)}`;
  const url = new URL(target.url);
  const prepare = preparer(target);
  let clientIndex = 0;
  const result = await autocannon({
    url: url.origin,
    connections,
    duration: seconds,
    ...(amount ? { amount } : {}),
    timeout: 10,
    setupClient(client) {
      const follower = `follower-${clientIndex++ % connections}`;
      let seq = 0;
      client.setRequests([
        {
          method: 'POST',
          path: url.pathname + url.search,
          headers: { 'content-type': 'application/json' },
          setupRequest(req) {
            const next = prepare(follower, `${run}-${follower}-${seq++}`);
            req.path = next.path;
            req.headers = { 'content-type': 'application/json', ...next.headers };
            req.body = next.body;
            return req;
          },
        },
      ]);
    },
    ...(target.expect ? { verifyBody: (body: string) => body.includes(target.expect!) } : {}),
  });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count]));
  const ok = result['2xx'] - result.mismatches;
  return {
    seconds: result.duration,
    ok,
    non2xx: result.non2xx,
    errors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
    rate: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    statuses,
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/**
 * Open loop: `rate` messages/s for `seconds`, evenly spaced, over at most `connections`
 * keep-alive connections (a message whose slot is busy waits for a free connection, and that wait
 * counts in its latency). Message i is sent by follower `steady-(i mod connections)`.
 */
export async function steadyRate(
  target: Target,
  rate: number,
  connections: number,
  seconds: number,
  tag = 'steady',
): Promise<LoadResult> {
  const run = `${tag}${++runCounter}-${Date.now().toString(36)}`;
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const url = new URL(target.url);
  const prepare = preparer(target);
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const service: number[] = [];
  const statuses: Record<string, number> = {};
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let mismatches = 0;
  let pending = 0;
  let lastDone = 0;
  let allSent!: () => void;
  const drained = new Promise<void>((r) => {
    allSent = r;
  });
  let sent = 0;
  let scheduledAll = false;

  const finish = () => {
    pending--;
    lastDone = performance.now();
    if (scheduledAll && pending === 0) allSent();
  };

  const send = (i: number, due: number) => {
    const follower = `steady-${i % connections}`;
    const { path, headers, body: payload } = prepare(follower, `${run}-${i}`);
    pending++;
    let startedAt = 0;
    let settled = false;
    const fail = (err?: Error) => {
      if (settled) return;
      settled = true;
      if (err?.message === 'timeout') timeouts++;
      else errors++;
      finish();
    };
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          const end = performance.now();
          const status = res.statusCode ?? 0;
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status >= 200 && status < 300) {
            if (target.expect && !Buffer.concat(chunks).toString('utf8').includes(target.expect))
              mismatches++;
            else {
              ok++;
              latencies.push(end - due);
              service.push(end - startedAt);
            }
          } else non2xx++;
          finish();
        });
        res.on('error', fail);
      },
    );
    req.on('socket', () => {
      startedAt = performance.now();
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', fail);
    req.end(payload);
  };

  const start = performance.now() + 5;
  const interval = 1000 / rate;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        send(sent, start + sent * interval);
        sent++;
      }
      if (sent >= total) return resolve();
      setTimeout(tick, Math.max(0, Math.min(1, start + sent * interval - performance.now())));
    };
    setTimeout(tick, 5);
  });
  scheduledAll = true;
  if (pending === 0) allSent();
  // Every request settles within its 10 s socket timeout, except those still queued for a connection.
  let giveUp: NodeJS.Timeout | undefined;
  await Promise.race([drained, new Promise((r) => (giveUp = setTimeout(r, 15_000)))]);
  clearTimeout(giveUp);
  agent.destroy();
  const elapsed = (Math.max(lastDone, start + total * interval) - start) / 1000;
  latencies.sort((a, b) => a - b);
  service.sort((a, b) => a - b);
  return {
    seconds: elapsed,
    ok,
    non2xx,
    errors,
    timeouts: timeouts + pending,
    mismatches,
    rate: ok / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? Number.NaN,
    serviceP50: percentile(service, 50),
    serviceP99: percentile(service, 99),
    statuses,
  };
}
