/**
 * Server-Sent Events on a Fastify reply (the streamed chat reply of `POST /api/chatbot-message`,
 * and the live streams of the dashboard: file list, inbox). Each event is
 * `event: <name>\ndata: <json>\n\n`, per the WHATWG EventSource format.
 *
 * Live streams (`live: true`: subscriptions that stay open while a page is) are tracked per HTTP
 * server so a stopping node can end them first (issue 26 §3): Node's `server.close()` waits for
 * every open connection, and a hijacked event stream never ends by itself, so one open dashboard
 * tab held a SIGTERM forever. Ended, the browser's EventSource reconnects by itself — behind a
 * load balancer, to another node — and the page reloads what it shows on `resync`. A turn's
 * stream is not live: it ends with its answer, and a stopping node lets it finish.
 */
import type { FastifyReply } from 'fastify';

/** An open event stream. */
export interface SseStream {
  send(event: string, data: unknown): void;
  end(): void;
}

/** Options of {@link openSse}. */
export interface SseOptions {
  /** A subscription (not one answer): ended by {@link endLiveStreams} when the node stops. */
  live?: boolean;
}

/** Open live streams by HTTP server (`reply.server.server`, shared by every Fastify child). */
const liveStreams = new WeakMap<object, Set<SseStream>>();

/** Takes over the raw response and starts an event stream (status 200, no buffering by proxies). */
export function openSse(
  reply: FastifyReply,
  extraHeaders: Record<string, string> = {},
  options: SseOptions = {},
): SseStream {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    ...extraHeaders,
  });
  res.flushHeaders();
  const stream: SseStream = {
    send(event, data) {
      if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (!res.writableEnded) res.end();
    },
  };
  if (options.live) {
    const key = reply.server.server;
    let open = liveStreams.get(key);
    if (!open) {
      open = new Set();
      liveStreams.set(key, open);
    }
    const streams = open;
    streams.add(stream);
    res.once('close', () => streams.delete(stream));
    // Reconnect soon after the node ends the stream (the WHATWG `retry` field, ms).
    res.write('retry: 1000\n\n');
  }
  return stream;
}

/**
 * Ends every live stream of an HTTP server (a stopping node): clients reconnect, to another node
 * when there is one. Returns how many were ended.
 */
export function endLiveStreams(server: object): number {
  const open = liveStreams.get(server);
  if (!open) return 0;
  const streams = [...open];
  open.clear();
  for (const stream of streams) stream.end();
  return streams.length;
}
