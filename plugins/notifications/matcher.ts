/**
 * "A follower asks for a person" (issue 27 §1, §2), in the seven languages Charla speaks (es, en,
 * fr, de, it, ru, hi): a small set of phrase patterns over the follower's text with case, Latin
 * accents and apostrophes normalised. Deliberately narrow (a verb of talking with a word for a
 * person): "la persona que me atendió" is no request, "quiero hablar con una persona" is.
 */
import type { LangCode } from '../../engine/schemas.ts';

/**
 * Lower case, Latin accents off (á → a, ñ → n, ü → u, й → и), typographic apostrophes as `'`,
 * spaces collapsed. Devanagari's vowel signs are kept (they are marks, but not Latin accents).
 */
export function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[’`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

const PATTERNS: ReadonlyArray<[LangCode, RegExp]> = [
  [
    'es',
    /\b(hablar|habla|hable|comunicarme|contactar|hablame|pasame|pongame|ponme)\s+(con\s+)?(una?\s+|el\s+|la\s+|alguna?\s+)?(persona|humano|humana|ser humano|agente|encargad[oa]|duen[oa]|responsable|alguien)\b/,
  ],
  ['es', /\b(una persona real|atencion humana|un humano por favor|quiero un humano|quiero una persona)\b/],
  [
    'en',
    /\b(talk|speak|chat)\s+(to|with)\s+(a\s+|an\s+|the\s+|some\s+|real\s+)*(human|person|people|agent|someone|somebody|owner|manager|staff|operator)\b/,
  ],
  ['en', /\b(real person|human agent|live agent|a human please)\b/],
  [
    'fr',
    /\bparler\s+(a|avec)\s+(quelqu'un|un\s+humain|une\s+personne|un\s+conseiller|une\s+conseillere|un\s+agent|un\s+responsable|le\s+responsable|une\s+vraie\s+personne)/,
  ],
  ['fr', /\b(une vraie personne|un etre humain)\b/],
  [
    'de',
    /\bmit\s+(einem|einer|jemandem|dem|der)\s*(echten\s+)?(menschen|person|mitarbeiter(in)?|inhaber(in)?)?\s*(sprechen|reden)\b/,
  ],
  ['de', /\b(echten menschen|einen menschen sprechen)\b/],
  [
    'it',
    /\bparlare\s+con\s+(una\s+persona|un\s+umano|un\s+operatore|un'operatrice|qualcuno|il\s+titolare|un\s+responsabile)/,
  ],
  ['it', /\b(una persona vera|una persona reale)\b/],
  [
    'ru',
    /(поговорить|говорить|связаться|соедините)\s+(меня\s+)?с\s+(живым\s+)?(человеком|оператором|менеджером|сотрудником|владельцем)/,
  ],
  ['ru', /живо(и|й)\s+человек/],
  ['hi', /(इंसान|इन्सान|व्यक्ति|आदमी|मनुष्य|एजेंट|किसी)\s*से\s*बात/],
  ['hi', /\b(insaan|insan|kisi)\s+se\s+baat\b/],
];

/**
 * The language of the first phrase found asking for a person, or null when the text asks for none.
 * Pure; the patterns of every language are tried (a follower may write in another one than the bot).
 */
export function asksForPerson(text: string): LangCode | null {
  const t = normalise(text);
  if (!t) return null;
  for (const [lang, re] of PATTERNS) if (re.test(t)) return lang;
  return null;
}
