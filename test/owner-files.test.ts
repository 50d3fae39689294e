/**
 * Issue 27 §3, the owner's files to a follower, over HTTP on PGlite (and PostgreSQL when
 * TEST_DATABASE_URL is set), with the Bot API emulator: one of the bot's stored files and a PDF the
 * owner uploads in the inbox reach a web visitor's open widget (live stream, pushed messages, the
 * returning visitor's thread), their `/files/…` addresses answer 200 with the right type, and the
 * bot pauses; a Telegram follower gets them natively (sendDocument, sendPhoto with the bytes); an
 * oversized or wrong-type upload is refused with a 4xx in the dashboard's language; the owner's
 * export carries the uploaded object and the account deletion removes it. The owner's voice note
 * from their linked Telegram chat, answering a forwarded message, reaches the web visitor.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { multipart } from './helpers/multipart.ts';
import { type App, enableWeb, setDays, withInject } from './helpers/owners.ts';
import { openSseClient } from './helpers/sse-client.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const MENU = readFileSync(new URL('../assets/demo/carta-el-pato-pepe.pdf', import.meta.url));
const PHOTO = readFileSync(new URL('../assets/demo/local-el-pato-pepe.jpg', import.meta.url));
const GREETING = readFileSync(new URL('../assets/demo/saludo-el-pato-pepe.ogg', import.meta.url));

interface WebMessage {
  text: string;
  from: string;
  attachment: { url: string; type: string; mime: string; name: string } | null;
}

describe.each(dialectsOf(import.meta.url))('the owner’s files to a follower on %s', (kind) => {
  let app: App;
  let telegram: FakeTelegram;
  let owner: { id: string; token: string };
  let botId: string;
  let key: string;
  let tgToken: string;
  let storedPhotoId: string;
  const auth = () => ({ authorization: `Bearer ${owner.token}` });
  const ok = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, signed = true) => {
    const res = await app.inject({
      method,
      url,
      ...(signed ? { headers: auth() } : {}),
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json() as Record<string, unknown>;
  };
  /** POSTs the inbox's file form; `file` an upload, else `fileKey` in `fields`. */
  const sendFile = async (
    fields: Record<string, string>,
    file?: { name: string; data: Uint8Array },
    lang = 'es',
  ) => {
    const form = file
      ? await multipart(fields, { field: 'file', ...file })
      : await (async () => {
          const f = new FormData();
          for (const [k, v] of Object.entries(fields)) f.append(k, v);
          const r = new Response(f);
          return { body: Buffer.from(await r.arrayBuffer()), contentType: r.headers.get('content-type')! };
        })();
    return app.inject({
      method: 'POST',
      url: `/api/conversations/${botId}/file`,
      headers: { ...auth(), 'content-type': form.contentType, 'x-app-language': lang },
      payload: form.body,
    });
  };
  const storedKeys = async () =>
    (
      await app.store.db
        .selectFrom('conversation_owner_files' as never)
        .select('storage_key' as never)
        .execute()
    ).map((r) => (r as { storage_key: string }).storage_key);
  const fileAt = (url: string) => app.inject({ method: 'GET', url: new URL(url, 'http://x').pathname });

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    app = await withInject(
      await createTestApp(kind, {
        llm: null,
        env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling' },
      }),
    );
    await app.startChannels();
    owner = await app.owner('archivos-dueno@example.com');
    await setDays(app, owner.id, 30);
    botId = (
      await ok('POST', '/api/save-chatbot', {
        business_name: 'Casa Lola',
        business_description: 'Restaurante en Valencia. Arroces y tapas, de martes a domingo.',
        idioma: 'Español',
      })
    ).id as string;
    key = (await ok('POST', '/api/charla-web/key', { chatbotId: botId })).charla_key as string;
    await enableWeb(app.inject, owner.token, botId);
    const tg = telegram.addBot('CasaLolaBot');
    tgToken = tg.token;
    await ok('POST', '/api/verify-telegram', {
      telegramToken: tg.token,
      telegramUsername: tg.username,
      chatbotId: botId,
    });
    // One of the bot's stored files (the picker's list).
    const upload = await multipart(
      { chatbotId: botId, keyword: 'local' },
      { field: 'file', name: 'local.jpg', data: PHOTO },
    );
    const stored = await app.inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { ...auth(), 'content-type': upload.contentType },
      payload: upload.body,
    });
    expect(stored.statusCode, stored.body).toBe(201);
    storedPhotoId = (stored.json() as { id: string }).id;
  });
  afterAll(async () => {
    await app?.close();
    await telegram?.close();
  });

  it('shows a stored file and an uploaded PDF in the web visitor’s widget and pauses the bot', async () => {
    const visitor = 'visitante-archivos-1';
    await ok('POST', `/api/web/${key}/message`, { userMessage: '¿Tenéis carta?', visitorId: visitor }, false);
    const address = await (await app.http()).listen({ port: 0, host: '127.0.0.1' });
    const stream = await openSseClient(`${address}/api/web/${key}/pushed/stream?visitorId=${visitor}`);
    const first = await sendFile({ channel: 'web', userId: visitor, fileKey: storedPhotoId });
    expect(first.statusCode, first.body).toBe(200);
    const live = await stream.waitFor('pushed', 5_000);
    stream.close();
    expect(live.data).toMatchObject({ from: 'owner', attachment: { type: 'image', mime: 'image/jpeg' } });

    const second = await sendFile(
      { channel: 'web', userId: visitor, text: 'Aquí tienes la carta.' },
      { name: 'Carta de otoño.pdf', data: MENU },
    );
    expect(second.statusCode, second.body).toBe(200);
    expect((second.json() as { pausedUntil: string }).pausedUntil).toBeTruthy();

    const pushed = (await ok('GET', `/api/web/${key}/pushed?visitorId=${visitor}`, undefined, false))
      .messages as WebMessage[];
    const [photo, menu] = pushed.slice(-2);
    expect(photo).toMatchObject({ from: 'owner', attachment: { type: 'image', name: 'local.jpg' } });
    expect(menu).toMatchObject({
      from: 'owner',
      text: 'Aquí tienes la carta.',
      attachment: { type: 'pdf', mime: 'application/pdf', name: 'Carta_de_otono.pdf' },
    });
    const pdf = await fileAt(menu!.attachment!.url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.equals(MENU)).toBe(true);
    const jpg = await fileAt(photo!.attachment!.url);
    expect(jpg.statusCode).toBe(200);
    expect(jpg.headers['content-type']).toBe('image/jpeg');

    // The returning visitor's thread and the inbox have both; the bot is paused for this visitor.
    const thread = (await ok('GET', `/api/web/${key}/history?visitorId=${visitor}`, undefined, false))
      .messages as WebMessage[];
    expect(thread.slice(-2).map((m) => m.attachment?.type)).toEqual(['image', 'pdf']);
    const inbox = (await ok('GET', `/api/conversations/${botId}/messages?channel=web&userId=${visitor}`)) as {
      messages: WebMessage[];
      pausedUntil: string | null;
    };
    expect(inbox.messages.slice(-2).map((m) => [m.from, m.attachment?.type])).toEqual([
      ['owner', 'image'],
      ['owner', 'pdf'],
    ]);
    expect(inbox.pausedUntil).not.toBeNull();
    // Only the upload is the owner's stored object; the picked file stays the bot's.
    expect(await storedKeys()).toEqual([
      expect.stringMatching(new RegExp(`^${owner.id}/.*Carta_de_otono\\.pdf$`)),
    ]);
  });

  it('sends a Telegram follower the stored photo and the uploaded PDF natively, with their bytes', async () => {
    await telegram.sendText(tgToken, { id: 4242, first_name: 'Marta' }, 'Hola, ¿me pasáis la carta?');
    await telegram.waitFor((calls) =>
      calls.some((c) => c.method === 'sendMessage' && String(c.params.chat_id) === '4242'),
    );
    expect((await sendFile({ channel: 'telegram', userId: '4242', fileKey: storedPhotoId })).statusCode).toBe(
      200,
    );
    const res = await sendFile({ channel: 'telegram', userId: '4242' }, { name: 'carta.pdf', data: MENU });
    expect(res.statusCode, res.body).toBe(200);
    const to = (method: string) =>
      telegram.callsOf(tgToken, method).filter((c) => String(c.params.chat_id) === '4242');
    expect(to('sendPhoto')).toHaveLength(1);
    const doc = to('sendDocument');
    expect(doc).toHaveLength(1);
    expect(doc[0]!.files.document?.bytes.equals(MENU)).toBe(true);
    expect(doc[0]!.files.document?.filename).toBe('carta.pdf');
  });

  it('refuses an oversized or wrong-type upload in the owner’s language and stores nothing', async () => {
    const before = await storedKeys();
    const big = await sendFile(
      { channel: 'web', userId: 'visitante-archivos-1' },
      { name: 'enorme.pdf', data: Buffer.concat([MENU, Buffer.alloc(10 * 1024 * 1024)]) },
      'en',
    );
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'The file enorme.pdf is too large. 10MB per file at most.' });
    const fake = await sendFile(
      { channel: 'web', userId: 'visitante-archivos-1' },
      { name: 'notas.pdf', data: Buffer.from('esto no es un PDF, solo texto') },
      'fr',
    );
    expect(fake.statusCode).toBe(415);
    expect((fake.json() as { error: string }).error).toMatch(
      /^Le format du fichier notas\.pdf n’est pas autorisé/,
    );
    const none = await sendFile({ channel: 'web', userId: 'visitante-archivos-1' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: 'Elige un archivo del bot o sube uno nuevo (solo uno).' });
    const unknown = await sendFile({ channel: 'web', userId: 'visitante-archivos-1', fileKey: 'no-existe' });
    expect(unknown.statusCode).toBe(404);
    expect(await storedKeys()).toEqual(before);
  });

  it('sends the owner’s voice note from their linked Telegram to the web visitor it answers', async () => {
    const OWNER_CHAT = 7007;
    const link = (await ok('POST', `/api/conversations/${botId}/phone`)) as { url: string };
    const code = /start=(own-[\w-]+)$/.exec(link.url)![1];
    await telegram.sendText(tgToken, { id: OWNER_CHAT, first_name: 'Lola' }, `/start ${code}`);
    const toOwner = () =>
      telegram.callsOf(tgToken, 'sendMessage').filter((c) => String(c.params.chat_id) === String(OWNER_CHAT));
    await telegram.waitFor(() => toOwner().length === 1);
    const visitor = 'visitante-voz-telefono';
    await ok(
      'POST',
      `/api/web/${key}/message`,
      { userMessage: '¿Hacéis paella para llevar?', visitorId: visitor },
      false,
    );
    await telegram.waitFor(() => toOwner().length === 2);
    const forwarded = toOwner().at(-1)!;
    telegram.addFile('owner-voice-1', GREETING, 'audio/ogg');
    await telegram.deliver(tgToken, {
      update_id: telegram.nextUpdateId(),
      message: {
        message_id: 90_001,
        date: Math.floor(Date.now() / 1000),
        chat: { id: OWNER_CHAT, type: 'private', first_name: 'Lola' },
        from: { id: OWNER_CHAT, is_bot: false, first_name: 'Lola' },
        voice: { file_id: 'owner-voice-1', duration: 2, mime_type: 'audio/ogg' },
        reply_to_message: {
          message_id: forwarded.result!.message_id,
          date: 0,
          chat: { id: OWNER_CHAT, type: 'private' },
        },
      },
    });
    const note = await (async () => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const pushed = (await ok('GET', `/api/web/${key}/pushed?visitorId=${visitor}`, undefined, false))
          .messages as WebMessage[];
        const found = pushed.find((m) => m.from === 'owner' && m.attachment);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('the voice note did not arrive');
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    expect(note.attachment).toMatchObject({ type: 'audio', mime: 'audio/ogg', name: 'nota-de-voz.ogg' });
    const file = await fileAt(note.attachment!.url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 4).toString()).toBe('OggS');
    // No "text only" refusal reached the owner.
    expect(toOwner().map((c) => String(c.params.text))).not.toContain(
      'Desde aquí solo puedo enviar a tus seguidores texto y notas de voz.',
    );
  });

  it('puts the uploaded files in the owner’s export and removes them with the account', async () => {
    const keys = await storedKeys();
    expect(keys.length).toBeGreaterThanOrEqual(2);
    const res = await app.inject({ method: 'GET', url: '/api/account/export', headers: auth() });
    expect(res.statusCode, res.body).toBe(200);
    // The ZIP names each object under plugins/conversations/ (central directory names are stored as is).
    const zip = res.rawPayload.toString('latin1');
    expect(zip).toMatch(/plugins\/conversations\/[^\n]*Carta_de_otono\.pdf/);
    expect(zip).toMatch(/plugins\/conversations\/[^\n]*carta\.pdf/);
    for (const k of keys) expect(await app.storage.exists(k)).toBe(true);
    const deleted = await app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: auth(),
      payload: { password: 'contraseña-segura' },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    for (const k of keys) expect(await app.storage.exists(k)).toBe(false);
  });
});
