/**
 * Issue 10 ("what a new owner hits in the first hour") on the HTTP API, on every test dialect:
 * expected states answer 200 instead of an HTTP error (`GET /api/me` signed out gives `{owner:
 * null}`, `GET /api/my-chatbot` without a bot gives `{bot: null}`) and the OpenAPI document says so;
 * a file whose content does not match its extension is refused with "factura.jpg no es un JPG
 * válido"; a multi-word keyword is split into keywords, never glued; a bot created by the web
 * channel screen speaks the interface language; the widget loading on another site is recorded for
 * /main's first steps; and the live file stream is ended by the server when the page asks, so the
 * page never aborts it. Real Fastify (`app.inject`, and a real listening server for the stream).
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_MESSAGES } from '../engine/files.ts';
import { OwnerChatbot, OwnerMe } from '../engine/http/views.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { multipart } from './helpers/multipart.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
/** A text file: the kind of thing that gets renamed to .jpg. */
const TEXT = Buffer.from('Factura 2026-001\nTotal: 42,00 EUR\n'.repeat(20));
const EXE = Buffer.concat([
  Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00', 'latin1'),
  Buffer.alloc(2048, 1),
]);

describe.each(dialectsOf(import.meta.url))('first-hour API answers on %s', (kind) => {
  let app: TestApp;
  let http: FastifyInstance;
  let owner: { id: string; token: string };
  const auth = (token = owner.token) => ({ authorization: `Bearer ${token}` });
  const myBot = async (token = owner.token) => {
    const res = await http.inject({ method: 'GET', url: '/api/my-chatbot', headers: auth(token) });
    expect(res.statusCode).toBe(200);
    return (res.json() as { bot: OwnerChatbot | null }).bot;
  };
  const upload = async (
    chatbotId: string,
    name: string,
    data: Buffer,
    fields: Record<string, string> = {},
  ) => {
    const form = await multipart({ chatbotId, ...fields }, { field: 'file', name, data });
    return http.inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { ...auth(), 'content-type': form.contentType },
      payload: form.body,
    });
  };
  const saveBot = async (token = owner.token) => {
    const res = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth(token),
      payload: { business_name: 'Tazas Lola', business_description: 'Tienda de tazas pintadas a mano.' },
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { id: string }).id;
  };

  beforeAll(async () => {
    app = await createTestApp(kind);
    http = await app.http();
    owner = await app.owner('lola@example.com');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('GET /api/me answers 200 {owner: null} without a session and {owner} with one', async () => {
    const anonymous = await http.inject({ method: 'GET', url: '/api/me' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ owner: null });
    const forged = await http.inject({ method: 'GET', url: '/api/me', headers: auth('no-such-session') });
    expect(forged.statusCode).toBe(200);
    expect(forged.json()).toEqual({ owner: null });

    const me = await http.inject({ method: 'GET', url: '/api/me', headers: auth() });
    expect(me.statusCode).toBe(200);
    const body = me.json() as { owner: OwnerMe };
    expect(OwnerMe.parse(body.owner)).toMatchObject({ id: owner.id, email: 'lola@example.com' });
  });

  it('GET /api/my-chatbot answers 200 {bot: null} for an owner without a bot, {bot} once saved, 401 signed out', async () => {
    const fresh = await app.owner('sin-bot@example.com');
    expect(await myBot(fresh.token)).toBeNull();
    const id = await saveBot(fresh.token);
    const bot = OwnerChatbot.parse(await myBot(fresh.token));
    expect(bot).toMatchObject({ id, business_name: 'Tazas Lola', widget_origin: null, widget_seen_at: null });
    // No secret leaves the server.
    expect(Object.keys(bot)).not.toContain('telegram_token');
    expect((await http.inject({ method: 'GET', url: '/api/my-chatbot' })).statusCode).toBe(401);
  });

  it('documents both answers in the OpenAPI document', async () => {
    const doc = (await http.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const schemaOf = (path: string) =>
      (
        doc.paths[path]!.get!.responses['200'] as {
          content: { 'application/json': { schema: Record<string, unknown> } };
        }
      ).content['application/json'].schema;
    const me = JSON.stringify(schemaOf('/api/me'));
    expect(me).toContain('"owner"');
    expect(me).toContain('daysRemaining');
    expect(me).toMatch(/"null"|"nullable":true|anyOf/);
    expect(Object.keys(doc.paths['/api/me']!.get!.responses)).toEqual(['200']);
    const bot = JSON.stringify(schemaOf('/api/my-chatbot'));
    expect(bot).toContain('"bot"');
    expect(bot).toContain('widget_origin');
    expect(Object.keys(doc.paths['/api/my-chatbot']!.get!.responses)).not.toContain('404');
  });

  it('refuses a file whose content is not its extension with "… no es un JPG válido", and stores nothing', async () => {
    const botId = await saveBot();
    const before = await app.store.db.selectFrom('chatbot_files').select('id').execute();
    const fake = await upload(botId, 'factura.jpg', TEXT);
    expect(fake.statusCode).toBe(415);
    expect(fake.json().error).toBe(
      'El archivo factura.jpg no es un JPG válido. Comprueba que no esté dañado o expórtalo de nuevo.',
    );
    expect(fake.json().error).not.toContain('no está permitido');
    const exe = await upload(botId, 'factura.JPEG', EXE);
    expect(exe.json().error).toBe(FILE_MESSAGES.notValid('factura.JPEG', 'jpeg'));
    expect(exe.json().error).toContain('no es un JPEG válido');
    // A name whose extension is not allowed still lists the formats allowed.
    const program = await upload(botId, 'virus.exe', EXE);
    expect(program.statusCode).toBe(415);
    expect(program.json().error).toBe(FILE_MESSAGES.badFormat('virus.exe'));
    expect(await app.store.db.selectFrom('chatbot_files').select('id').execute()).toHaveLength(before.length);
    // A real PDF named .jpg is kept, as what it is (README decisions).
    const renamed = await upload(botId, 'factura.jpg', PDF);
    expect(renamed.statusCode).toBe(201);
    expect(renamed.json()).toMatchObject({ file_name: 'factura.pdf', file_type: 'pdf' });
  });

  it('splits a multi-word keyword into keywords on upload and on edit, never glues it', async () => {
    const botId = (await myBot())!.id;
    const up = await upload(botId, 'taza.pdf', PDF, { keyword: 'taza grande', context: 'La taza grande.' });
    expect(up.statusCode).toBe(201);
    expect(up.json().keyword).toBe('taza,grande');
    const edit = await http.inject({
      method: 'PATCH',
      url: `/api/chatbot-files/${up.json().id}`,
      headers: auth(),
      payload: { keyword: ' "Taza grande", taza  pequeña ', context: 'Tazas.' },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().keyword).toBe('taza,grande,pequeña');
    expect(edit.json().keyword).not.toContain('tazagrande');
    // Writing one of the words in the test chat gets the file.
    const turn = await http.inject({
      method: 'POST',
      url: `/api/chatbot-message/${botId}`,
      headers: auth(),
      payload: { userMessage: 'pequeña', channel: 'test' },
    });
    expect(turn.json().attachment).toMatchObject({ name: 'taza.pdf' });
  });

  it('creates the web channel’s bot in the interface language and gives the plan', async () => {
    const fr = await app.owner('marie@example.com');
    const res = await http.inject({
      method: 'GET',
      url: '/api/charla-web',
      headers: { ...auth(fr.token), 'x-app-language': 'fr' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ plan: 'free', paid: true, daysRemaining: 30 });
    expect((await myBot(fr.token))!.idioma).toBe('Français');
    // Without the header (an API client), the spec's default.
    const other = await app.owner('api@example.com');
    await http.inject({ method: 'GET', url: '/api/charla-web', headers: auth(other.token) });
    expect((await myBot(other.token))!.idioma).toBe('English');
  });

  it('records the site where the widget loads (another origin), not Charla’s own pages', async () => {
    await http.inject({ method: 'GET', url: '/api/charla-web', headers: auth() });
    const { charla_key: key } = (await myBot())!;
    const config = (headers: Record<string, string>) =>
      http.inject({ method: 'GET', url: `/api/web/${key}/config`, headers });
    expect((await config({})).statusCode).toBe(200);
    expect((await config({ host: 'charla.example', origin: 'https://charla.example' })).statusCode).toBe(200);
    expect((await config({ origin: 'null' })).statusCode).toBe(200);
    expect((await myBot())!.widget_origin).toBeNull();
    expect((await config({ host: 'charla.example', origin: 'https://tazas-lola.example' })).statusCode).toBe(
      200,
    );
    const seen = (await myBot())!;
    expect(seen.widget_origin).toBe('https://tazas-lola.example');
    expect(Number.isNaN(Date.parse(seen.widget_seen_at!))).toBe(false);
  });
});

describe('the live file stream closes quietly (issue 10)', () => {
  let app: TestApp;
  let base: string;

  beforeAll(async () => {
    app = await createTestApp('pglite');
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('ends the stream normally when its page asks, and only for its owner', async () => {
    const owner = await app.owner('stream@example.com');
    const stranger = await app.owner('stranger@example.com');
    const headers = (token: string) => ({
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    });
    const saved = await fetch(`${base}/api/save-chatbot`, {
      method: 'POST',
      headers: headers(owner.token),
      body: JSON.stringify({ business_name: 'Stream', business_description: 'Prueba.' }),
    });
    const { id } = (await saved.json()) as { id: string };
    const res = await fetch(`${base}/api/chatbot-files/events?chatbotId=${id}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('\n\n')) text += decoder.decode((await reader.read()).value, { stream: true });
    const ready = /^event: ready\ndata: (.*)$/m.exec(text);
    const { stream } = JSON.parse(ready![1]!) as { stream: string };
    expect(stream).toMatch(/^[0-9a-f-]{36}$/);

    // Another owner cannot end it; the owner can. Both answer 204 (ids are not confirmed).
    const close = (token: string) =>
      fetch(`${base}/api/chatbot-files/events/close`, {
        method: 'POST',
        headers: headers(token),
        body: JSON.stringify({ stream }),
      });
    expect((await close(stranger.token)).status).toBe(204);
    // Still open after the stranger's request (NOTIFYs arrive in order): a change still comes through.
    const form = await multipart(
      { chatbotId: id, keyword: 'carta', context: 'La carta.' },
      { field: 'file', name: 'carta.pdf', data: PDF },
    );
    const up = await fetch(`${base}/api/chatbot-files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': form.contentType },
      body: form.body,
    });
    expect(up.status).toBe(201);
    while (!text.includes('event: change')) {
      const chunk = await reader.read();
      expect(chunk.done).toBe(false);
      text += decoder.decode(chunk.value, { stream: true });
    }
    expect((await close(owner.token)).status).toBe(204);
    // The server ends the response: the read finishes with `done`, no error, no abort.
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
    // The stranger's request ended nothing of its own either: signed out, it is refused.
    expect(
      (
        await fetch(`${base}/api/chatbot-files/events/close`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ stream }),
        })
      ).status,
    ).toBe(401);
  });
});
