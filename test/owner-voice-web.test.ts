/**
 * Issue 27 §3, the owner's voice note to a web visitor, over HTTP on PGlite (and PostgreSQL when
 * TEST_DATABASE_URL is set): the recording the owner sends from the inbox is kept in the file
 * storage and reaches the visitor's live stream, pushed messages and thread as an OGG audio attachment whose
 * `/files/…` address answers 200 audio/ogg with the bytes (no bare "🎤"); the inbox shows it too,
 * and the list says 🎤; the owner's data export carries the object under `plugins/conversations/`;
 * deleting the conversation removes it, and so does deleting the account.
 */
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { multipart } from './helpers/multipart.ts';
import { type App, enableWeb, ownerWithBot, withInject } from './helpers/owners.ts';
import { openSseClient } from './helpers/sse-client.ts';

const GREETING = readFileSync(new URL('../assets/demo/saludo-el-pato-pepe.ogg', import.meta.url));

/** The entries of a ZIP by name (central directory; stored or deflated, as yazl writes them). */
function zipEntries(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const out = new Map<string, Buffer>();
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataAt, dataAt + size);
    out.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + skip;
  }
  return out;
}

interface WebMessage {
  text: string;
  from: string;
  name: string | null;
  attachment: { url: string; type: string; mime: string; name: string } | null;
}

describe.each(dialectsOf(import.meta.url))('the owner’s voice note to a web visitor on %s', (kind) => {
  let app: App;
  let owner: Awaited<ReturnType<typeof ownerWithBot>>;
  let key: string;
  const auth = () => ({ authorization: `Bearer ${owner.token}` });
  const ok = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, signed = true) => {
    const res = await app.inject({
      method,
      url,
      ...(signed ? { headers: auth() } : {}),
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown>;
  };
  const sendVoice = async (userId: string, channel = 'web') => {
    const form = await multipart(
      { channel, userId, preset: 'natural' },
      { field: 'audio', name: 'grabacion.ogg', data: GREETING },
    );
    const res = await app.inject({
      method: 'POST',
      url: `/api/conversations/${owner.botId}/voice`,
      headers: { ...auth(), 'content-type': form.contentType },
      payload: form.body,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const storedKeys = async () =>
    (
      await app.store.db
        .selectFrom('conversation_owner_files' as never)
        .select('storage_key' as never)
        .execute()
    ).map((r) => (r as { storage_key: string }).storage_key);

  beforeAll(async () => {
    app = await withInject(await createTestApp(kind, { llm: null }));
    owner = await ownerWithBot(app, 'voz-web@example.com', {
      business_name: 'Café Directo',
      idioma: 'Español',
    });
    key = (await ok('POST', '/api/charla-web/key', { chatbotId: owner.botId })).charla_key as string;
    await enableWeb(app.inject, owner.token, owner.botId);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('reaches the widget as a playable OGG file, in the inbox too, and goes with the conversation', async () => {
    const visitor = 'visitante-voz-1';
    await ok(
      'POST',
      `/api/web/${key}/message`,
      { userMessage: '¿Abrís el domingo?', visitorId: visitor },
      false,
    );
    // The open widget's live stream gets it with its file.
    const address = await (await app.http()).listen({ port: 0, host: '127.0.0.1' });
    const stream = await openSseClient(`${address}/api/web/${key}/pushed/stream?visitorId=${visitor}`);
    await sendVoice(visitor);
    const live = await stream.waitFor('pushed', 5_000);
    stream.close();
    expect(live.data).toMatchObject({ from: 'owner', attachment: { type: 'audio', mime: 'audio/ogg' } });

    const pushed = (await ok('GET', `/api/web/${key}/pushed?visitorId=${visitor}`, undefined, false))
      .messages as WebMessage[];
    const note = pushed.at(-1)!;
    expect(note).toMatchObject({ from: 'owner', name: 'Equipo de Café Directo', text: '' });
    expect(note.attachment).toMatchObject({ type: 'audio', mime: 'audio/ogg', name: 'nota-de-voz.ogg' });
    const file = await app.inject({ method: 'GET', url: new URL(note.attachment!.url, 'http://x').pathname });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('audio/ogg');
    expect(file.rawPayload.subarray(0, 4).toString()).toBe('OggS');

    // A returning visitor's thread has it; the inbox plays it; the list names it 🎤.
    const thread = (await ok('GET', `/api/web/${key}/history?visitorId=${visitor}`, undefined, false))
      .messages as WebMessage[];
    expect(thread.at(-1)?.attachment?.url).toBe(note.attachment!.url);
    const inbox = (await ok(
      'GET',
      `/api/conversations/${owner.botId}/messages?channel=web&userId=${visitor}`,
    )) as { messages: WebMessage[] };
    expect(inbox.messages.at(-1)).toMatchObject({ from: 'owner', attachment: { type: 'audio' } });
    const list = (await ok('GET', `/api/conversations/${owner.botId}`)) as {
      followers: Array<{ userId: string; lastText: string }>;
    };
    expect(list.followers.find((f) => f.userId === visitor)?.lastText).toBe('🎤');

    // Deleting the conversation removes the stored note.
    expect(await storedKeys()).toHaveLength(1);
    await ok('DELETE', `/api/conversations/${owner.botId}/messages?channel=web&userId=${visitor}`);
    expect(await storedKeys()).toEqual([]);
    const gone = await app.inject({ method: 'GET', url: new URL(note.attachment!.url, 'http://x').pathname });
    expect(gone.statusCode).toBe(404);
  });

  it('sends an IALanding visitor the note the same way', async () => {
    const visitor = 'visitante-landing-1';
    await ok(
      'POST',
      `/api/web/${key}/message`,
      { userMessage: 'Hola desde la landing', visitorId: visitor, channel: 'ialanding' },
      false,
    );
    await sendVoice(visitor, 'ialanding');
    const pushed = (await ok('GET', `/api/web/${key}/pushed?visitorId=${visitor}`, undefined, false))
      .messages as WebMessage[];
    expect(pushed.at(-1)?.attachment).toMatchObject({ type: 'audio', mime: 'audio/ogg' });
  });

  it('puts the notes in the owner’s export and removes them with the account', async () => {
    const keys = await storedKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]!.startsWith(`${owner.id}/`)).toBe(true);
    const res = await app.inject({ method: 'GET', url: '/api/account/export', headers: auth() });
    expect(res.statusCode, res.body).toBe(200);
    const entries = zipEntries(res.rawPayload);
    const notes = [...entries.keys()].filter((k) => k.startsWith('plugins/conversations/'));
    expect(notes).toEqual([expect.stringMatching(/nota-de-voz\.ogg$/)]);
    expect(entries.get(notes[0]!)!.subarray(0, 4).toString()).toBe('OggS');

    expect(await app.storage.exists(keys[0]!)).toBe(true);
    const deleted = await app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: auth(),
      payload: { password: 'contraseña-segura' },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await app.storage.exists(keys[0]!)).toBe(false);
  });
});
