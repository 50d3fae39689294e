/**
 * Server-Sent Events on a Fastify reply (the streamed chat reply of `POST /api/chatbot-message`).
 * Each event is `event: <name>\ndata: <json>\n\n`, per the WHATWG EventSource format.
 */
import type { FastifyReply } from 'fastify';

/** An open event stream. */
export interface SseStream {
  send(event: string, data: unknown): void;
  end(): void;
}

/** Takes over the raw response and starts an event stream (status 200, no buffering by proxies). */
export function openSse(reply: FastifyReply, extraHeaders: Record<string, string> = {}): SseStream {
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
  return {
    send(event, data) {
      if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (!res.writableEnded) res.end();
    },
  };
}
