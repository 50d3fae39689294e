/**
 * Words followers send on their own in ordinary messages ("hola", "gracias", "sí", "info"), per
 * language, and the keyword warning built on them (issue 29 "Setting up the bot"): a keyword the
 * matcher would fire on for one of these messages, or one so short (one or two characters) that it
 * appears inside many words, hijacks ordinary messages and sends its file instead of an answer.
 * The warning runs the engine's own matcher ({@link matchFiles}) on each word, so it says exactly
 * what the bot would do. Browser-safe (no Node imports): the dashboard's file modal imports it.
 * The greetings also tell the offline responder that a message is a greeting, and in which
 * language (engine/conversation/language.ts).
 */
import type { LangCode } from '../schemas.ts';
import { foldAccents, keywordParts, matchFiles } from './index.ts';

/**
 * Greetings alone, per language, accent-folded and lowercase; a multi-word greeting is one entry
 * ("buenas tardes"). A greeting listed in several languages ("hey") says nothing of the language.
 */
export const GREETINGS: Readonly<Record<LangCode, readonly string[]>> = {
  es: [
    'hola',
    'buenas',
    'buenos dias',
    'buenas tardes',
    'buenas noches',
    'saludos',
    'que tal',
    'hey',
    'ey',
    'holi',
  ],
  en: ['hi', 'hello', 'hey', 'hiya', 'good morning', 'good afternoon', 'good evening', 'greetings'],
  fr: ['bonjour', 'bonsoir', 'salut', 'coucou', 'bonne journee', 'bonne soiree'],
  de: ['hallo', 'hey', 'servus', 'moin', 'guten morgen', 'guten tag', 'guten abend', 'gruss gott', 'gruezi'],
  it: ['ciao', 'salve', 'buongiorno', 'buonasera', 'buon pomeriggio', 'buona sera', 'buona giornata'],
  ru: ['привет', 'здравствуйте', 'здравствуй', 'добрый день', 'доброе утро', 'добрый вечер', 'здорово'],
  hi: ['नमस्ते', 'नमस्कार', 'प्रणाम', 'राम राम', 'namaste'],
};

/**
 * Messages sent alone that are not a request for a file: greetings, thanks, yes and no, "ok",
 * "info", "please", "help", "bye" (issue 29: "hola", "gracias", "sí", "info"), per language.
 */
export const COMMON_MESSAGES: Readonly<Record<LangCode, readonly string[]>> = {
  es: [
    ...GREETINGS.es,
    'gracias',
    'si',
    'sí',
    'no',
    'vale',
    'ok',
    'info',
    'informacion',
    'ayuda',
    'adios',
    'por favor',
  ],
  en: [...GREETINGS.en, 'thanks', 'thank you', 'yes', 'no', 'ok', 'okay', 'info', 'help', 'please', 'bye'],
  fr: [...GREETINGS.fr, 'merci', 'oui', 'non', 'ok', 'info', 'aide', 'svp', 'au revoir'],
  de: [...GREETINGS.de, 'danke', 'ja', 'nein', 'ok', 'info', 'hilfe', 'bitte', 'tschuss'],
  it: [...GREETINGS.it, 'grazie', 'si', 'sì', 'no', 'ok', 'info', 'aiuto', 'prego', 'arrivederci'],
  ru: [...GREETINGS.ru, 'спасибо', 'да', 'нет', 'ок', 'инфо', 'помощь', 'пожалуйста', 'пока'],
  hi: [...GREETINGS.hi, 'धन्यवाद', 'शुक्रिया', 'हाँ', 'हां', 'नहीं', 'ठीक', 'जानकारी', 'मदद', 'कृपया'],
};

/** Keyword parts at most this long appear inside many words: the matcher fires on them. */
export const SHORT_KEYWORD_CHARS = 2;

/** One warning about one keyword of a list. */
export interface KeywordWarning {
  /** The keyword part as stored (lowercase). */
  keyword: string;
  /** `short`: one or two characters; `common`: an ordinary message would send the file. */
  kind: 'short' | 'common';
  /** For `common`: the ordinary message that would send the file ("hola"). */
  message: string;
}

const ALL_COMMON = [...new Set(Object.values(COMMON_MESSAGES).flat())];

/**
 * The keywords of a list (as the owner typed it or as stored) that would hijack ordinary messages,
 * at most one warning per keyword, in the list's order. `"hola, carta, a"` →
 * `[{ keyword: 'hola', kind: 'common', message: 'hola' }, { keyword: 'a', kind: 'short', message: '' }]`.
 * A keyword that merely contains a common word is caught too when the matcher would fire
 * ("audiohola" is sent for "hola": a message of 3+ characters inside a keyword matches, spec 001 §5).
 */
export function keywordWarnings(keyword: string): KeywordWarning[] {
  const out: KeywordWarning[] = [];
  for (const part of keywordParts(keyword)) {
    if ([...part].length <= SHORT_KEYWORD_CHARS) {
      out.push({ keyword: part, kind: 'short', message: '' });
      continue;
    }
    const file = { id: part, file_name: '', keyword: part, context: '' };
    const hit = ALL_COMMON.find((message) => matchFiles(message, [file]).action !== 'NONE');
    if (hit) out.push({ keyword: part, kind: 'common', message: hit });
  }
  return out;
}

/** A message in the form greetings are listed in: accent-folded, lowercase, words split by one space. */
function greetingForm(message: string): string {
  return foldAccents(message)
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ')
    .trim();
}

const GREETING_LANGS = new Map<string, LangCode[]>();
for (const [lang, list] of Object.entries(GREETINGS) as Array<[LangCode, readonly string[]]>)
  for (const g of list) {
    const key = greetingForm(g);
    GREETING_LANGS.set(key, [...(GREETING_LANGS.get(key) ?? []), lang]);
  }
const LONGEST_GREETING_WORDS = Math.max(...[...GREETING_LANGS.keys()].map((g) => g.split(' ').length));

/**
 * The languages a message that is only greetings is in ("Hola, buenas!" → `['es']`, "hey" →
 * `['es', 'en', 'de']`), or null when the message says anything else ("hola, ¿abrís hoy?").
 * Greetings are read longest first, so "buenas tardes" is one greeting; the languages are those
 * of the first one.
 */
export function greetingLanguages(message: string): LangCode[] | null {
  const words = greetingForm(message).split(' ').filter(Boolean);
  if (words.length === 0 || words.length > 8) return null;
  let langs: LangCode[] | null = null;
  let i = 0;
  while (i < words.length) {
    let found: LangCode[] | undefined;
    let n = Math.min(LONGEST_GREETING_WORDS, words.length - i);
    for (; n > 0 && !found; n--) found = GREETING_LANGS.get(words.slice(i, i + n).join(' '));
    if (!found) return null;
    langs ??= found;
    i += n + 1;
  }
  return langs;
}
