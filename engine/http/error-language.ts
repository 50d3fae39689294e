/**
 * Issue 29 "Language": the server's refusals in the owner's language. The API speaks Spanish (the
 * spec's texts); a request that names the dashboard's interface language (`x-app-language`, which
 * the dashboard sends on every call) gets each `{ error }` translated from the dashboard's locales
 * (`serverErrors.*` in dashboard/src/i18n/locales, whose Spanish text *is* the server's text, so
 * one catalog serves both and test/i18n.test.ts keeps its seven languages complete):
 *   - a known text (placeholders `{{name}}` match anything) → its translation;
 *   - "Datos no válidos (field): detail" → "invalid data", plus the detail when it is known (zod's
 *     own English detail and the field's identifier are dropped);
 *   - any other Spanish text (or, for hi and ru, any text not in their script) → the generic
 *     `serverErrors.refused` "could not be completed (code <HTTP status>)" — never raw Spanish;
 *   - anything else (a route that already answered in the request's language) as it is.
 * `Accept-Language` is not used: the owner picks the dashboard's language, which may differ from
 * the browser's, and API clients keep the spec's Spanish.
 */
import de from '../../dashboard/src/i18n/locales/de.json' with { type: 'json' };
import en from '../../dashboard/src/i18n/locales/en.json' with { type: 'json' };
import es from '../../dashboard/src/i18n/locales/es.json' with { type: 'json' };
import fr from '../../dashboard/src/i18n/locales/fr.json' with { type: 'json' };
import hi from '../../dashboard/src/i18n/locales/hi.json' with { type: 'json' };
import it from '../../dashboard/src/i18n/locales/it.json' with { type: 'json' };
import ru from '../../dashboard/src/i18n/locales/ru.json' with { type: 'json' };
import { LANG_CODES, type LangCode } from '../schemas.ts';

type Texts = Record<string, string>;
const TEXTS: Record<LangCode, Texts> = {
  es: es.serverErrors,
  en: en.serverErrors,
  fr: fr.serverErrors,
  de: de.serverErrors,
  it: it.serverErrors,
  ru: ru.serverErrors,
  hi: hi.serverErrors,
};

/** The Spanish catalog as matchers: each key's text with `{{name}}` as a lazy capture. */
const MATCHERS: Array<{ key: string; pattern: RegExp }> = Object.entries(TEXTS.es)
  .map(([key, text]) => {
    const escaped = text.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\{(\w+)\}\}/g, '(?<$1>.+?)');
    return { key, pattern: new RegExp(`^${escaped}$`, 's') };
  })
  // Longest first: a more specific text wins over a shorter one it contains.
  .sort((a, b) => b.pattern.source.length - a.pattern.source.length);

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (m, k: string) => values[k] ?? m);

/** Letters and words that only Spanish, of the seven languages, writes. */
const SPANISH =
  /[áíóúñ¿¡]|\b(el|los|las|por|está|están|hay|y|puedes|debes|falta|faltan|datos|archivo|mensaje|ningún|ninguna|tienes)\b/i;
/** The script a Hindi or Russian text is written in. */
const SCRIPT: Partial<Record<LangCode, RegExp>> = { hi: /[\u0900-\u097F]/, ru: /[\u0400-\u04FF]/ };

/** The interface language a request names (`x-app-language`), or null. */
export function interfaceLanguage(headers: Record<string, string | string[] | undefined>): LangCode | null {
  const raw = headers['x-app-language'];
  const code = (Array.isArray(raw) ? raw[0] : raw)?.trim().slice(0, 2).toLowerCase();
  return (LANG_CODES as readonly string[]).includes(code ?? '') ? (code as LangCode) : null;
}

/** A known Spanish text in `lang`, or null. */
function known(message: string, lang: LangCode): string | null {
  for (const { key, pattern } of MATCHERS) {
    const m = pattern.exec(message);
    const text = m && TEXTS[lang][key];
    if (text) return fill(text, { ...m.groups });
  }
  return null;
}

/**
 * `message` (the server's Spanish `error`) in `lang` (see the module comment); `status` is the HTTP
 * status the generic text names.
 */
export function localizeError(message: string, lang: LangCode | null, status: number): string {
  if (!lang || lang === 'es' || !message) return message;
  const direct = known(message, lang);
  if (direct) return direct;
  const invalid = /^Datos no válidos(?: \([^)]*\))?(?:: (.*))?\.?$/s.exec(message);
  if (invalid) {
    const detail = invalid[1] ? known(invalid[1], lang) : null;
    return detail ? `${TEXTS[lang].invalidData} ${detail}` : (TEXTS[lang].invalidData ?? message);
  }
  const script = SCRIPT[lang];
  const untranslated =
    SPANISH.test(message) || (script && /[A-Za-z]{3}/.test(message) && !script.test(message));
  return untranslated ? fill(TEXTS[lang].refused ?? message, { code: String(status) }) : message;
}
