/**
 * Issue 30 §3, offline: when the description answers and when the files do. The description's
 * answer stands unless it lacks what the question asks for (a price, an hour or a day, a count…)
 * and the files' answer gives it: "¿Cuánto cuesta el arroz con pato?" to a bot whose description
 * names the dish and whose menu gives its price. The files are not asked when the description
 * gives what is asked; a file answer without it does not replace the description's. A number in
 * the question that asks no count ("mesa para dos") quotes nothing it does not match.
 */
import { describe, expect, it, vi } from 'vitest';
import { type FilesAnswer, offlineReply } from '../engine/conversation/offline.ts';
import { buildEmpathyContainer } from '../engine/empathy/index.ts';

const DESCRIPTION =
  'Restaurante familiar de cocina española. Nuestro plato estrella es el arroz con pato. ' +
  'Abrimos de martes a domingo. Llámanos al 600 123 456.';

/** The offline reply to `message`, with `files` as the files' answer (null: none). */
async function reply(message: string, files: Omit<FilesAnswer, 'take'> | null) {
  const take = vi.fn();
  const fromFiles = vi.fn(async () => (files ? { ...files, take } : null));
  const container = buildEmpathyContainer({
    message,
    history: [],
    lang: 'es',
    files: [],
    sentIds: [],
    mentioned: null,
    alreadySent: [],
    archivos: { action: 'NONE', lista: [] },
    businessName: 'El Pato Pepe',
    now: new Date('2026-11-25T12:00:00Z'),
    timezone: 'Europe/Madrid',
  });
  const text = await offlineReply({
    lang: 'es',
    businessName: 'El Pato Pepe',
    businessDescription: DESCRIPTION,
    message,
    files: [],
    container,
    firstTurn: false,
    fromFiles,
  });
  return { text, asked: fromFiles.mock.calls.length > 0, taken: take.mock.calls.length > 0 };
}

const PRICE = { text: 'Según carta.pdf (p. 1): Arroz con pato 14,50 €', quote: 'Arroz con pato 14,50 €' };

describe('offline: the description or the files', () => {
  it('takes the price from the menu when the description only names the dish', async () => {
    const r = await reply('¿Cuánto cuesta el arroz con pato?', PRICE);
    expect(r.text).toContain('Arroz con pato 14,50 €');
    expect(r.text).not.toContain('plato estrella');
    expect(r.taken).toBe(true);
  });

  it('keeps the description when the files’ answer gives no price either', async () => {
    const r = await reply('¿Cuánto cuesta el arroz con pato?', {
      text: 'Según carta.pdf (p. 1): El arroz con pato lleva setas.',
      quote: 'El arroz con pato lleva setas.',
    });
    expect(r.text).toContain('plato estrella es el arroz con pato');
    expect(r.text).not.toContain('setas');
    expect(r.taken).toBe(false);
  });

  it('does not ask the files when the description gives what is asked (a day answers "¿cuándo?")', async () => {
    const r = await reply('¿Cuándo abrís?', PRICE);
    expect(r.text).toContain('martes a domingo');
    expect(r.asked).toBe(false);
  });

  it('reads "mesa para dos" as no count asked: the phone number is not quoted', async () => {
    const r = await reply('¿Tenéis mesa para dos?', null);
    expect(r.text).not.toContain('600 123 456');
  });
});
