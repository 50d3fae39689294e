/**
 * The offline responder over the chat route (issue 10 §6), on each store: with no LLM configured,
 * - the demo bot El Pato Pepe, as `charla seed --demo` makes it, answers "¿A qué hora abrís el
 *   sábado?" with the opening hours of its description, with or without accents;
 * - an English bot answers its hours question from its English description;
 * - files are offered by their context text, those that fit the question first, and no owner
 *   keyword ("foto10") ever shows in a reply; sentences that instruct the bot are never quoted.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../cli/seed.ts';
import { FILE_SENTENCES } from '../engine/conversation/file-sentences.ts';
import { addFile } from '../engine/files.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { enableWeb } from './helpers/owners.ts';

const asset = (name: string) => readFile(new URL(`../assets/demo/${name}`, import.meta.url));

/** Keywords an owner might type that must never reach a follower. */
const RAW_KEYWORDS = ['foto10', 'menu2024', 'audiohola', 'precios-pdf'];

describe.each(dialectsOf(import.meta.url))('the offline responder on %s', (kind) => {
  let app: TestApp;
  let http: Awaited<ReturnType<TestApp['http']>>;
  let demoId: string;
  let bakeryId: string;
  let shopId: string;

  beforeAll(async () => {
    app = await createTestApp(kind);
    http = await app.http();
    demoId = (await seedDemo(app)).bot.id;
    const owner = await app.owner('dueña@example.com');
    const save = async (body: Record<string, unknown>) => {
      const res = await http.inject({
        method: 'POST',
        url: '/api/save-chatbot',
        headers: { authorization: `Bearer ${owner.token}` },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json<{ id: string }>().id;
      // Followers chat with it by id: its web service on (issue 24 §2).
      await enableWeb(http.inject.bind(http), owner.token, id);
      return id;
    };
    bakeryId = await save({
      business_name: 'Bristol Bakes',
      business_description:
        'Always answer kindly and briefly. Bristol Bakes is a family bakery on Gloucester Road. ' +
        'We open Monday to Saturday from 7:00 to 15:00 and we are closed on Sundays. ' +
        'Every loaf is sourdough, baked overnight.',
      idioma: 'English',
    });
    // The second save of the same owner updates nothing else: a new bot needs a new owner.
    const other = await app.owner('ana@example.com');
    const res = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${other.token}` },
      payload: {
        business_name: 'Cerámica Ana',
        business_description:
          'Atiende con cercanía y usa el tú. Taller de cerámica artesanal en Triana, Sevilla. ' +
          'Hacemos vajillas por encargo y damos clases los jueves por la tarde.',
        idioma: 'Español',
      },
    });
    shopId = res.json<{ id: string }>().id;
    await enableWeb(http.inject.bind(http), other.token, shopId);
    const files = [
      { asset: 'local-el-pato-pepe.jpg', keyword: 'foto10', context: 'Foto del plato del día recién hecho.' },
      {
        asset: 'carta-el-pato-pepe.pdf',
        keyword: 'menu2024,precios-pdf',
        context: 'Catálogo de vajillas con precios.',
      },
      { asset: 'saludo-el-pato-pepe.ogg', keyword: 'audiohola', context: 'Audio de bienvenida del taller.' },
    ];
    for (const f of files)
      await addFile(app.store.db, app.storage, {
        ownerId: other.id,
        chatbotId: shopId,
        originalName: f.asset,
        data: await asset(f.asset),
        keyword: f.keyword,
        context: f.context,
      });
    app.engine.cache.invalidate(shopId);
  });
  afterAll(async () => {
    await app?.close();
  });

  const ask = async (botId: string, userMessage: string, extra: Record<string, unknown> = {}) => {
    const res = await http.inject({
      method: 'POST',
      url: `/api/chatbot-message/${botId}`,
      payload: { userMessage, ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ reply: string; offline: boolean; attachment: unknown }>();
    expect(body.offline).toBe(true);
    return body;
  };

  it('the demo bot answers "¿A qué hora abrís el sábado?" with its opening hours', async () => {
    const { reply, attachment } = await ask(demoId, '¿A qué hora abrís el sábado?');
    expect(attachment).toBeNull();
    expect(reply).toContain('de martes a domingo, de 13:00 a 16:30 y de 20:00 a 23:30');
    expect(reply).not.toMatch(/Puedo enviarte: menu|palabra clave/);
  });

  it('folds accents: "a que hora abris el sabado" gets the same answer', async () => {
    const plain = await ask(demoId, 'a que hora abris el sabado');
    const accented = await ask(demoId, '¿A qué hora abrís el sábado?');
    expect(plain.reply).toBe(accented.reply);
    expect(plain.reply).toContain('13:00');
  });

  it('answers other questions from the description: the address, vegetarian dishes', async () => {
    const history = [
      { role: 'user', content: 'hola' },
      { role: 'assistant', content: '¡Hola!' },
    ];
    const where = await ask(demoId, '¿Dónde estáis?', { messageHistory: history });
    expect(where.reply).toContain('Calle del Estanque 12');
    expect(where.reply).not.toContain('13:00');
    const veggie = await ask(demoId, '¿Tenéis platos vegetarianos?', { messageHistory: history });
    expect(veggie.reply).toContain('Hay opciones vegetarianas.');
  });

  it('an English bot answers its hours question in English, without its instruction', async () => {
    const { reply } = await ask(bakeryId, 'What time do you open on Saturday?');
    expect(reply).toContain('We open Monday to Saturday from 7:00 to 15:00');
    expect(reply).toContain('I am the assistant of Bristol Bakes.');
    expect(reply).not.toContain('Always answer');
  });

  it('offers files by their context text, the fitting one first, and never shows a keyword', async () => {
    const history = [
      { role: 'user', content: 'hola' },
      { role: 'assistant', content: '¡Hola!' },
    ];
    const photo = await ask(shopId, '¿Tenéis fotos del plato del día?', { messageHistory: history });
    expect(photo.attachment).toBeNull();
    expect(photo.reply).toContain('• Foto del plato del día recién hecho.');
    expect(photo.reply).not.toContain('Catálogo de vajillas');

    // A greeting gets a greeting and who the bot is, not a file offer (issue 29).
    const first = await ask(shopId, 'Buenas tardes');
    expect(first.reply).toMatch(/^¡Hola! Soy el asistente de Cerámica Ana\./);
    expect(first.reply).toContain('Taller de cerámica artesanal en Triana, Sevilla.');
    expect(first.reply).not.toContain('Atiende con cercanía');
    expect(first.reply).not.toContain('Puedo enviarte:');

    const classes = await ask(shopId, '¿Qué día dais clases?', { messageHistory: history });
    expect(classes.reply).toContain('damos clases los jueves por la tarde');

    const unknown = await ask(shopId, '¿Hacéis envíos a Canarias?', { messageHistory: history });
    expect(unknown.reply).toContain('No encuentro ese dato en la información de Cerámica Ana.');
    expect(unknown.reply).toContain('Puedo enviarte:');
    for (const context of [
      'Foto del plato del día',
      'Catálogo de vajillas con precios',
      'Audio de bienvenida',
    ])
      expect(unknown.reply).toContain(`• ${context}`);

    for (const r of [photo, first, classes, unknown])
      for (const keyword of RAW_KEYWORDS) expect(r.reply.toLowerCase()).not.toContain(keyword);
  });

  it("answers in the follower's language: English, French, Russian questions to the Spanish demo bot", async () => {
    // The frame is in the follower's language; the description's sentences are quoted as written.
    const en = await ask(demoId, 'What time do you open on Saturday?');
    expect(en.reply).toContain('I am the assistant of El Pato Pepe.');
    expect(en.reply).toContain('de 13:00 a 16:30 y de 20:00 a 23:30');
    const fr = await ask(demoId, 'Où se trouve le restaurant ?');
    expect(fr.reply).toContain('Je suis l’assistant de El Pato Pepe.');
    expect(fr.reply).toContain('Calle del Estanque 12');
    const ru = await ask(demoId, 'Во сколько вы открываетесь в субботу?');
    expect(ru.reply).toContain('Я ассистент El Pato Pepe.');
    expect(ru.reply).toContain('13:00');
    const unknown = await ask(demoId, 'Do you deliver to Valencia?');
    expect(unknown.reply).toContain('I cannot find that in what I know about El Pato Pepe.');
    expect(unknown.reply).toContain('I can send you:');
    expect(unknown.reply).toContain('Tell me which one you want and I will send it.');
    // A file asked for in English comes with an English sentence.
    const menu = await ask(demoId, 'Can I see the menu please?');
    expect(menu.attachment).toMatchObject({ type: 'pdf' });
    expect(FILE_SENTENCES.en.pdf).toContain(menu.reply);
    for (const r of [en, fr, ru, unknown, menu])
      expect(r.reply).not.toMatch(/Soy el asistente|Puedo enviarte|No encuentro|Dime cuál/);
  });

  it("greets back a greeting in its language, and keeps the bot's language when it cannot tell", async () => {
    const hola = await ask(demoId, '¡Hola!');
    expect(hola.reply).toMatch(/^¡Hola! Soy el asistente de El Pato Pepe\. Restaurante familiar/);
    const hi = await ask(demoId, 'hi');
    expect(hi.reply).toMatch(/^Hello! I am the assistant of El Pato Pepe\./);
    const privet = await ask(demoId, 'привет');
    expect(privet.reply).toMatch(/^Здравствуйте! Я ассистент El Pato Pepe\./);
    const namaste = await ask(demoId, 'नमस्ते');
    expect(namaste.reply).toMatch(/^नमस्ते! मैं El Pato Pepe का सहायक हूँ।/);
    for (const r of [hola, hi, privet, namaste]) {
      expect(r.attachment).toBeNull();
      expect(r.reply).not.toMatch(/Puedo enviarte|I can send you|•/);
    }
    // Short or shared words say nothing of the language: the bot's own.
    const carta = await ask(demoId, 'carta');
    expect(FILE_SENTENCES.es.pdf).toContain(carta.reply);
    const ok = await ask(demoId, 'ok');
    expect(ok.reply).toContain('Soy el asistente de El Pato Pepe.');
  });

  it('still sends a file its keyword asks for', async () => {
    const sent = await ask(shopId, 'foto10');
    expect(sent.attachment).toMatchObject({ type: 'image' });
    expect(sent.reply.toLowerCase()).not.toContain('foto10');
  });
});
