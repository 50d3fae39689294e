/**
 * Issue 30 §2, optional embeddings, on PGlite and PostgreSQL: with `CHARLA_EMBEDDINGS_BASE_URL` and
 * `…_MODEL` set, the passages of an uploaded file are embedded by the durable job through the local
 * OpenAI-format server (test/servers/openai.ts: a hashed bag of words, not a model); a question is
 * answered from the text hit and from a passage the text search alone does not find ("cumpleaños"
 * vs "cumple años": different Spanish stems, same first five letters in the fake's vectors), both in
 * the LLM’s prompt; a corrected page is embedded again; deleting a file deletes its embeddings; with
 * the embeddings server down the turn answers from text search, without an error.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backfillEmbeddings } from '../engine/knowledge/job.ts';
import { retrievePassages } from '../engine/knowledge/retrieve.ts';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { multipart } from './helpers/multipart.ts';
import { ownerWithBot, withInject } from './helpers/owners.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';

/** A one-page PDF with `lines` of text (Helvetica, WinAnsi: Spanish letters are one byte each). */
function pdfOf(lines: readonly string[]): Buffer {
  const esc = (t: string) => t.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = `BT /F1 12 Tf 72 720 Td 16 TL ${lines.map((l) => `(${esc(l)}) '`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const MENU = ['La pizza margarita cuesta doce euros.', 'La pizza cuatro quesos cuesta catorce euros.'];
const PARTIES = [
  'Para quien cumple años preparamos una tarta',
  'de chocolate con velas, gratis con la reserva.',
];
const QUESTION = '¿Cuánto cuesta la pizza margarita para mi cumpleaños?';

/**
 * Where the embeddings are scored: by pgvector (PGlite always has it; PostgreSQL when installed),
 * or by the process, as on a PostgreSQL without the extension (here `CHARLA_EMBEDDINGS_PGVECTOR=off`).
 */
const SCORERS = ['pgvector', 'process'] as const;

describe.each(
  dialectsOf(import.meta.url).flatMap((kind) => SCORERS.map((scorer) => [kind, scorer] as const)),
)('hybrid retrieval with embeddings (%s, scored by %s)', (kind, scorer) => {
  let app: TestApp;
  let llm: FakeOpenAi;
  let emb: FakeOpenAi;
  let token: string;
  let botId: string;
  let n = 0;
  const auth = () => ({ authorization: `Bearer ${token}` });
  const ask = (text: string) =>
    app.engine.handleTurn({
      chatbotId: botId,
      channel: 'test',
      follower: { id: 'f-1' },
      text,
      messageId: `m-${++n}`,
    });
  const upload = async (name: string, lines: readonly string[]) => {
    const form = await multipart({ chatbotId: botId }, { field: 'file', name, data: pdfOf(lines) });
    const res = await (await app.http()).inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { ...auth(), 'content-type': form.contentType },
      payload: form.body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  };
  /** Whether this database searches the vectors with pgvector (PGlite, or a PostgreSQL with it). */
  let withVector = false;
  /** 1 when the embeddings table has pgvector's column. */
  const column = () =>
    sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'chatbot_file_passage_embeddings'
        AND column_name = 'vec'`
      .execute(app.store.db)
      .then((r) => Number(r.rows[0]?.n));
  const counts = async () => {
    const db = app.store.db;
    const passages = await db
      .selectFrom('chatbot_file_passages')
      .select('id')
      .where('chatbot_id', '=', botId)
      .execute();
    const embedded = await db
      .selectFrom('chatbot_file_passage_embeddings')
      .select(['passage_id', 'model'])
      .where('chatbot_id', '=', botId)
      .execute();
    return {
      passages: passages.length,
      embedded: embedded.length,
      models: [...new Set(embedded.map((e) => e.model))],
    };
  };

  beforeAll(async () => {
    llm = await startFakeOpenAi({ reply: () => ({ text: 'La margarita cuesta doce euros.' }) });
    emb = await startFakeOpenAi();
    app = await createTestApp(kind, {
      llm: fakeLlm(llm.baseURL),
      env: {
        CHARLA_EMBEDDINGS_BASE_URL: emb.baseURL,
        CHARLA_EMBEDDINGS_MODEL: 'fake-bow',
        CHARLA_EMBEDDINGS_PGVECTOR: scorer === 'pgvector' ? 'on' : 'off',
      },
    });
    const owner = await ownerWithBot(await withInject(app), `embeddings-${kind}-${scorer}@example.com`, {
      business_name: 'Pizzería Pepe',
      idioma: 'Español',
      business_description: 'Pizzas al horno.',
    });
    token = owner.token;
    botId = owner.botId;
    await app.startChannels(); // starts the job worker, and sets pgvector's column up
    const available = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_available_extensions
      WHERE name = 'vector'`.execute(app.store.db);
    withVector = scorer === 'pgvector' && (kind === 'pglite' || Number(available.rows[0]?.n) > 0);
    if (withVector)
      await vi.waitFor(async () => expect(await column()).toBe(1), { timeout: 30_000, interval: 100 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await llm?.close();
    await emb?.close();
  });

  it('embeds passages by the job, puts text and vector hits in the prompt, and falls back to text', async () => {
    const menu = await upload('carta.pdf', MENU);
    const parties = await upload('fiestas.pdf', PARTIES);
    await expect
      .poll(counts, { timeout: 30_000, interval: 100 })
      .toMatchObject({ passages: 2, embedded: 2, models: ['fake-bow'] });

    // Text search alone does not find the party passage: "cumpleaños" and "cumple años" differ.
    const textOnly = await retrievePassages(app.store.db, { chatbotId: botId, message: QUESTION });
    expect(textOnly.map((p) => p.fileName)).toEqual(['carta.pdf']);

    const answered = await ask(QUESTION);
    expect(emb.embeddingInputs.at(-1)).toEqual([QUESTION]);
    expect(answered.passages?.map((p) => p.fileName).sort()).toEqual(['carta.pdf', 'fiestas.pdf']);
    const system = llm.requests.at(-1)!.messages[0]!.content;
    expect(system).toContain('La pizza margarita cuesta doce euros');
    expect(system).toContain('chocolate con velas');
    expect(answered.reply).toBe('La margarita cuesta doce euros.');

    // The embeddings server down: the text hit still answers, no failure.
    emb.embeddingsStatus = 503;
    const down = await ask('¿Y cuánto cuesta la pizza margarita?');
    expect(down.failed).toBeFalsy();
    expect(down.passages?.map((p) => p.fileName)).toEqual(['carta.pdf']);
    expect(llm.requests.at(-1)!.messages[0]!.content).toContain('La pizza margarita cuesta doce euros');
    emb.embeddingsStatus = null;

    // Deleting a file deletes its embeddings.
    const del = await (await app.http()).inject({
      method: 'DELETE',
      url: `/api/chatbot-files/${parties}`,
      headers: auth(),
    });
    expect(del.statusCode, del.body).toBeLessThan(300);
    expect(await counts()).toMatchObject({ passages: 1, embedded: 1 });
    // A corrected page is re-indexed (new passages) and embedded again.
    const before = emb.embeddingInputs.length;
    const put = await (await app.http()).inject({
      method: 'PUT',
      url: `/api/chatbot-files/${menu}/text/pages/1`,
      headers: auth(),
      payload: { text: 'La pizza margarita cuesta once euros.' },
    });
    expect(put.statusCode, put.body).toBe(200);
    await expect
      .poll(() => emb.embeddingInputs.slice(before).flat(), { timeout: 30_000, interval: 100 })
      .toEqual([expect.stringContaining('once euros')]);
    await expect.poll(counts, { timeout: 30_000, interval: 100 }).toMatchObject({ passages: 1, embedded: 1 });
    expect(await column()).toBe(withVector ? 1 : 0);
  });

  it('embeds at start the passages indexed before the embeddings server was set (or for a new model)', async () => {
    // As if the files had been read before CHARLA_EMBEDDINGS_BASE_URL was set: no vector at all.
    await app.store.db
      .deleteFrom('chatbot_file_passage_embeddings')
      .where('chatbot_id', '=', botId)
      .execute();
    expect(await counts()).toMatchObject({ embedded: 0 });
    const queued = await backfillEmbeddings({
      db: app.store.db,
      jobs: app.jobs,
      log: app.log,
      model: 'fake-bow',
    });
    expect(queued).toBe(1);
    const { passages } = await counts();
    await expect.poll(counts, { timeout: 30_000, interval: 100 }).toMatchObject({ embedded: passages });
    // Nothing left to embed: nothing queued.
    expect(
      await backfillEmbeddings({ db: app.store.db, jobs: app.jobs, log: app.log, model: 'fake-bow' }),
    ).toBe(0);
  });

  it('a database that loses pgvector (DROP EXTENSION vector CASCADE drops the column) is searched by the process', async (ctx) => {
    if (!withVector) ctx.skip(); // no pgvector here: every search is the process's
    await upload('cumples.pdf', PARTIES);
    await expect.poll(counts, { timeout: 30_000, interval: 100 }).toMatchObject({ embedded: 2 });
    await sql`ALTER TABLE chatbot_file_passage_embeddings DROP COLUMN vec`.execute(app.store.db);
    const answered = await ask(QUESTION);
    expect(answered.failed).toBeFalsy();
    expect(answered.passages?.map((p) => p.fileName).sort()).toEqual(['carta.pdf', 'cumples.pdf']);
  });
});
