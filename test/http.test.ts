/**
 * The HTTP API on every test dialect: configuration, files with the spec's limits, owner scoping,
 * turns with keyword files, idempotency and the LLM's failure path. Real Fastify through
 * `app.inject`, a real database, a real local OpenAI-format server.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ChatMessageReply } from '../adapters/web/contract.ts';
import { DEMO_FILES } from '../cli/seed.ts';
import { FILE_MESSAGES } from '../engine/files.ts';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { multipart } from './helpers/multipart.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';

const asset = (name: string) => readFileSync(new URL(`../assets/demo/${name}`, import.meta.url));
const PDF = asset('carta-el-pato-pepe.pdf');
const JPG = asset('local-el-pato-pepe.jpg');
const OGG = asset('saludo-el-pato-pepe.ogg');

/** Every file under a folder (to prove a rejected upload left nothing on disk). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true })
      .map((f) => join(dir, String(f)))
      .filter((f) => statSync(f).isFile());
  } catch {
    return [];
  }
}

describe.each(dialectsOf(import.meta.url))('HTTP API on %s', (kind) => {
  let app: TestApp;
  let http: FastifyInstance;
  let llm: FakeOpenAi;
  let llmFails = false;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  let botId: string;
  const auth = () => ({ authorization: `Bearer ${owner.token}` });
  const storageRoot = () => join(app.dataDir, 'storage', 'chatbot-files');

  const upload = async (
    file: { name: string; data: Buffer },
    fields: Record<string, string>,
    token = owner.token,
  ) => {
    const { body, contentType } = await multipart(fields, { field: 'file', ...file });
    return http.inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload: body,
    });
  };
  /** A turn in the owner's test chat (the bot-id route's `test` channel needs the owner, issue 24 §2). */
  const send = (payload: Record<string, unknown>, query = '') =>
    http.inject({
      method: 'POST',
      url: `/api/chatbot-message/${botId}${query}`,
      headers: auth(),
      payload: { channel: 'test', ...payload },
    });

  beforeAll(async () => {
    llm = await startFakeOpenAi({
      reply: (r) =>
        llmFails ? { status: 500, text: 'boom' } : { text: `Respuesta a: ${r.messages.at(-1)?.content}` },
    });
    app = await createTestApp(kind, { llm: fakeLlm(llm.baseURL) });
    http = await app.http();
    owner = await app.owner('ana@example.com');
    other = await app.owner('otro@example.com');
  });
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it('refuses a bot without name or description with the spec’s text, and saves one with the spec defaults', async () => {
    const missing = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth(),
      payload: { business_name: 'El Pato Pepe', business_description: '   ' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      error: 'Indica el nombre de la empresa y la descripción del bot.',
      title: 'Faltan datos',
    });

    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth(),
      payload: {
        business_name: 'El Pato Pepe',
        business_description: 'Restaurante de arroces en Madrid.',
        chatbot_style: 'divertido',
        idioma: 'Español',
      },
    });
    expect(saved.statusCode).toBe(200);
    botId = saved.json().id;
    const config = await http.inject({ method: 'GET', url: `/api/chatbot-config/${botId}` });
    expect(config.json()).toMatchObject({
      id: botId,
      business_name: 'El Pato Pepe',
      idioma: 'Español',
      category: 'Servicios Profesionales',
      greeting: '¡Hola! Soy el asistente de El Pato Pepe. ¿En qué puedo ayudarte?',
    });
    const row = await app.store.db
      .selectFrom('chatbots')
      .selectAll()
      .where('id', '=', botId)
      .executeTakeFirstOrThrow();
    expect(row.is_public).toBe(true);
  });

  it('needs an owner token for owner routes and answers 404 for another owner’s bot', async () => {
    const anonymous = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      payload: { business_name: 'x', business_description: 'y' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toBe('Debes iniciar sesión.');
    const forged = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token.slice(0, -2)}xx` },
      payload: { business_name: 'x', business_description: 'y' },
    });
    expect(forged.statusCode).toBe(401);
    const stolen = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${other.token}` },
      payload: { id: botId, business_name: 'Robado', business_description: 'y' },
    });
    expect(stolen.statusCode).toBe(404);
    const upl = await upload({ name: 'carta.pdf', data: PDF }, { chatbotId: botId }, other.token);
    expect(upl.statusCode).toBe(404);
  });

  it('answers 404 with the spec’s text for an unknown bot and 400 for an empty message', async () => {
    const config = await http.inject({ method: 'GET', url: '/api/chatbot-config/no-such-bot' });
    expect(config.statusCode).toBe(404);
    expect(config.json().error).toBe(
      'No existe configuración para tu bot. ¡Configúralo y vuelve a intentarlo!',
    );
    const message = await http.inject({
      method: 'POST',
      url: '/api/chatbot-message/no-such-bot',
      payload: { userMessage: 'hola' },
    });
    expect(message.statusCode).toBe(404);
    const empty = await send({ userMessage: '   ' });
    expect(empty.statusCode).toBe(400);
    const missing = await send({});
    expect(missing.statusCode).toBe(400);
  });

  it('stores uploads with sniffed types, normalised names and keywords, and serves them with nosniff', async () => {
    const res = await upload(
      { name: 'Menú del día.pdf', data: PDF },
      { chatbotId: botId, keyword: ' "Menu", Carta ,precios', context: 'La carta con precios.' },
    );
    expect(res.statusCode).toBe(201);
    const file = res.json();
    expect(file).toMatchObject({
      file_type: 'pdf',
      file_name: 'Menu_del_dia.pdf',
      keyword: 'menu,carta,precios',
      mime_type: 'application/pdf',
    });
    expect(file.file_url).toMatch(new RegExp(`^${owner.id}/\\d+_Menu_del_dia\\.pdf$`));
    const served = await http.inject({ method: 'GET', url: file.publicUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PDF)).toBe(true);

    // A JPEG named .png is stored as what it is.
    const photo = await upload(
      { name: 'fachada.png', data: JPG },
      { chatbotId: botId, keyword: 'foto,local', context: 'Foto del local.' },
    );
    expect(photo.json()).toMatchObject({
      file_type: 'image',
      file_name: 'fachada.jpg',
      mime_type: 'image/jpeg',
    });
    const audio = await upload(
      { name: 'saludo.ogg', data: OGG },
      { chatbotId: botId, keyword: 'audio,saludo', context: 'Audio de bienvenida.' },
    );
    expect(audio.json()).toMatchObject({ file_type: 'audio' });
  });

  it('rejects an oversized file and a disallowed format with the spec’s text and stores nothing', async () => {
    // This file's own temporary folder: other test files upload at the same time.
    const ownTmp = mkdtempSync(join(tmpdir(), 'charla-http-test-'));
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = ownTmp;
    onTestFinished(() => {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
    });
    const before = filesUnder(storageRoot());
    const rowsBefore = await app.store.db.selectFrom('chatbot_files').select('id').execute();
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]);
    const tooBig = await upload({ name: 'enorme.pdf', data: big }, { chatbotId: botId });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error).toBe('El archivo enorme.pdf es demasiado grande. Máximo 10MB por archivo.');
    // A Windows executable renamed to .pdf: the bytes say MZ, not %PDF.
    const exe = Buffer.concat([
      Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'),
      Buffer.alloc(2048, 1),
    ]);
    const fake = await upload({ name: 'carta.pdf', data: exe }, { chatbotId: botId });
    expect(fake.statusCode).toBe(415);
    expect(fake.json().error).toBe(FILE_MESSAGES.notValid('carta.pdf', 'pdf'));
    expect(filesUnder(storageRoot())).toEqual(before);
    expect(await app.store.db.selectFrom('chatbot_files').select('id').execute()).toHaveLength(
      rowsBefore.length,
    );
    // Uploads are spooled to a temporary file as they arrive (issue 26 §1), gone once answered.
    // (The 413 and 415 above were spooled there.)
    expect(readdirSync(ownTmp)).toEqual([]);
  });

  it('sends the PDF for "menu" and for "¿Tenéis la CARTA?", and no file for an unrelated message', async () => {
    const menu = await send({ userMessage: 'menu', visitorId: 'v-menu' });
    expect(menu.statusCode).toBe(200);
    expect(menu.json().attachment).toMatchObject({ type: 'pdf', name: 'Menu_del_dia.pdf' });
    expect(menu.json().contenedorEmpatico).toEqual({
      archivos: { action: 'SEND', lista: [expect.objectContaining({ file_type: 'pdf' })] },
    });
    expect(menu.json().reply).toBe('Respuesta a: menu');
    // The reply matches the documented response schema.
    expect(ChatMessageReply.safeParse(menu.json()).success).toBe(true);

    const carta = await send({ userMessage: '¿Tenéis la CARTA?', visitorId: 'v-carta' });
    expect(carta.json().attachment).toMatchObject({ type: 'pdf' });

    const unrelated = await send({ userMessage: '¿Aceptáis perros en la terraza?', visitorId: 'v-other' });
    expect(unrelated.json().attachment).toBeNull();
    expect(unrelated.json().contenedorEmpatico.archivos).toEqual({ action: 'NONE', lista: [] });
  });

  it('offers a LIST when two files match and sends the second on "2"', async () => {
    const first = await send({ userMessage: 'quiero ver la foto y la carta', visitorId: 'v-list' });
    const { archivos } = first.json().contenedorEmpatico;
    expect(archivos.action).toBe('LIST');
    expect(archivos.lista).toHaveLength(2);
    expect(first.json().reply).toContain(`2. ${archivos.lista[1].file_name}`);
    // The follower is identified: the server remembers the offer.
    const pick = await send({ userMessage: '2', visitorId: 'v-list' });
    expect(pick.json().attachment.fileId).toBe(archivos.lista[1].id);
    // An anonymous client sends the offered list back itself (spec 001 §7).
    const anon = await send({ userMessage: '1', archivosMostrados: archivos.lista });
    expect(anon.json().attachment.fileId).toBe(archivos.lista[0].id);
  });

  it('does not send a file twice in a conversation unless asked for by name', async () => {
    const first = await send({ userMessage: '¿me pasas la carta?', visitorId: 'v-twice' });
    expect(first.json().attachment?.type).toBe('pdf');
    const again = await send({ userMessage: '¿me pasas la carta?', visitorId: 'v-twice' });
    expect(again.json().attachment).toBeNull();
    const byName = await send({ userMessage: 'carta', visitorId: 'v-twice' });
    expect(byName.json().attachment?.type).toBe('pdf');
  });

  it('returns the whole empathy container with ?debug=1', async () => {
    const res = await send(
      { userMessage: 'ESTO NO FUNCIONA, estoy harto!!', visitorId: 'v-debug' },
      '?debug=1',
    );
    expect(ChatMessageReply.safeParse(res.json()).success).toBe(true);
    const c = res.json().contenedorEmpatico;
    expect(Object.keys(c).sort()).toEqual([
      'analisisInterno',
      'archivos',
      'estadoEmpatico',
      'historialReciente',
    ]);
    expect(c.estadoEmpatico.estado).toBe('frustrado');
    expect(c.analisisInterno.textoAnalizado).toBe('ESTO NO FUNCIONA, estoy harto!!');
    expect(c.analisisInterno.archivosDisponibles).toHaveLength(3);
    expect(c.analisisInterno.reloj.zonaHoraria).toBe('Europe/Madrid');
  });

  it('answers a retried message id from the store: one LLM call, one stored pair', async () => {
    const calls = llm.requests.length;
    const payload = { userMessage: '¿Abrís el lunes?', visitorId: 'v-idem', messageId: 'msg-42' };
    const [a, b] = await Promise.all([send(payload), send(payload)]);
    const c = await send(payload);
    expect(llm.requests.length).toBe(calls + 1);
    expect(a.json().reply).toBe(b.json().reply);
    expect(c.json()).toMatchObject({ reply: a.json().reply, duplicate: true });
    const rows = await app.store.db
      .selectFrom('conversation_messages')
      .selectAll()
      .where('user_id', '=', 'v-idem')
      .execute();
    expect(rows.map((r) => r.sender).sort()).toEqual(['bot', 'user']);
  });

  it('gives the follower the spec’s failure text when the LLM fails, and still stores both messages', async () => {
    llmFails = true;
    try {
      const res = await send({ userMessage: '¿Tenéis terraza?', visitorId: 'v-fail' });
      expect(res.statusCode).toBe(200);
      // The bot's language is Español.
      expect(res.json().reply).toBe(
        'No pudimos responder en este momento. Por favor, intenta de nuevo más tarde.',
      );
    } finally {
      llmFails = false;
    }
    const rows = await app.store.db
      .selectFrom('conversation_messages')
      .selectAll()
      .where('user_id', '=', 'v-fail')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.sender, r.text])).toEqual([
      ['user', '¿Tenéis terraza?'],
      ['bot', 'No pudimos responder en este momento. Por favor, intenta de nuevo más tarde.'],
    ]);
    const follower = await app.store.db
      .selectFrom('followers')
      .selectAll()
      .where('external_id', '=', 'v-fail')
      .executeTakeFirst();
    expect(follower).toMatchObject({ channel: 'test' });
  });

  it('edits keywords (normalised, both required) and deletes a file with its bytes', async () => {
    const list = await http.inject({ method: 'GET', url: `/api/chatbot-files?chatbotId=${botId}` });
    const audio = list.json().find((f: { file_type: string }) => f.file_type === 'audio');
    const empty = await http.inject({
      method: 'PATCH',
      url: `/api/chatbot-files/${audio.id}`,
      headers: auth(),
      payload: { keyword: 'x', context: ' ' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('Campo requerido');
    const edited = await http.inject({
      method: 'PATCH',
      url: `/api/chatbot-files/${audio.id}`,
      headers: auth(),
      payload: { keyword: '“Hola”, bienvenida', context: 'Saludo' },
    });
    expect(edited.json().keyword).toBe('hola,bienvenida');
    const notMine = await http.inject({
      method: 'DELETE',
      url: `/api/chatbot-files/${audio.id}`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(notMine.statusCode).toBe(404);
    const path = join(storageRoot(), audio.file_url);
    expect(statSync(path).isFile()).toBe(true);
    const del = await http.inject({
      method: 'DELETE',
      url: `/api/chatbot-files/${audio.id}`,
      headers: auth(),
    });
    expect(del.statusCode).toBe(204);
    expect(() => statSync(path)).toThrow();
  });

  it('rejects the 11th file with the spec’s text', async () => {
    const current = (
      await http.inject({ method: 'GET', url: `/api/chatbot-files?chatbotId=${botId}` })
    ).json().length;
    for (let i = current; i < 10; i++) {
      const res = await upload(
        { name: `extra-${i}.jpg`, data: JPG },
        { chatbotId: botId, keyword: `extra${i}`, context: 'x' },
      );
      expect(res.statusCode).toBe(201);
    }
    const eleventh = await upload(
      { name: 'once.jpg', data: JPG },
      { chatbotId: botId, keyword: 'once', context: 'x' },
    );
    expect(eleventh.statusCode).toBe(422);
    expect(eleventh.json().error).toBe(
      'Solo puedes tener un máximo de 10 archivos. Elimina alguno para poder subir uno nuevo.',
    );
    const count = (await http.inject({ method: 'GET', url: `/api/chatbot-files?chatbotId=${botId}` })).json()
      .length;
    expect(count).toBe(10);
  });

  it('lists a private bot’s files only to its owner', async () => {
    const hide = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth(),
      payload: {
        id: botId,
        business_name: 'El Pato Pepe',
        business_description: 'Restaurante de arroces en Madrid.',
        is_public: false,
      },
    });
    expect(hide.statusCode).toBe(200);
    try {
      expect(
        (await http.inject({ method: 'GET', url: `/api/chatbot-files?chatbotId=${botId}` })).statusCode,
      ).toBe(404);
      const asOther = await http.inject({
        method: 'GET',
        url: `/api/chatbot-files?chatbotId=${botId}`,
        headers: { authorization: `Bearer ${other.token}` },
      });
      expect(asOther.statusCode).toBe(404);
      const asOwner = await http.inject({
        method: 'GET',
        url: `/api/chatbot-files?chatbotId=${botId}`,
        headers: auth(),
      });
      expect(asOwner.statusCode).toBe(200);
      // Issue 24 §2: a private bot answers by id only its owner; a stranger learns nothing of it.
      expect((await send({ userMessage: 'hola' })).statusCode).toBe(200);
      const stranger = await http.inject({
        method: 'POST',
        url: `/api/chatbot-message/${botId}`,
        payload: { userMessage: 'hola', channel: 'web', visitorId: 'extraño' },
      });
      expect(stranger.statusCode).toBe(404);
    } finally {
      await http.inject({
        method: 'POST',
        url: '/api/save-chatbot',
        headers: auth(),
        payload: {
          id: botId,
          business_name: 'El Pato Pepe',
          business_description: 'Restaurante de arroces en Madrid.',
          is_public: true,
        },
      });
    }
  });

  it('serves the OpenAPI document and a health check', async () => {
    const docs = await http.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toEqual(
      expect.arrayContaining(['/api/chatbot-message/{id}', '/api/chatbot-config/{id}', '/api/save-chatbot']),
    );
    const health = await http.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toMatchObject({ status: 'ok', db: 'ok', store: kind });
  });

  it('ships demo files that pass the server’s own checks', () => {
    expect(DEMO_FILES.map((f) => f.keyword)).toEqual(['menu,carta,precios', 'foto,local', 'audio,saludo']);
  });
});
