/**
 * The follower's language, for the offline responder (issue 29 "Setting up the bot"): it answers in
 * the language the follower wrote in when that can be told, and in the bot's language otherwise.
 * - A message that is only greetings ("hola", "hi", "bonjour", "привет", "नमस्ते") is a greeting, in
 *   the greeting's language (engine/matching/stoplist.ts); one several languages share ("hey") is
 *   in the bot's language.
 * - Other messages go to `eld` (Efficient Language Detector, n-gram tables, offline, pure JS; its
 *   `small` table, limited to the seven bot languages). Its answer counts only when it calls it
 *   reliable and the bot's language does not score close to it (within {@link CLOSE_SCORE}), so
 *   "la carta", "menu" or "ok" stay in the bot's language.
 * `eld` was chosen over `tinyld` and `franc-min` on short chat messages in es/en/fr/de/it/ru/hi
 * (70 questions: eld `small` 70/70 at ~10 µs a message, its `extrasmall` 69/70 ("Dove siete?" read
 * as Spanish), tinyld 70/70 at ~90 µs, franc-min 59/70 at ~25 µs). Its table (1.6 MB of JS, about
 * 1 s and 50 MB of heap to build) is loaded on the first offline turn, never on servers with an LLM.
 */
import { greetingLanguages } from '../matching/stoplist.ts';
import { LANG_CODES, type LangCode } from '../schemas.ts';

/** What the offline responder knows of the follower's message. */
export interface FollowerReading {
  /** The language the reply's own sentences are in. */
  lang: LangCode;
  /** True when the message is only a greeting: it gets a greeting back, not a file offer. */
  greeting: boolean;
}

/** The bot's language is kept when its score is at least this share of the detected one's. */
export const CLOSE_SCORE = 0.9;

/** The part of `eld` used here. */
export interface LanguageDetector {
  detect(text: string): {
    language: string;
    isReliable(): boolean;
    getScores(): Record<string, number>;
  };
}

let loading: Promise<LanguageDetector> | undefined;

/** The detector, loaded once per process on first use (see the module note). */
export function languageDetector(): Promise<LanguageDetector> {
  loading ??= import('eld/small').then(
    ({ eld }) => {
      eld.setLanguageSubset([...LANG_CODES]);
      return eld;
    },
    // Without its table the bot's language is kept (greetings are still read): never a failed turn.
    (): LanguageDetector => ({
      detect: () => ({ language: '', isReliable: () => false, getScores: () => ({}) }),
    }),
  );
  return loading;
}

const isLang = (code: string): code is LangCode => (LANG_CODES as readonly string[]).includes(code);

/**
 * Reads a follower's message with a loaded detector (pure, synchronous; see the module note).
 * `readMessage(d, 'What time do you open?', 'es')` → `{ lang: 'en', greeting: false }`;
 * `readMessage(d, '¡Hola!', 'en')` → `{ lang: 'es', greeting: true }`;
 * `readMessage(d, 'menu', 'es')` → `{ lang: 'es', greeting: false }`.
 */
export function readMessage(detector: LanguageDetector, message: string, botLang: LangCode): FollowerReading {
  const greeting = greetingLanguages(message);
  if (greeting) {
    const lang = greeting.includes(botLang) || greeting.length !== 1 ? botLang : greeting[0]!;
    return { lang, greeting: true };
  }
  const found = detector.detect(message);
  if (!isLang(found.language) || found.language === botLang || !found.isReliable())
    return { lang: botLang, greeting: false };
  const scores = found.getScores();
  const close = (scores[botLang] ?? 0) >= (scores[found.language] ?? 0) * CLOSE_SCORE;
  return { lang: close ? botLang : found.language, greeting: false };
}

/** {@link readMessage} with the process's detector, loading it on first use. */
export async function readFollower(message: string, botLang: LangCode): Promise<FollowerReading> {
  return readMessage(await languageDetector(), message, botLang);
}
