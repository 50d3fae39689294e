/**
 * Issue 29 "Setting up the bot", engine side of keywords and of the follower's language:
 * - the keyword warning flags keywords ordinary messages would fire ("hola", "gracias", "sí",
 *   "info", a single letter, their equivalents in the seven languages, and keywords the matcher
 *   would send for them such as "audiohola"), and leaves specific ones alone;
 * - greetings are told apart from questions, in their language;
 * - the follower's language is read from a question, and short or shared words keep the bot's.
 */
import { describe, expect, it } from 'vitest';
import { languageDetector, readMessage } from '../engine/conversation/language.ts';
import { matchFiles } from '../engine/matching/index.ts';
import { COMMON_MESSAGES, greetingLanguages, keywordWarnings } from '../engine/matching/stoplist.ts';
import { LANG_CODES } from '../engine/schemas.ts';

describe('the keyword warning', () => {
  it('flags common messages in every language, single letters, and keywords they would fire', () => {
    expect(keywordWarnings('hola, gracias, sí, info, a')).toEqual([
      { keyword: 'hola', kind: 'common', message: 'hola' },
      { keyword: 'gracias', kind: 'common', message: 'gracias' },
      { keyword: 'sí', kind: 'short', message: '' },
      { keyword: 'info', kind: 'common', message: 'info' },
      { keyword: 'a', kind: 'short', message: '' },
    ]);
    for (const word of ['hello', 'merci', 'danke', 'grazie', 'спасибо', 'привет', 'नमस्ते', 'धन्यवाद'])
      expect(keywordWarnings(word), word).toMatchObject([{ kind: 'common' }]);
    // What the matcher does: "hola" (3+ characters) inside the keyword sends the file.
    expect(keywordWarnings('audiohola')).toEqual([{ keyword: 'audiohola', kind: 'common', message: 'hola' }]);
    const file = { id: 'f', file_name: 'saludo.ogg', keyword: 'audiohola', context: '' };
    expect(matchFiles('hola', [file]).action).toBe('SEND');
    expect(keywordWarnings('carta, menu, precios, arroz, foto10')).toEqual([]);
    for (const lang of LANG_CODES) expect(COMMON_MESSAGES[lang].length).toBeGreaterThan(8);
  });

  it('tells greetings from questions, in their language', () => {
    expect(greetingLanguages('¡Hola, buenas tardes!')).toEqual(['es']);
    expect(greetingLanguages('Bonjour !')).toEqual(['fr']);
    expect(greetingLanguages('привет')).toEqual(['ru']);
    expect(greetingLanguages('नमस्ते')).toEqual(['hi']);
    expect(greetingLanguages('hey')).toEqual(['es', 'en', 'de']);
    expect(greetingLanguages('hola, ¿abrís hoy?')).toBeNull();
    expect(greetingLanguages('menu')).toBeNull();
  });

  it("reads the follower's language, keeping the bot's when it cannot tell", async () => {
    const d = await languageDetector();
    const lang = (m: string, bot: 'es' | 'it' = 'es') => readMessage(d, m, bot).lang;
    expect(lang('What time do you open on Saturday?')).toBe('en');
    expect(lang('Où se trouve le restaurant ?')).toBe('fr');
    expect(lang('Habt ihr vegetarische Gerichte?')).toBe('de');
    expect(lang('Avete piatti vegetariani?')).toBe('it');
    expect(lang('Во сколько вы открываетесь в субботу?')).toBe('ru');
    expect(lang('शनिवार को आप कितने बजे खुलते हैं?')).toBe('hi');
    for (const m of ['menu', 'la carta', 'ok', 'pizza', '2', 'hey']) expect(lang(m), m).toBe('es');
    expect(lang('la carta', 'it')).toBe('it');
    expect(readMessage(d, 'hi', 'es')).toEqual({ lang: 'en', greeting: true });
  });
});
