/**
 * The dashboard's texts exist in all seven languages (spec 000 §1, 001 §9): every key of the
 * Spanish source in every locale, no extra keys, the same interpolation placeholders, no empty text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { latinWords } from './helpers/latin-words.ts';

const dir = new URL('../dashboard/src/i18n/locales/', import.meta.url);
const load = (code: string) =>
  JSON.parse(readFileSync(new URL(`${code}.json`, dir), 'utf8')) as Record<string, unknown>;

function leaves(obj: Record<string, unknown>, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object')
      for (const [p, s] of leaves(v as Record<string, unknown>, path)) out.set(p, s);
    else out.set(path, String(v));
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const source = leaves(load('es'));

describe('dashboard locales', () => {
  it('ships es, en, fr, de, it, ru and hi', () => {
    const codes = readdirSync(dir)
      .map((f) => f.replace(/\.json$/, ''))
      .sort();
    expect(codes).toEqual(['de', 'en', 'es', 'fr', 'hi', 'it', 'ru']);
  });

  it.each(['en', 'fr', 'de', 'it', 'ru', 'hi'])(
    '%s has every Spanish key, the same placeholders and no empty text',
    (code) => {
      const texts = leaves(load(code));
      // Plural forms differ by language (i18next: Russian has _one, _few, _many, _other; Spanish
      // _one and _other): compared by their base key, with Spanish's _other as the placeholder source.
      const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');
      const keys = (m: Map<string, string>) => [...new Set([...m.keys()].map(base))].sort();
      expect(keys(texts)).toEqual(keys(source));
      for (const [key, text] of texts) {
        expect(text.trim(), `${code}: ${key}`).not.toBe('');
        const spanish = source.get(key) ?? source.get(`${base(key)}_other`)!;
        expect(placeholders(text), `${code}: ${key}`).toEqual(placeholders(spanish));
      }
    },
  );
});

/**
 * Issue 29 "Language": a text left in Spanish or English where it should be translated fails.
 *   - Any locale: a text identical to the Spanish (or, but for English, to the English) with four or
 *     more words to translate is an untranslated sentence (short labels may be true cognates:
 *     "Audio", "Chat", "Token del bot" in Italian).
 *   - Hindi and Russian: no Latin-script word but the principled exceptions of
 *     test/helpers/latin-words.ts (brands, technical terms, names, identifiers, quoted literals).
 */
describe('dashboard locales are translated', () => {
  const english = leaves(load('en'));
  it.each(['en', 'fr', 'de', 'it', 'ru', 'hi'])('%s has no sentence left in Spanish or English', (code) => {
    const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');
    const left: string[] = [];
    for (const [key, text] of leaves(load(code))) {
      const like = (m: Map<string, string>) =>
        m.get(key) ?? m.get(`${base(key)}_other`) ?? m.get(`${base(key)}_one`);
      const same = text === like(source) || (code !== 'en' && text === like(english));
      if (same && latinWords(text).length >= 4) left.push(`${key}: ${text}`);
      if ((code === 'hi' || code === 'ru') && latinWords(text).length)
        left.push(`${key}: ${text} (${latinWords(text).join(', ')})`);
    }
    expect(left).toEqual([]);
  });
});
