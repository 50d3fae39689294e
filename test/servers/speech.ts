/**
 * Local servers for the voice and web search plugins, speaking the documented wire formats:
 * OpenAI's audio API (https://platform.openai.com/docs/api-reference/audio) — `POST
 * /v1/audio/transcriptions` (multipart `file`, `model`, `language` → `{"text": …}`) and `POST
 * /v1/audio/speech` (JSON `{model, input, voice, response_format}` → audio bytes) — and SearXNG's
 * search API (https://docs.searxng.org/dev/search_api.html): `GET /search?q=…&format=json` →
 * `{query, number_of_results, results: [{url, title, content, engine}], answers, suggestions}`.
 * Every request is recorded; each endpoint can be made slow or failing.
 */
import type { AddressInfo } from 'node:net';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';

/** How one endpoint behaves. */
export interface Behaviour {
  /** Wait this long before answering, ms. */
  delayMs?: number;
  /** Answer this HTTP status with an error body instead. */
  status?: number;
}

export interface SpeechServers {
  /** Give it as CHARLA_STT_BASE_URL and CHARLA_TTS_BASE_URL (ends in /v1). */
  openaiBase: string;
  /** Give it as CHARLA_SEARCH_URL. */
  searxBase: string;
  transcriptions: Array<{ model: string; language?: string; file: Buffer; filename: string }>;
  speeches: Array<{ model: string; input: string; voice: string; response_format?: string }>;
  searches: Array<Record<string, string>>;
  /** What the transcription server hears. */
  transcript: string;
  /** The bytes the speech server answers (a real spoken recording). */
  speech: Buffer;
  /** Search results by query (default: two results about the query). */
  results: (q: string) => Array<{ url: string; title: string; content: string }>;
  stt: Behaviour;
  tts: Behaviour;
  search: Behaviour;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts both on 127.0.0.1 (one server, two base paths). */
export async function startSpeechServers(speech: Buffer): Promise<SpeechServers> {
  const app = Fastify({ logger: false, bodyLimit: 30 * 1024 * 1024, forceCloseConnections: true });
  await app.register(multipart, { limits: { fileSize: 30 * 1024 * 1024 } });
  const state: Omit<SpeechServers, 'openaiBase' | 'searxBase' | 'close'> = {
    transcriptions: [],
    speeches: [],
    searches: [],
    transcript: '¿A qué hora abrís el sábado?',
    speech,
    results: (q) => [
      {
        url: 'https://www.example.org/noticias/madrid-hoy',
        title: `Noticias: ${q}`,
        content: 'La Gran Vía se cierra al tráfico este sábado por la carrera popular.',
      },
      {
        url: 'https://news.example.com/es/evento',
        title: 'Carrera popular en Madrid',
        content: 'Más de 10.000 corredores participan en la carrera del sábado.',
      },
    ],
    stt: {},
    tts: {},
    search: {},
  };
  const behave = async (b: Behaviour, reply: import('fastify').FastifyReply) => {
    if (b.delayMs) await sleep(b.delayMs);
    if (b.status) {
      reply.code(b.status).send({ error: { message: 'server error', type: 'server_error' } });
      return true;
    }
    return false;
  };

  app.post('/v1/audio/transcriptions', async (req, reply) => {
    const fields: Record<string, string> = {};
    let file: Buffer | undefined;
    let filename = '';
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        file = await part.toBuffer();
        filename = part.filename;
      } else fields[part.fieldname] = String(part.value);
    }
    state.transcriptions.push({
      model: fields.model ?? '',
      ...(fields.language ? { language: fields.language } : {}),
      file: file ?? Buffer.alloc(0),
      filename,
    });
    if (await behave(state.stt, reply)) return reply;
    return { text: state.transcript };
  });

  app.post('/v1/audio/speech', async (req, reply) => {
    state.speeches.push(req.body as SpeechServers['speeches'][number]);
    if (await behave(state.tts, reply)) return reply;
    return reply.type('audio/ogg').send(state.speech);
  });

  app.get('/searx/search', async (req, reply) => {
    const query = req.query as Record<string, string>;
    state.searches.push(query);
    if (await behave(state.search, reply)) return reply;
    if (query.format !== 'json') return reply.code(403).send('Forbidden');
    const results = state.results(query.q ?? '').map((r) => ({ ...r, engine: 'fake', score: 1 }));
    return {
      query: query.q,
      number_of_results: results.length,
      results,
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: [],
    };
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    openaiBase: `${base}/v1`,
    searxBase: `${base}/searx`,
    close: () => app.close(),
  }) as SpeechServers;
}
