/**
 * A local HTTP server that speaks the OpenAI Chat Completions wire format
 * (POST /v1/chat/completions; JSON, or Server-Sent Events `data: {chunk}` lines ending with
 * `data: [DONE]` when `stream: true`). Tests and benchmarks point `OPENAI_BASE_URL` at it.
 * It records every request body so tests can assert what Charla sent.
 *
 * It also answers POST /v1/embeddings in the OpenAI format with deterministic vectors: a hashed bag
 * of words ({@link fakeEmbedding}). That is a test server speaking the wire format, not a model:
 * two texts are near only when they share words (or their first five letters: "cumpleaños" and
 * "cumple" share "cumpl"), never because they mean the same thing.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message of a recorded request (tool calls and tool results included). */
export interface RecordedMessage {
  role: string;
  content: string;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

/** One recorded request. */
export interface RecordedRequest {
  model: string;
  stream: boolean;
  messages: RecordedMessage[];
  /** The function tools offered (Chat Completions `tools`), when any. */
  tools?: Array<{ type: 'function'; function: { name: string; description: string; parameters: unknown } }>;
  tool_choice?: unknown;
  authorization: string | undefined;
}

/** How the fake answers a request. */
export interface FakeReply {
  /** The reply text, sent in `chunks` pieces when streaming. */
  text: string;
  /** Pieces of a streamed reply; default: the text split into words. */
  chunks?: string[];
  /** Delay before each streamed piece, ms. */
  chunkDelayMs?: number;
  /** Answer with this HTTP status and an OpenAI error body instead. */
  status?: number;
  /**
   * Ask for these function calls instead of (or after) the text: streamed as `tool_calls` deltas
   * (the arguments in two pieces, as real servers split them) with `finish_reason: tool_calls`.
   */
  toolCalls?: Array<{ name: string; arguments: unknown }>;
}

/** Size of the fake's embeddings. */
export const FAKE_EMBEDDING_DIMS = 256;

/**
 * The fake's embedding of a text: its words (lower-cased, without accents, three letters or more)
 * cut to their first five letters, each counted in one of {@link FAKE_EMBEDDING_DIMS} buckets by an
 * FNV-1a hash. Not normalised (Charla normalises what any server returns).
 */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(FAKE_EMBEDDING_DIMS).fill(0);
  const words =
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/\p{L}{3,}/gu) ?? [];
  for (const word of words) {
    let h = 0x811c9dc5;
    for (const ch of word.slice(0, 5)) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    v[h % FAKE_EMBEDDING_DIMS]! += 1;
  }
  return v;
}

/** Options of {@link startFakeOpenAi}. */
export interface FakeOpenAiOptions {
  /** Decides the reply of each request; default echoes "Respuesta: <last user message>". */
  reply?: (req: RecordedRequest) => FakeReply | Promise<FakeReply>;
  /** Do not record requests (benchmarks). */
  record?: boolean;
  port?: number;
}

/** A running fake. */
export interface FakeOpenAi {
  /** Base URL to give the SDK, ending in `/v1`. */
  baseURL: string;
  requests: RecordedRequest[];
  /** The `input` of each POST /v1/embeddings, in order. */
  embeddingInputs: string[][];
  /** Set to answer POST /v1/embeddings with this HTTP status (e.g. 503: the server is down). */
  embeddingsStatus: number | null;
  server: Server;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the fake on 127.0.0.1 (a free port unless `port` is given). */
export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const requests: RecordedRequest[] = [];
  const decide: (r: RecordedRequest) => FakeReply | Promise<FakeReply> =
    options.reply ??
    ((r: RecordedRequest) => ({
      text: `Respuesta: ${r.messages.filter((m) => m.role === 'user').at(-1)?.content ?? ''}`,
    }));
  let counter = 0;
  const embeddingInputs: string[][] = [];
  const state = { embeddingsStatus: null as number | null };
  const server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
      const body = JSON.parse(await readBody(req)) as { model: string; input: string | string[] };
      const input = typeof body.input === 'string' ? [body.input] : body.input;
      embeddingInputs.push(input);
      const status = state.embeddingsStatus;
      res.writeHead(status ?? 200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          status
            ? { error: { message: 'unavailable', type: 'server_error', code: null } }
            : {
                object: 'list',
                model: body.model,
                data: input.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t) })),
                usage: { prompt_tokens: 1, total_tokens: 1 },
              },
        ),
      );
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
      return;
    }
    const body = JSON.parse(await readBody(req)) as {
      model: string;
      stream?: boolean;
      messages: RecordedRequest['messages'];
      tools?: RecordedRequest['tools'];
      tool_choice?: unknown;
    };
    const recorded: RecordedRequest = {
      model: body.model,
      stream: Boolean(body.stream),
      messages: body.messages,
      ...(body.tools ? { tools: body.tools } : {}),
      ...(body.tool_choice !== undefined ? { tool_choice: body.tool_choice } : {}),
      authorization: req.headers.authorization,
    };
    if (options.record !== false) requests.push(recorded);
    const reply = await decide(recorded);
    const id = `chatcmpl-${++counter}`;
    const created = Math.floor(Date.now() / 1000);
    if (reply.status && reply.status >= 400) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: reply.text, type: 'server_error', code: null } }));
      return;
    }
    const calls = (reply.toolCalls ?? []).map((c, i) => ({
      id: `call_${counter}_${i}`,
      type: 'function' as const,
      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
    }));
    if (!recorded.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: body.model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: reply.text || null,
                ...(calls.length ? { tool_calls: calls } : {}),
              },
              finish_reason: calls.length ? 'tool_calls' : 'stop',
            },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    const pieces = reply.chunks ?? reply.text.match(/\S+\s*|\s+/g) ?? (reply.text ? [reply.text] : []);
    for (const piece of pieces) {
      if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
      res.write(chunk({ content: piece }, null));
    }
    for (const [index, call] of calls.entries()) {
      const args = call.function.arguments;
      const half = Math.floor(args.length / 2);
      res.write(
        chunk(
          {
            tool_calls: [
              {
                index,
                id: call.id,
                type: 'function',
                function: { name: call.function.name, arguments: args.slice(0, half) },
              },
            ],
          },
          null,
        ),
      );
      res.write(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }, null));
    }
    res.write(chunk({}, calls.length ? 'tool_calls' : 'stop'));
    res.end('data: [DONE]\n\n');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingInputs,
    get embeddingsStatus() {
      return state.embeddingsStatus;
    },
    set embeddingsStatus(status: number | null) {
      state.embeddingsStatus = status;
    },
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
