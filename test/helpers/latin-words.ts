/**
 * Issue 29 "Language": which Latin-script words in a Hindi or Russian text would be untranslated
 * Spanish or English. Allowed, on principle rather than by key: brand and product names
 * ({@link LATIN_ALLOWED}), file formats, technical terms these languages write in Latin letters
 * (webhook, SDK, push, e-mail), and what is not a word to translate — `{{placeholders}}`, markup
 * tags, URLs, e-mails, @handles, /commands, key shortcuts (alt+T), anything with a digit (tokens, sizes, times),
 * identifiers (snake_case, camelCase, dotted names), literals in quotes («Start», “bot”), another
 * app's menu paths ("Appearance → Theme File Editor") and proper names (two or more capitalised
 * words in a row: "El Pato Pepe", "LM Studio").
 */
import { ALLOWED_EXTENSIONS } from '../../engine/schemas.ts';

/** Brand, product and technical words an owner may read in Latin letters in any language. */
export const LATIN_ALLOWED = new Set(
  [
    // Charla's own names and the channels'.
    'Charla',
    'Facebots',
    'IALanding',
    'Telegram',
    'BotFather',
    'WhatsApp',
    'Meta',
    'Facebook',
    'Business',
    'Cloud',
    'Stripe',
    'WordPress',
    'WPCode',
    'Google',
    'Apple',
    'Android',
    'iPhone',
    'Chrome',
    'Safari',
    'Firefox',
    'OpenAI',
    'ChatGPT',
    'Ollama',
    // Technical terms written in Latin letters in Hindi and Russian too.
    'AI',
    'LLM',
    'API',
    'SDK',
    'ID',
    'QR',
    'URL',
    'HTTP',
    'HTTPS',
    'SMTP',
    'JSON',
    'CSV',
    'ICS',
    'HTML',
    'PWA',
    'iOS',
    'OK',
    'MB',
    'KB',
    'GB',
    'webhook',
    'polling',
    'long',
    'push',
    'e-mail',
    'email',
    'README',
    'Key',
    ...ALLOWED_EXTENSIONS,
    'OGG',
    'WebM',
    'PDF',
    // Language names in their own language (the language pickers: spec 000 §1).
    'Español',
    'English',
    'Français',
    'Deutsch',
    'Italiano',
  ].map((w) => w.toLowerCase()),
);

const LETTER = 'A-Za-zÀ-ÖØ-öø-ɏ';

/** What in `text` is not a word to translate (see the module comment), blanked. */
function strip(text: string): string {
  return text
    .replace(/\{\{\w+\}\}/g, ' ')
    .replace(/<\/?[\w-]+>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\S+@\S+\.\S+/g, ' ')
    .replace(/@\w+/g, ' ')
    .replace(/(^|\s)\/\w+/g, ' ')
    .replace(/\b\w+\+\w+\b/g, ' ')
    .replace(/«[^»]*»|“[^”]*”|"[^"]*"/g, ' ')
    .replace(/\S*\d\S*/g, ' ')
    .replace(/[\w-]+[._][\w.-]+/g, ' ')
    .replace(/(?:[A-Z][\w ]*?\s*[→›]\s*)+(?:[A-Z][\w ]*)?/g, ' ')
    .replace(/\b[a-z]+[A-Z]\w*/g, ' ')
    .replace(
      new RegExp(`\\b[A-ZÀ-Ý][${LETTER}]*\\.?(?:\\s+(?:for|of|de|la|el)?\\s*[A-ZÀ-Ý][${LETTER}]*\\.?)+`, 'g'),
      ' ',
    );
}

/** The Latin-script words of `text` that are none of the allowed kinds (see the module comment). */
export function latinWords(text: string): string[] {
  return (strip(text).match(new RegExp(`[${LETTER}]+(?:-[${LETTER}]+)?`, 'g')) ?? []).filter(
    (w) => !LATIN_ALLOWED.has(w.toLowerCase()),
  );
}
