/**
 * The floor of `npm run bench`: the least a chat server can do per message over HTTP. A bare
 * Fastify 5 server with one POST route that parses the JSON body, makes the same single streamed
 * Chat Completions call to the same local LLM server as Charla (through the same `openai` SDK),
 * consumes the stream, and answers a fixed JSON body of the same size as Charla's reply. One HTTP
 * turn plus one model call, nothing else: no validation, no database, no prompt building.
 *
 * `node bin/run-ts.js bench/floor.ts <port> <llmBaseURL> <replyBytes>` prints its URL on stdout.
 */
import Fastify from 'fastify';
import OpenAI from 'openai';

const [portArg = '0', baseURL, bytesArg = '232'] = process.argv.slice(2);
if (!baseURL) {
  process.stderr.write('usage: floor.ts <port> <llmBaseURL> <replyBytes>\n');
  process.exit(2);
}

/** A fixed JSON answer shaped like Charla's, padded to exactly `bytes` bytes of UTF-8. */
export function fixedReply(bytes: number): string {
  const shape = (pad: string) =>
    JSON.stringify({
      reply: `Respuesta fija del suelo${pad}`,
      attachment: null,
      archivosEnviados: [],
      contenedorEmpatico: { archivos: { action: 'NONE', lista: [] } },
      offline: false,
      duplicate: false,
    });
  const base = Buffer.byteLength(shape(''));
  return shape('.'.repeat(Math.max(0, bytes - base)));
}

const body = fixedReply(Number(bytesArg));
// Same SDK settings as Charla's LLM client (engine/conversation/llm.ts defaults).
const openai = new OpenAI({ baseURL, apiKey: 'x', timeout: 30_000, maxRetries: 2 });
const app = Fastify({ logger: false });

app.post('/message', async (req, reply) => {
  const content = String((req.body as { userMessage?: unknown } | undefined)?.userMessage ?? '');
  const stream = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content }],
    stream: true,
  });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  if (!text) throw new Error('empty reply from the LLM');
  return reply.type('application/json; charset=utf-8').send(body);
});
app.get('/healthz', async () => ({ status: 'ok' }));

const address = await app.listen({ port: Number(portArg), host: '127.0.0.1' });
process.stdout.write(`${address}\n`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
