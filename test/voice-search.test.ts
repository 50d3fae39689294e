/**
 * Voice and web search (issue 15) through a running Charla, its Telegram bot on the local Bot API
 * server, the LLM on the local OpenAI-format server, and local servers speaking OpenAI's audio API
 * and SearXNG's JSON API (test/servers/speech.ts). A follower's real voice note (the demo's spoken
 * greeting, re-encoded with ffmpeg as Telegram records: OGG/Opus mono) is transcribed and answered;
 * with "Respuestas de voz" on the answer also arrives as `sendVoice` with a valid OGG/Opus note in
 * the owner's voice; a question about today's news calls the search tool, whose links appear in the
 * reply; and a slow or failing transcription, speech or search server degrades to text within the
 * turn. Without servers, the status routes say the options are unavailable.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_RECEIVED } from '../engine/conversation/texts.ts';
import { ffmpegPath } from '../engine/media.ts';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { type FakeOpenAi, type RecordedRequest, startFakeOpenAi } from './servers/openai.ts';
import { type SpeechServers, startSpeechServers } from './servers/speech.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const GREETING = new URL('../assets/demo/saludo-el-pato-pepe.ogg', import.meta.url).pathname;

/** Decodes a whole OGG with ffmpeg (no ffprobe here): its stream lines; fails on a broken file. */
function decodeOgg(data: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'charla-voice-'));
  try {
    const path = join(dir, 'note.ogg');
    writeFileSync(path, data);
    const res = spawnSync(ffmpegPath(), ['-hide_banner', '-i', path, '-f', 'null', '-'], {
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).not.toMatch(/Invalid data|Error while decoding/);
    return res.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the LLM fake answers: a search for news questions, then a reply from the tool's results. */
function llmReply(req: RecordedRequest) {
  const tool = req.messages.find((m) => m.role === 'tool');
  if (tool) {
    const results = JSON.parse(tool.content) as {
      results?: Array<{ url: string; title: string }>;
      error?: string;
    };
    if (!results.results) return { text: 'No he podido comprobarlo en la web ahora mismo.' };
    return {
      text: `Según ${results.results[0]!.title}: la Gran Vía se cierra. Fuente: ${results.results[0]!.url}`,
    };
  }
  const user = req.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  if (/noticias/i.test(user) && req.tools?.some((t) => t.function.name === 'web_search'))
    return { text: '', toolCalls: [{ name: 'web_search', arguments: { query: user.replace(/[¿?]/g, '') } }] };
  return { text: `Respuesta: ${user}` };
}

describe('voice and web search', () => {
  let telegram: FakeTelegram;
  let llm: FakeOpenAi;
  let servers: SpeechServers;
  let app: TestApp;
  let bare: TestApp;
  let owner: { id: string; token: string };
  let botId: string;
  let tgToken: string;
  let voiceNote: Buffer;
  let nextMessage = 100;

  const inject = async (method: 'GET' | 'POST', url: string, payload?: object, on = app) =>
    (await on.http()).inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${(on === app ? owner : await bare.owner('sin@example.com')).token}`,
      },
      ...(payload ? { payload } : {}),
    });
  const sent = (method: string, chatId: number) =>
    telegram.callsOf(tgToken, method).filter((c) => String(c.params.chat_id) === String(chatId) && !c.failed);
  const sendVoice = async (chatId: number) => {
    const fileId = `VOICE-${chatId}-${nextMessage}`;
    telegram.addFile(fileId, voiceNote, 'audio/ogg');
    await telegram.deliver(tgToken, {
      update_id: telegram.nextUpdateId(),
      message: {
        message_id: nextMessage++,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: 'private' },
        from: { id: chatId, is_bot: false, first_name: 'Marta', username: `marta${chatId}` },
        voice: { file_id: fileId, file_unique_id: fileId, duration: 3, mime_type: 'audio/ogg' },
      },
    });
  };
  const save = (fields: object) =>
    inject('POST', '/api/save-chatbot', {
      id: botId,
      business_name: 'El Pato Pepe',
      business_description: 'Restaurante familiar en Madrid. Abrimos de martes a domingo de 13:00 a 23:30.',
      idioma: 'Español',
      ...fields,
    });

  beforeAll(async () => {
    // A follower's voice note as Telegram records it: OGG/Opus mono, from a real spoken sample.
    voiceNote = execFileSync(
      ffmpegPath(),
      [
        '-v',
        'error',
        '-i',
        GREETING,
        '-ac',
        '1',
        '-ar',
        '48000',
        '-c:a',
        'libopus',
        '-b:a',
        '24k',
        '-f',
        'ogg',
        '-',
      ],
      { maxBuffer: 10 * 1024 * 1024 },
    );
    telegram = await startFakeTelegram();
    llm = await startFakeOpenAi({ reply: llmReply });
    servers = await startSpeechServers(readFileSync(GREETING));
    const env = {
      TELEGRAM_API_ROOT: telegram.apiRoot,
      TELEGRAM_MODE: 'polling',
      CHARLA_STT_BASE_URL: servers.openaiBase,
      CHARLA_STT_TIMEOUT_MS: '1500',
      CHARLA_TTS_BASE_URL: servers.openaiBase,
      CHARLA_TTS_VOICES: 'alloy,nova,onyx',
      CHARLA_TTS_TIMEOUT_MS: '1500',
      CHARLA_SEARCH_URL: servers.searxBase,
      CHARLA_SEARCH_TIMEOUT_MS: '800',
    };
    app = await createTestApp('pglite', { llm: fakeLlm(llm.baseURL), env });
    await app.startChannels();
    bare = await createTestApp('pglite', { llm: null });
    owner = await app.owner('pepe@example.com');
    const saved = await inject('POST', '/api/save-chatbot', {
      business_name: 'El Pato Pepe',
      business_description: 'Restaurante familiar en Madrid. Abrimos de martes a domingo de 13:00 a 23:30.',
      idioma: 'Español',
    });
    botId = (saved.json() as { id: string }).id;
    const tg = telegram.addBot('PatoPepeBot');
    tgToken = tg.token;
    const connected = await inject('POST', '/api/verify-telegram', {
      telegramToken: tg.token,
      telegramUsername: tg.username,
      chatbotId: botId,
    });
    expect(connected.statusCode, connected.body).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    await bare?.close();
    await telegram?.close();
    await llm?.close();
    await servers?.close();
  });

  it('says what is available: everything here, nothing on a server without them', async () => {
    expect((await inject('GET', '/api/voice/status')).json()).toEqual({
      hearing: true,
      speaking: true,
      voices: ['alloy', 'nova', 'onyx'],
    });
    expect((await inject('GET', '/api/web-search/status')).json()).toEqual({ available: true, reason: null });
    expect((await inject('GET', '/api/voice/status', undefined, bare)).json()).toEqual({
      hearing: false,
      speaking: false,
      voices: [],
    });
    expect((await inject('GET', '/api/web-search/status', undefined, bare)).json()).toEqual({
      available: false,
      reason: 'notConfigured',
    });
  });

  it('transcribes a Telegram voice note and answers the words, storing the transcript with the audio', async () => {
    await sendVoice(301);
    await telegram.waitFor(() => sent('sendMessage', 301).length === 1);
    expect(sent('sendMessage', 301)[0]!.params.text).toBe('Respuesta: ¿A qué hora abrís el sábado?');
    const heard = servers.transcriptions.at(-1)!;
    expect(heard).toMatchObject({ model: 'whisper-1', language: 'es' });
    expect(heard.file.subarray(0, 4).toString()).toBe('OggS');
    expect(heard.file.equals(voiceNote)).toBe(true);
    // No voice reply while "Respuestas de voz" is off.
    expect(sent('sendVoice', 301)).toHaveLength(0);
    await app.inbox.idle();
    const row = await app.store.db
      .selectFrom('conversation_messages')
      .select(['text', 'meta'])
      .where('chatbot_id', '=', botId)
      .where('user_id', '=', '301')
      .where('sender', '=', 'user')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      text: '¿A qué hora abrís el sábado?',
      meta: { received: [{ kind: 'voice', channelFileId: expect.stringMatching(/^VOICE-301/) }] },
    });
  });

  it('answers with a voice note in the owner’s voice when "Respuestas de voz" is on', async () => {
    expect((await save({ enable_audio: true, selected_voice_id: 'nova' })).statusCode).toBe(200);
    await sendVoice(302);
    await telegram.waitFor(() => sent('sendVoice', 302).length === 1);
    expect(sent('sendMessage', 302)[0]!.params.text).toBe('Respuesta: ¿A qué hora abrís el sábado?');
    const speech = servers.speeches.at(-1)!;
    expect(speech).toMatchObject({
      model: 'tts-1',
      voice: 'nova',
      input: 'Respuesta: ¿A qué hora abrís el sábado?',
      response_format: 'opus',
    });
    const note = Object.values(sent('sendVoice', 302)[0]!.files)[0]!.bytes;
    expect(note.length).toBeLessThanOrEqual(512 * 1024);
    expect(note.subarray(0, 4).toString()).toBe('OggS');
    expect(decodeOgg(note)).toMatch(/Audio: opus, 48000 Hz, mono/);
  });

  it('looks up today’s news with the search tool and cites its links in the reply', async () => {
    expect((await save({ enable_audio: false, enable_web_search: true })).statusCode).toBe(200);
    await telegram.sendText(tgToken, { id: 303, username: 'lector' }, '¿Qué noticias hay hoy en Madrid?');
    await telegram.waitFor(() => sent('sendMessage', 303).length === 1);
    expect(sent('sendMessage', 303)[0]!.params.text).toBe(
      'Según Noticias: Qué noticias hay hoy en Madrid: la Gran Vía se cierra. Fuente: https://www.example.org/noticias/madrid-hoy',
    );
    expect(servers.searches.at(-1)).toMatchObject({
      q: 'Qué noticias hay hoy en Madrid',
      format: 'json',
      language: 'es',
    });
    const withTools = llm.requests.filter((r) => r.tools?.some((t) => t.function.name === 'web_search'));
    expect(withTools.length).toBeGreaterThan(0);
    expect(withTools[0]!.messages[0]!.content).toContain('cite each source you used with its full link');
  });

  it('does not offer the search tool when the owner has it off', async () => {
    expect((await save({ enable_web_search: false })).statusCode).toBe(200);
    const before = llm.requests.length;
    await telegram.sendText(tgToken, { id: 304, username: 'lector2' }, '¿Qué noticias hay hoy?');
    await telegram.waitFor(() => sent('sendMessage', 304).length === 1);
    expect(
      llm.requests.slice(before).some((r) => r.tools?.some((t) => t.function.name === 'web_search')),
    ).toBe(false);
    expect(servers.searches.filter((s) => s.q === 'Qué noticias hay hoy')).toHaveLength(0);
  });

  it('degrades to text within the turn when the search, speech or transcription server is slow or failing', async () => {
    expect(
      (await save({ enable_web_search: true, enable_audio: true, selected_voice_id: 'nova' })).statusCode,
    ).toBe(200);
    // A search slower than its 800 ms limit: the model is told, and answers without it.
    servers.search.delayMs = 3000;
    servers.tts.status = 500;
    const started = Date.now();
    await telegram.sendText(tgToken, { id: 305, username: 'lectora' }, '¿Qué noticias hay esta tarde?');
    await telegram.waitFor(() => sent('sendMessage', 305).length === 1);
    expect(Date.now() - started).toBeLessThan(2900);
    expect(sent('sendMessage', 305)[0]!.params.text).toBe('No he podido comprobarlo en la web ahora mismo.');
    // The speech server failed: the reply went as text only.
    await new Promise((r) => setTimeout(r, 300));
    expect(sent('sendVoice', 305)).toHaveLength(0);

    // A transcription server slower than its 1.5 s limit: the follower is asked to write.
    servers.search.delayMs = 0;
    servers.tts.status = 0;
    servers.stt.delayMs = 4000;
    await sendVoice(306);
    await telegram.waitFor(() => sent('sendMessage', 306).length === 1, 8000);
    expect(sent('sendMessage', 306)[0]!.params.text).toBe(
      MEDIA_RECEIVED.es.replace('{media}', 'nota de voz'),
    );
    servers.stt.delayMs = 0;
  });
});
