/**
 * Issue 30 §3: what is written inside a bot's files answers its followers. A real document (the
 * Spanish Contributor Covenant, bench/knowledge-data) is indexed for a bot as the extraction job
 * indexes it (passages with their tsvector); a question whose answer is a sentence of page 2 puts
 * that sentence, with the file name and page, in the LLM's prompt (recorded by the local
 * OpenAI-format server), and without an LLM the reply quotes it and says where it comes from. A bot
 * without passages gets the prompt and the reply it got before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkDocument, createBotWithFile, documentText, insertPassages } from '../bench/knowledge-corpus.ts';
import { ConversationEngine } from '../engine/conversation/engine.ts';
import { retrievePassages } from '../engine/knowledge/retrieve.ts';
import type { LangCode } from '../engine/schemas.ts';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';

const FILE = 'codigo-de-conducta.pdf';
const QUESTION = '¿Cómo se evalúan las quejas?';
const SENTENCE = 'Todas las quejas serán evaluadas e investigadas de una manera puntual y justa.';
const CITING = `Se evalúan de forma puntual y justa (${FILE}, p. 2).`;

describe.each(dialectsOf(import.meta.url))('answers from the bot’s files on %s', (kind) => {
  let app: TestApp;
  let llm: FakeOpenAi;
  let offline: ConversationEngine;
  let withFiles: string;
  let without: string;
  let n = 0;
  const ask = (engine: ConversationEngine, chatbotId: string, text: string) =>
    engine.handleTurn({ chatbotId, channel: 'test', follower: { id: 'f-1' }, text, messageId: `m-${++n}` });

  beforeAll(async () => {
    llm = await startFakeOpenAi({ reply: () => ({ text: CITING }) });
    app = await createTestApp(kind, { llm: fakeLlm(llm.baseURL) });
    offline = new ConversationEngine({
      db: app.store.db,
      registry: app.registry,
      llm: null,
      log: app.log,
      baseUrl: () => undefined,
    });
    const db = app.store.db;
    const indexed = await createBotWithFile(db, {
      email: 'coc@example.com',
      idioma: 'Español',
      fileName: FILE,
    });
    const chunks = chunkDocument(documentText('codigo-de-conducta.es.md'));
    expect(chunks.find((c) => c.text.includes(SENTENCE))?.page).toBe(2);
    await insertPassages(db, { botId: indexed.botId, fileId: indexed.fileId, config: 'spanish' }, chunks);
    withFiles = indexed.botId;
    without = (await createBotWithFile(db, { email: 'plain@example.com', idioma: 'Español', fileName: FILE }))
      .botId;
  });
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it('puts the answering sentence with its file and page in the prompt, and quotes it offline', async () => {
    const answered = await ask(app.engine, withFiles, QUESTION);
    // The reply cites the file, which is not sent: the file is offered as the engine offers files.
    expect(answered.reply.startsWith(`${CITING}\n\n`)).toBe(true);
    expect(answered.reply).toContain(`\n1. ${FILE}\n`);
    expect(answered.contenedorEmpatico.archivos).toMatchObject({
      action: 'LIST',
      lista: [{ file_name: FILE }],
    });
    const system = llm.requests.at(-1)!.messages[0]!.content;
    expect(system).toContain("## From the business's files");
    expect(system).toContain(SENTENCE);
    expect(system).toContain(`(${FILE}, p. 2)`);
    expect(answered.passages?.[0]).toMatchObject({ fileName: FILE, page: 2 });
    expect(answered.passages?.[0]?.score).toBeGreaterThan(0);

    const quoted = await ask(offline, withFiles, QUESTION);
    expect(quoted.offline).toBe(true);
    expect(quoted.reply).toContain(SENTENCE);
    expect(quoted.reply).toContain(`Según ${FILE} (p. 2)`);
    expect(quoted.passages).toEqual([expect.objectContaining({ fileName: FILE, page: 2 })]);
    expect(quoted.reply).toContain(`1. ${FILE}`);
    // Taking the offer sends the file, through the keyword match's own pick of a listed file.
    const taken = await ask(offline, withFiles, '1');
    expect(taken.attachment?.name).toBe(FILE);
  });

  it('leaves a bot without passages as it was', async () => {
    await ask(app.engine, without, QUESTION);
    const system = llm.requests.at(-1)!.messages[0]!.content;
    expect(system).not.toContain("## From the business's files");
    const reply = await ask(offline, without, QUESTION);
    expect(reply.reply).not.toContain(FILE);
    expect(reply.passages).toBeUndefined();
  });

  /**
   * A new bot (its owner `email`) whose one file holds `texts` as passages, and the text of its best
   * passage for a message (read in `questionLang` too when given).
   */
  const botWithPassages = async (email: string, idioma: string, config: string, texts: readonly string[]) => {
    const db = app.store.db;
    const made = await createBotWithFile(db, { email, idioma, fileName: 'file.pdf' });
    await insertPassages(
      db,
      { botId: made.botId, fileId: made.fileId, config },
      texts.map((text, i) => ({ page: 1, position: i, heading: '', text })),
    );
    return async (message: string, questionLang?: LangCode) =>
      (
        await retrievePassages(db, {
          chatbotId: made.botId,
          message,
          k: 1,
          ...(questionLang ? { questionLang } : {}),
        })
      )[0]?.text;
  };

  it('answers "¿cuánto cuesta…?" with the passage that gives the price, and a count with the one that counts', async () => {
    const PRICE = 'Menú del día: 14,50 € de lunes a viernes.';
    const COUNT = 'El salón admite 40 comensales sentados.';
    const best = await botWithPassages('carta@example.com', 'Español', 'spanish', [
      'El menú del día incluye primero, segundo, postre, pan y bebida; el menú del día cambia cada semana según el mercado.',
      `Precios con IVA incluido. ${PRICE} Los sábados, domingos y festivos se sirve la carta completa y el menú degustación.`,
      'El salón principal es luminoso y tranquilo, el salón tiene vistas al jardín y se reserva para comidas de empresa.',
      `Celebraciones y grupos grandes, con reserva previa por teléfono: ${COUNT} Para más de quince, menú cerrado.`,
    ]);
    // Both passages hold the dish; only one says what it costs (a price, the `price` concept).
    expect(await best('¿Cuánto cuesta el menú del día?')).toContain(PRICE);
    // A follower writing in English: what is asked is read in the follower's language too.
    expect(await best('What does the menú del día cost?', 'en')).toContain(PRICE);
    // Both hold the room; only one gives a number (the `quantity` concept).
    expect(await best('¿Cuántas personas caben en el salón?')).toContain(COUNT);
  });

  it('matches a MIME type, a file name or a host the passages hold as one word', async () => {
    const ALIAS = 'For example, audio/midi has an alias of audio/x-midi.';
    const best = await botWithPassages('mime@example.com', 'English', 'english', [
      'An alias element names a type by another name; aliases are listed with the canonical type.',
      `Each element has a type attribute. ${ALIAS}`,
      'Menus are sent as carta.pdf and the site is www.pato.es for every visitor.',
    ]);
    expect(await best('What is the alias of audio/midi?')).toContain(ALIAS);
    expect(await best('is www.pato.es yours?')).toContain('www.pato.es');
  });
});
