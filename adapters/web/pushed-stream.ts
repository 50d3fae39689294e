/**
 * The visitor's stream (issue 26 §2, issue 27 §3): `GET /api/web/:key/pushed/stream`, Server-Sent
 * Events that bring what the business sends a web visitor (an owner's reply, a reminder, a
 * broadcast) to an open widget or IALanding within about a second, whichever node stored it.
 *
 * How a message gets there: the outbox stores it (engine/channels/outbound.ts) and the engine's
 * batched side effects raise `NOTIFY charla_messages` `{chatbotId, channel, userId}` within 250 ms
 * (engine/store/batcher.ts). Each process holds ONE subscription to that channel
 * ({@link VisitorWakes}, on the store's single LISTEN connection) and wakes, in memory, the streams
 * it holds for that bot and visitor; a woken stream reads what is new after its cursor with
 * {@link pushedMessages} (the payload only says where to look; it is never shown). When the LISTEN
 * connection was lost and is back, every stream reads again (events may have been missed).
 *
 * The stream is `live` (engine/http/sse.ts): a stopping node ends it and the browser's EventSource
 * reconnects, behind a load balancer to another node, after `retry: 1000`; each event carries the
 * message id as its SSE `id`, so the reconnect's `Last-Event-ID` resumes where it stopped.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import { openSse } from '../../engine/http/sse.ts';
import { addressKey } from '../../engine/rate-limits.ts';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { MESSAGES_CHANNEL } from '../../engine/store/queries/messages.ts';
import { MAX_PUSHED, PushedQuery, pushedMessages, pushedView, refuseTooMany } from './pushed.ts';
import { personLabel } from './queries.ts';
import { botByKey } from './shared.ts';
import { TOO_MANY_TEXTS } from './texts.ts';

/** A comment line this often keeps proxies from closing an idle stream, ms. */
export const STREAM_HEARTBEAT_MS = 25_000;
/**
 * At most this many open visitor streams per network address on one node (an office or a mobile
 * NAT with many open widgets; the polls' limit `pushedAddress` still counts each opening).
 */
export const MAX_STREAMS_PER_ADDRESS = 60;
/** The conversation channels a web visitor id writes (the widget's and the IALanding's). */
const VISITOR_CHANNELS = new Set(['web', 'ialanding']);

/**
 * One subscription per process to `charla_messages`, fanned out in memory to the visitor streams
 * this process holds, by bot and visitor id. Subscribes on the first stream; {@link close} ends it.
 */
export class VisitorWakes {
  private readonly waiting = new Map<string, Set<() => void>>();
  private subscribed: Promise<() => Promise<void>> | null = null;

  constructor(private readonly ctx: () => ChannelContext) {}

  /**
   * Calls `wake` each time messages of this visitor's conversation are stored (or after the
   * LISTEN connection came back). Resolves, once listening, with the function that stops it.
   * @throws the store's error when it cannot listen (the caller ends its stream).
   */
  async watch(chatbotId: string, visitorId: string, wake: () => void): Promise<() => void> {
    await this.listening();
    const key = `${chatbotId}\t${visitorId}`;
    let set = this.waiting.get(key);
    if (!set) {
      set = new Set();
      this.waiting.set(key, set);
    }
    set.add(wake);
    return () => {
      const now = this.waiting.get(key);
      now?.delete(wake);
      if (now?.size === 0) this.waiting.delete(key);
    };
  }

  /** How many streams this process holds (tests, metrics). */
  get size(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }

  private listening(): Promise<() => Promise<void>> {
    this.subscribed ??= this.ctx()
      .listen(MESSAGES_CHANNEL, (payload) => this.onPayload(payload), {
        onResume: () => {
          for (const set of this.waiting.values()) for (const wake of set) wake();
        },
      })
      .catch((err: unknown) => {
        this.subscribed = null; // the next stream tries again
        throw err;
      });
    return this.subscribed;
  }

  private onPayload(payload: string): void {
    let event: { chatbotId?: unknown; channel?: unknown; userId?: unknown };
    try {
      event = JSON.parse(payload) as typeof event;
    } catch {
      return;
    }
    if (typeof event.channel !== 'string' || !VISITOR_CHANNELS.has(event.channel)) return;
    const set = this.waiting.get(`${String(event.chatbotId)}\t${String(event.userId)}`);
    if (set) for (const wake of set) wake();
  }

  /** Stops listening (the adapter's stop). */
  async close(): Promise<void> {
    const subscribed = this.subscribed;
    this.subscribed = null;
    if (subscribed) await (await subscribed.catch(() => async () => {}))();
  }
}

/** The later of two message ids (decimal strings), or either when the other is null. */
export function laterId(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return BigInt(a) >= BigInt(b) ? a : b;
}

/** The `Last-Event-ID` a reconnecting EventSource sends, when it is a message id. */
function lastEventId(req: FastifyRequest): string | null {
  const v = req.headers['last-event-id'];
  return typeof v === 'string' && /^\d{1,20}$/.test(v) ? v : null;
}

/** `GET /api/web/:key/pushed/stream` (see the file's docstring). */
export function pushedStreamRoutes(ctx: () => ChannelContext, wakes: VisitorWakes): FastifyPluginAsyncZod {
  /** Open streams on this node by network address. */
  const open = new Map<string, number>();
  return async (app) => {
    app.get(
      '/api/web/:key/pushed/stream',
      {
        ...refuseTooMany(ctx),
        schema: {
          summary: 'A web visitor’s live stream of what the business sends them',
          description:
            'Issue 26 §2, issue 27 §3: Server-Sent Events. A `pushed` event `{id, text, from, at}` (the SSE `id` is the ' +
            'message id) for each message the business sent this visitor without them asking (an owner’s reply, a ' +
            'reminder, a broadcast) after `after` or the `Last-Event-ID` header, whichever is later (without either: the ' +
            'last 48 h), first what is already stored, then each new one within about a second of being stored on any ' +
            'node (PostgreSQL LISTEN/NOTIFY). A comment every 25 s keeps proxies from closing it; a stopping node ends ' +
            'it and the browser reconnects (`retry: 1000`). The widget polls `GET /api/web/:key/pushed` when the stream ' +
            'cannot open. CORS: any origin. 404 for an unknown key; 429 (with `Retry-After`) beyond the polls’ limit ' +
            `per address and key, or beyond ${MAX_STREAMS_PER_ADDRESS} open streams from one address on one node.`,
          tags: ['web'],
          params: z.object({ key: z.string().min(1).max(100) }),
          querystring: PushedQuery,
        },
      },
      async (req, reply) => {
        const bot = await botByKey(ctx(), req.params.key);
        const person = await personLabel(ctx().db, bot);
        const address = addressKey(req.ip);
        const count = open.get(address) ?? 0;
        if (count >= MAX_STREAMS_PER_ADDRESS) {
          reply.header('retry-after', '30');
          throw new AppError('RATE_LIMITED', TOO_MANY_TEXTS.es);
        }
        open.set(address, count + 1);
        const visitorId = req.query.visitorId;
        let cursor = laterId(req.query.after ?? null, lastEventId(req));
        let ended = false;
        let reading = false;
        let again = false;
        let stop: (() => void) | undefined;
        let heartbeat: NodeJS.Timeout | undefined;
        // Fastify's headers set so far (CORS) go out with the hijacked answer too.
        const sse = openSse(reply, corsHeaders(reply), { live: true });
        const end = () => {
          if (ended) return;
          ended = true;
          const left = (open.get(address) ?? 1) - 1;
          if (left > 0) open.set(address, left);
          else open.delete(address);
          clearInterval(heartbeat);
          stop?.();
          sse.end();
        };
        reply.raw.on('close', end);
        /** Sends what is new after the cursor; a wake during a read reads once more after it. */
        const read = async (): Promise<void> => {
          if (reading) {
            again = true;
            return;
          }
          reading = true;
          try {
            do {
              again = false;
              let rows: Awaited<ReturnType<typeof pushedMessages>>;
              do {
                rows = await pushedMessages(ctx().db, { chatbotId: bot.id, visitorId, after: cursor });
                for (const row of rows) {
                  if (ended) return;
                  reply.raw.write(
                    `id: ${row.id}\nevent: pushed\ndata: ${JSON.stringify(pushedView(row, person))}\n\n`,
                  );
                  cursor = row.id;
                }
              } while (rows.length >= MAX_PUSHED && !ended);
            } while (again && !ended);
          } catch (err) {
            // The database is away for a moment: end, and the browser reconnects (with Last-Event-ID).
            req.log.warn({ err }, 'visitor stream could not read');
            end();
          } finally {
            reading = false;
          }
        };
        try {
          // Watching before the first read: a message stored meanwhile wakes a second read.
          stop = await wakes.watch(bot.id, visitorId, () => void read());
        } catch (err) {
          req.log.warn({ err }, 'visitor stream could not listen');
          end();
          return reply;
        }
        if (ended) {
          stop();
          return reply;
        }
        heartbeat = setInterval(() => {
          if (!reply.raw.writableEnded) reply.raw.write(': keep-alive\n\n');
        }, STREAM_HEARTBEAT_MS);
        heartbeat.unref();
        await read();
        return reply;
      },
    );
  };
}

/** The string headers Fastify holds for `reply` (the CORS ones set on request). */
function corsHeaders(reply: FastifyReply): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if ((typeof value === 'string' || typeof value === 'number') && !/^content-(type|length)$/i.test(name))
      out[name] = String(value);
  return out;
}
