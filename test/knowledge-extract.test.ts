/**
 * Issue 30 §1–§2 on PGlite and PostgreSQL: a real third-party PDF uploaded through the owner's route
 * is read by the durable job, page by page, into page texts and searchable passages (full-text
 * search with the bot's language); a scanned PDF (no text layer) ends `no_text`; correcting a page
 * re-indexes the file, and so does a change of the bot's language; deleting the file removes its pages and passages; an image is left unread
 * with `image_no_ocr`; an audio file is transcribed by the configured speech-to-text server.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkPages } from '../engine/knowledge/chunk.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { multipart } from './helpers/multipart.ts';
import { ownerWithBot, withInject } from './helpers/owners.ts';
import { type SpeechServers, startSpeechServers } from './servers/speech.ts';

const SPEC = readFileSync(new URL('./fixtures/knowledge/shared-mime-info-spec.pdf', import.meta.url));
const SCANNED = readFileSync(new URL('./fixtures/knowledge/scanned.pdf', import.meta.url));
const PHOTO = readFileSync(new URL('../assets/demo/local-el-pato-pepe.jpg', import.meta.url));
const GREETING = readFileSync(new URL('../assets/demo/saludo-el-pato-pepe.ogg', import.meta.url));
/** A Word document (the minimal parts Word writes: content types, relationships, the body). */
const DOCX = readFileSync(new URL('./fixtures/knowledge/club-rules.docx', import.meta.url));
const MENU_MD =
  '# Pizzas\n\nThe margherita pizza costs nine euros and fifty cents.\n\n# Desserts\n\nThe tiramisu is made in house every morning.\n';
/** A sentence of the spec's page 2. */
const PAGE2 =
  'it was clear that the differences between the databases were simply a result of them being separate';

interface TextBody {
  state: string;
  pagesDone: number;
  pagesTotal: number | null;
  errorCode: string | null;
  editedAt: string | null;
  pages: Array<{ page: number; text: string }>;
}

describe.each(dialectsOf(import.meta.url))('reading the text of files (%s)', (kind) => {
  let app: TestApp;
  let speech: SpeechServers;
  let owner: { id: string; token: string };
  let botId: string;
  let scanned: string;
  const auth = () => ({ authorization: `Bearer ${owner.token}` });

  const upload = async (name: string, data: Uint8Array) => {
    const form = await multipart({ chatbotId: botId }, { field: 'file', name, data });
    const res = await (await app.http()).inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { ...auth(), 'content-type': form.contentType },
      payload: form.body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  };
  const text = async (fileId: string) => {
    const res = await (await app.http()).inject({
      method: 'GET',
      url: `/api/chatbot-files/${fileId}/text`,
      headers: auth(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as TextBody;
  };
  /** Waits until the job has left `pending`/`reading` (the queue polls; no fixed sleep). */
  const settled = async (fileId: string) => {
    await expect
      .poll(async () => (await text(fileId)).state, { timeout: 30_000, interval: 100 })
      .not.toMatch(/pending|reading/);
    return text(fileId);
  };
  const passages = (fileId: string) =>
    app.store.db.selectFrom('chatbot_file_passages').selectAll().where('file_id', '=', fileId).execute();

  beforeAll(async () => {
    speech = await startSpeechServers(GREETING);
    speech.transcript = 'Opening hours are from nine to five, Monday to Friday.';
    app = await createTestApp(kind, { llm: null, env: { CHARLA_STT_BASE_URL: speech.openaiBase } });
    const made = await ownerWithBot(await withInject(app), `knowledge-${kind}@example.com`, {
      business_name: 'Mime Docs',
      idioma: 'English',
      business_description: 'Docs about MIME types.',
    });
    owner = made;
    botId = made.botId;
    // A file stored before reading existed: no reading state; the node's start queues it (backfill).
    const key = `${owner.id}/1_carta-escaneada.pdf`;
    await app.storage.put(key, SCANNED);
    const old = await app.store.db
      .insertInto('chatbot_files')
      .values({
        user_id: owner.id,
        chatbot_id: botId,
        file_name: 'carta-escaneada.pdf',
        file_type: 'pdf',
        file_url: key,
        mime_type: 'application/pdf',
        size_bytes: SCANNED.length,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    scanned = old.id;
    await app.startChannels();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await speech?.close();
  });

  it('reads a real PDF into pages and passages, and a corrected page is re-indexed', async () => {
    const fileId = await upload('mime-spec.pdf', SPEC);
    const read = await settled(fileId);
    expect(read.state).toBe('ready');
    expect(read.pagesTotal).toBe(17);
    expect(read.pagesDone).toBe(17);
    expect(read.pages[1]!.text.replace(/\s+/g, ' ')).toContain(PAGE2);

    const rows = await passages(fileId);
    expect(rows.length).toBeGreaterThan(17);
    expect(rows.every((r) => r.lang_config === 'english' && r.chatbot_id === botId)).toBe(true);
    const hit = await app.store.db
      .selectFrom('chatbot_file_passages')
      .select(['page', 'heading', 'text'])
      .where('file_id', '=', fileId)
      .where(sql<boolean>`tsv @@ plainto_tsquery('english', 'differences between the databases separate')`)
      .execute();
    expect(hit.map((h) => h.page)).toContain(2);
    expect(hit.find((h) => h.page === 2)!.text.replace(/\s+/g, ' ')).toContain('simply a result of them');

    // The states list the cards read.
    const states = await (await app.http()).inject({
      method: 'GET',
      url: `/api/chatbot-files/texts?chatbotId=${botId}`,
      headers: auth(),
    });
    expect(states.json()).toContainEqual(expect.objectContaining({ fileId, state: 'ready', pagesDone: 17 }));

    // The owner corrects page 2: its new words are found, the old ones no longer.
    const put = await (await app.http()).inject({
      method: 'PUT',
      url: `/api/chatbot-files/${fileId}/text/pages/2`,
      headers: auth(),
      payload: { text: 'Unified system\nThe margherita pizza costs nine euros and comes with basil.' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((put.json() as TextBody).editedAt).not.toBeNull();
    const found = (q: string) =>
      app.store.db
        .selectFrom('chatbot_file_passages')
        .select('page')
        .where('file_id', '=', fileId)
        .where(sql<boolean>`tsv @@ plainto_tsquery('english', ${q})`)
        .execute();
    expect((await found('margherita pizza euros')).map((r) => r.page)).toEqual([2]);
    expect(await found('simply a result of them being separate')).toEqual([]);
    // A page the text does not have, and an invalid body, are refused without a 500.
    const missing = await (await app.http()).inject({
      method: 'PUT',
      url: `/api/chatbot-files/${fileId}/text/pages/99`,
      headers: auth(),
      payload: { text: 'x' },
    });
    expect(missing.statusCode).toBe(404);
    const bad = await (await app.http()).inject({
      method: 'PUT',
      url: `/api/chatbot-files/${fileId}/text/pages/1`,
      headers: auth(),
      payload: { text: 5 },
    });
    expect(bad.statusCode).toBe(400);

    // The bot's language changes: its passages are searched with the new configuration.
    const setLanguage = async (idioma: string) => {
      const res = await (await app.http()).inject({
        method: 'POST',
        url: '/api/save-chatbot',
        headers: auth(),
        payload: {
          id: botId,
          business_name: 'Mime Docs',
          idioma,
          business_description: 'Docs about MIME types.',
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      return new Set((await passages(fileId)).map((r) => r.lang_config));
    };
    expect(await setLanguage('Español')).toEqual(new Set(['spanish']));
    expect(await setLanguage('English')).toEqual(new Set(['english']));

    // Deleting the file removes its pages and passages (ON DELETE CASCADE).
    const del = await (await app.http()).inject({
      method: 'DELETE',
      url: `/api/chatbot-files/${fileId}`,
      headers: auth(),
    });
    expect(del.statusCode).toBe(204);
    expect(await passages(fileId)).toEqual([]);
    const pages = await app.store.db
      .selectFrom('chatbot_file_pages')
      .select('page')
      .where('file_id', '=', fileId)
      .execute();
    expect(pages).toEqual([]);
  }, 120_000);

  it('reads Markdown and Word documents, answers from them, and refuses binary bytes named .txt (issue 30 §1)', async () => {
    const md = await upload('menu.md', new TextEncoder().encode(MENU_MD));
    const docx = await upload('club-rules.docx', DOCX);
    const rows = await app.store.db
      .selectFrom('chatbot_files')
      .select(['file_name', 'file_type', 'mime_type'])
      .where('id', 'in', [md, docx])
      .orderBy('file_name')
      .execute();
    expect(rows.map((r) => [r.file_type, r.mime_type])).toEqual([
      ['document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['document', 'text/plain'],
    ]);
    const m = await settled(md);
    expect([m.state, m.pages.length]).toEqual(['ready', 1]);
    expect((await passages(md)).map((r) => r.heading)).toEqual(['Pizzas', 'Desserts']);
    const d = await settled(docx);
    expect(d.state).toBe('ready');
    expect(d.pages[0]!.text).toContain('Courts can be booked up to seven days in advance.');

    // Offline, a follower's question is answered with the document's sentence and its name.
    const turn = await app.engine.handleTurn({
      chatbotId: botId,
      channel: 'test',
      follower: { id: 'docs-1' },
      text: 'How many days in advance can I book a court?',
      messageId: 'docs-1',
    });
    expect(turn.reply).toContain('seven days in advance');
    expect(turn.reply).toContain('club-rules.docx');
    expect(turn.reply).not.toContain('p. 1'); // a document has no pages to cite

    const form = await multipart(
      { chatbotId: botId },
      { field: 'file', name: 'notes.txt', data: new Uint8Array([0, 1, 2, 3, 0x50, 0x4b]) },
    );
    const refused = await (await app.http()).inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { ...auth(), 'content-type': form.contentType },
      payload: form.body,
    });
    expect(refused.statusCode).toBe(415);
    expect(refused.json()).toMatchObject({ error: expect.stringContaining('notes.txt no es un TXT válido') });
    for (const id of [md, docx])
      await app.store.db.deleteFrom('chatbot_files').where('id', '=', id).execute();
  }, 120_000);

  it('reads files stored before (backfill); a scanned PDF has no text, the owner types it and may read it again; an image is not read; another owner gets 404; the bot’s deletion removes all', async () => {
    const photo = await upload('local.jpg', PHOTO);
    const audio = await upload('saludo.ogg', GREETING);
    const s = await settled(scanned);
    expect([s.state, s.errorCode, s.pages]).toEqual(['no_text', 'scanned', []]);
    // The owner types the text in as page 1: searchable, marked as edited.
    const typed = await (await app.http()).inject({
      method: 'PUT',
      url: `/api/chatbot-files/${scanned}/text/pages/1`,
      headers: auth(),
      payload: { text: 'Pizzas\nThe margherita pizza costs nine euros.' },
    });
    expect(typed.statusCode, typed.body).toBe(200);
    const t = typed.json() as TextBody;
    expect([t.state, t.pages.length, t.editedAt !== null]).toEqual(['ready', 1, true]);
    expect((await passages(scanned)).map((r) => r.heading)).toEqual(['Pizzas']);
    // "Volver a leer" replaces the typed text with what is read (nothing: scanned).
    const reread = await (await app.http()).inject({
      method: 'POST',
      url: `/api/chatbot-files/${scanned}/text/read`,
      headers: auth(),
    });
    expect(reread.statusCode, reread.body).toBe(202);
    await expect
      .poll(async () => (await text(scanned)).pages, { timeout: 30_000, interval: 100 })
      .toEqual([]);
    expect((await settled(scanned)).state).toBe('no_text');
    const p = await settled(photo);
    expect([p.state, p.errorCode]).toEqual(['unsupported', 'image_no_ocr']);
    // Audio goes through the voice plugin's speech-to-text server (the registry's transcriber).
    const a = await settled(audio);
    expect([a.state, a.pages]).toEqual(['ready', [{ page: 1, text: speech.transcript }]]);
    expect(speech.transcriptions.at(-1)?.language).toBe('en');
    const other = await app.owner(`other-${kind}@example.com`);
    const res = await (await app.http()).inject({
      method: 'GET',
      url: `/api/chatbot-files/${scanned}/text`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(res.statusCode).toBe(404);

    // Deleting the bot removes its files' reading states, pages and passages (ON DELETE CASCADE).
    await app.store.db.deleteFrom('chatbots').where('id', '=', botId).execute();
    const left = await app.store.db
      .selectFrom('chatbot_file_texts')
      .select('file_id')
      .where('chatbot_id', '=', botId)
      .execute();
    expect(left).toEqual([]);
  }, 120_000);
});

it('takes short lines over body text for headings, never list items (issue 30 §2)', () => {
  const text = [
    'Normas',
    'No se tolera el acoso en el club.',
    '* El acoso en público o privado',
    '* Los comentarios ofensivos sobre género o religión',
    'Fotografiar a alguien sin su permiso',
    'Insultar a otra persona del club',
    'Pizzas',
    'Margarita 9,50 €',
  ].join('\n');
  const chunks = chunkPages([{ page: 1, text }]);
  expect(chunks.map((c) => c.heading)).toEqual(['Normas', 'Pizzas']);
  expect(chunks[0]!.text).toContain('El acoso en público o privado');
  expect(chunks[0]!.text).toContain('Fotografiar a alguien sin su permiso');
});
