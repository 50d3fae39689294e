/**
 * Answering a turn inside its HTTP request, as JSON or as Server-Sent Events (`Accept:
 * text/event-stream`: `token` events `{text}` as the reply is produced, then one `done` event with
 * the JSON answer, or `error` `{error}`). One handler for every chat route (the bot-id routes and
 * the web-key routes), so they stream, abort and fail the same way. The reply itself is the
 * engine's (`ctx.dispatch` with `deliver: 'return'`, engine/conversation/dispatch.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../engine/errors.ts';
import { openSse } from '../../engine/http/sse.ts';
import type { ChannelContext, InboundMessage, TurnResult } from '../../engine/registry/index.ts';
import type { ChatReply } from './contract.ts';

/** The text a streamed turn ends with when it fails unexpectedly (spec 000 §8's LLM failure). */
const STREAM_FAILED = 'No pudimos responder en este momento. Por favor, intenta de nuevo más tarde.';

/** Options of {@link answerTurn} and {@link runTurn}. */
export interface TurnHttpOptions {
  /**
   * Pass the reply through the plugins' outbound transformers, so a voice reply comes back as
   * `voice` (the widget routes); false for the bot-id JSON chat route, which carries none.
   */
  speak: boolean;
  /** Extra headers of the event stream (CORS for the web-key routes). */
  headers?: Record<string, string>;
}

/**
 * Runs `inbound` through the engine's reply path with `deliver: 'return'` and gives back the
 * engine's result with the reply's voice note as a `data:audio/ogg;base64,…` address (null when no
 * transformer spoke it, or `speak` is false).
 * @throws the engine's errors (AppError NOT_FOUND, BAD_REQUEST for an empty message, …).
 */
export async function runTurn(
  ctx: ChannelContext,
  inbound: InboundMessage,
  options: { speak: boolean; onToken?: (text: string) => void; signal?: AbortSignal },
): Promise<{ result: TurnResult; voice: string | null }> {
  const { result, message } = await ctx.dispatch(inbound, {
    deliver: 'return',
    transform: options.speak,
    ...(options.onToken ? { onToken: options.onToken } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // A web message carries no `command` nor `storeOnly`: the engine always runs its turn.
  if (!result) throw new Error('the web turn was answered without a turn');
  const voice = message?.voice ? `data:audio/ogg;base64,${message.voice.data.toString('base64')}` : null;
  return { result, voice };
}

/**
 * Runs `inbound` through the engine and answers the request: the shaped answer as JSON, or the
 * reply streamed as SSE when the client accepts `text/event-stream`. When the client leaves before
 * the end, the turn's LLM call is aborted.
 * @param shape turns the engine's result and the reply's voice note into the route's answer.
 * @returns the answer (JSON) or the hijacked reply (SSE).
 * @throws AppError BAD_REQUEST for an empty text message (before any stream opens), and the
 *   engine's errors on the JSON path.
 */
export async function answerTurn(
  ctx: ChannelContext,
  req: FastifyRequest,
  reply: FastifyReply,
  inbound: InboundMessage,
  shape: (result: TurnResult, voice: string | null) => ChatReply,
  options: TurnHttpOptions,
): Promise<ChatReply | FastifyReply> {
  if (!(req.headers.accept ?? '').includes('text/event-stream')) {
    const { result, voice } = await runTurn(ctx, inbound, { speak: options.speak });
    return shape(result, voice);
  }
  if (!inbound.text.trim() && !inbound.attachments?.length)
    throw new AppError('BAD_REQUEST', 'El mensaje está vacío.');
  const abort = new AbortController();
  // The response's close, not the request's (Node 20 emits that once the body is read): the
  // client left before the answer ended, so the LLM call stops.
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const sse = openSse(reply, options.headers ?? {});
  try {
    const { result, voice } = await runTurn(ctx, inbound, {
      speak: options.speak,
      onToken: (text) => sse.send('token', { text }),
      signal: abort.signal,
    });
    sse.send('done', shape(result, voice));
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
    ...(debug && r.passages ? { passages: r.passages } : {}),
    ...(r.choices?.length ? { choices: r.choices } : {}),
  };
}
