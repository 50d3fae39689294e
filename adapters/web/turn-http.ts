/**
 * Answering a turn inside its HTTP request, as JSON or as Server-Sent Events (`Accept:
 * text/event-stream`: `token` events `{text}` as the reply is produced, then one `done` event with
 * the JSON answer, or `error` `{error}`). One handler for every chat route (the bot-id routes and
 * the web-key routes), so they stream, abort and fail the same way.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../engine/errors.ts';
import { openSse } from '../../engine/http/sse.ts';
import type { ChannelContext, InboundMessage, TurnResult } from '../../engine/registry/index.ts';
import type { ChatReply } from './contract.ts';

/** The text a streamed turn ends with when it fails unexpectedly (spec 000 §8's LLM failure). */
const STREAM_FAILED = 'No pudimos responder en este momento. Por favor, intenta de nuevo más tarde.';

/**
 * Runs `inbound` through the engine and answers the request: the shaped answer as JSON, or the
 * reply streamed as SSE when the client accepts `text/event-stream`. When the client leaves before
 * the end, the turn's LLM call is aborted.
 * @param shape turns the engine's result into the route's answer (may add a spoken reply).
 * @param headers extra headers of the event stream (CORS for the web-key routes).
 * @returns the answer (JSON) or the hijacked reply (SSE).
 * @throws AppError BAD_REQUEST for an empty text message (before any stream opens), and the
 *   engine's errors on the JSON path.
 */
export async function answerTurn(
  ctx: ChannelContext,
  req: FastifyRequest,
  reply: FastifyReply,
  inbound: InboundMessage,
  shape: (result: TurnResult) => Promise<ChatReply>,
  headers: Record<string, string> = {},
): Promise<ChatReply | FastifyReply> {
  if (!(req.headers.accept ?? '').includes('text/event-stream')) return shape(await ctx.dispatch(inbound));
  if (!inbound.text.trim() && !inbound.attachments?.length)
    throw new AppError('BAD_REQUEST', 'El mensaje está vacío.');
  const abort = new AbortController();
  // The response's close, not the request's (Node 20 emits that once the body is read): the
  // client left before the answer ended, so the LLM call stops.
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const sse = openSse(reply, headers);
  try {
    const result = await ctx.dispatch(inbound, {
      onToken: (text) => sse.send('token', { text }),
      signal: abort.signal,
    });
    sse.send('done', await shape(result));
  } catch (err) {
    if (!(err instanceof AppError)) req.log.error({ err }, 'streamed turn failed');
    sse.send('error', { error: err instanceof AppError ? err.message : STREAM_FAILED });
  } finally {
    sse.end();
  }
  return reply;
}

/**
 * A turn's answer on the chat routes; the whole empathy container only when `debug` (the bot's
 * owner asked for it), otherwise its `archivos` block.
 */
export function chatReply(r: TurnResult, voice: string | null, debug = false): ChatReply {
  return {
    reply: r.reply,
    heard: r.heard,
    attachment: r.attachment,
    archivosEnviados: r.archivosEnviados,
    contenedorEmpatico: debug ? r.contenedorEmpatico : { archivos: r.contenedorEmpatico.archivos },
    offline: r.offline,
    duplicate: r.duplicate,
    silent: r.silent,
    voice,
  };
}
