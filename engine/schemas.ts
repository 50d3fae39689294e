/**
 * Shared constants and zod schemas: the one source of truth for the values the spec fixes
 * (categories, styles, bot languages, file limits) and for the shapes that cross the HTTP
 * boundary. The dashboard imports this module, so it must stay browser-safe (no node: imports).
 */
import { z } from 'zod';
import { MAX_MESSAGE_CHARS } from './limits.ts';

/**
 * Bot categories, stored without their emoji prefix. Issue 29 §"Setting up the bot" departs from the
 * spec's seven (spec 000 §1, 001 §3): kinds of business the site sells to. Two of the spec's values
 * are renamed ({@link LEGACY_CATEGORIES}); the other five are kept as written.
 */
export const CATEGORIES = [
  'Restaurante y Comida',
  'Salud y Clínicas',
  'Belleza',
  'Educación',
  'Tienda o Comercio',
  'Servicios Profesionales',
  'Artista o Influencer',
  'Periódico o Medio de Comunicación',
  'Club Deportivo o Eventos Deportivos',
  'Grupo de Amigos',
] as const;
export type Category = (typeof CATEGORIES)[number];
/** Default category of a new bot: the spec's default (000 §9, "Empresa o Profesional") as mapped. */
export const DEFAULT_CATEGORY: Category = 'Servicios Profesionales';

/**
 * The spec's categories that issue 29 renamed, and what they are now (migration
 * 202611291320_business_categories moved stored bots; the API still accepts the old names).
 */
export const LEGACY_CATEGORIES: Readonly<Record<string, Category>> = {
  'Empresa o Profesional': 'Servicios Profesionales',
  'Divulgador Científico o Educativo': 'Educación',
};

/** A category as a request gives it: one of {@link CATEGORIES}, or a spec name it maps to. */
export const CategoryInput = z
  .string()
  .transform((c) => LEGACY_CATEGORIES[c] ?? c)
  .pipe(z.enum(CATEGORIES));

/** Display labels with their emoji prefix, keyed by the stored value (spec 000 §1; issue 29). */
export const CATEGORY_LABELS: Record<Category, string> = {
  'Restaurante y Comida': '🍽️ Restaurante y Comida',
  'Salud y Clínicas': '🩺 Salud y Clínicas',
  Belleza: '💇 Belleza',
  Educación: '🎓 Educación',
  'Tienda o Comercio': '🛍️ Tienda o Comercio',
  'Servicios Profesionales': '💼 Servicios Profesionales',
  'Artista o Influencer': '🎨 Artista o Influencer',
  'Periódico o Medio de Comunicación': '📰 Periódico o Medio de Comunicación',
  'Club Deportivo o Eventos Deportivos': '⚽ Club Deportivo o Eventos Deportivos',
  'Grupo de Amigos': '👥 Grupo de Amigos',
};

/**
 * The kind of business in the (English) system prompt's words (issue 29: the prompt reads a
 * readable name, not a stored value); an unknown value is used as it is.
 */
export const CATEGORY_PROMPT_NAMES: Record<Category, string> = {
  'Restaurante y Comida': 'a restaurant or food business',
  'Salud y Clínicas': 'a health practice or clinic',
  Belleza: 'a beauty business',
  Educación: 'an education business',
  'Tienda o Comercio': 'a shop',
  'Servicios Profesionales': 'a professional services business',
  'Artista o Influencer': 'an artist or influencer',
  'Periódico o Medio de Comunicación': 'a newspaper or media outlet',
  'Club Deportivo o Eventos Deportivos': 'a sports club or sports events',
  'Grupo de Amigos': 'a group of friends',
};

/** Communication styles (spec 000 §1). */
export const STYLES = ['formal', 'casual', 'divertido', 'técnico'] as const;
export type ChatbotStyle = (typeof STYLES)[number];
export const DEFAULT_STYLE: ChatbotStyle = 'casual';

/** Bot languages as stored in `chatbots.idioma` (spec 000 §1); English is the default. */
export const BOT_LANGUAGES = [
  'English',
  'Español',
  'Français',
  'Deutsch',
  'Italiano',
  'Русский',
  'हिंदी',
] as const;
export type BotLanguage = (typeof BOT_LANGUAGES)[number];
export const DEFAULT_BOT_LANGUAGE: BotLanguage = 'English';

/** ISO 639-1 code of each bot language, used for lexicons, greetings and date formatting. */
export const LANGUAGE_CODES: Record<BotLanguage, LangCode> = {
  English: 'en',
  Español: 'es',
  Français: 'fr',
  Deutsch: 'de',
  Italiano: 'it',
  Русский: 'ru',
  हिंदी: 'hi',
};
export const LANG_CODES = ['es', 'en', 'fr', 'de', 'it', 'ru', 'hi'] as const;
export type LangCode = (typeof LANG_CODES)[number];

/**
 * Maps whatever a client or an old row holds in `idioma` (a stored label, an ISO code, a
 * lowercase or unaccented spelling) to a language code; unknown values give English, the
 * spec's default bot language.
 */
export function languageCode(idioma: string | null | undefined): LangCode {
  if (!idioma) return 'en';
  const value = idioma.trim();
  if ((BOT_LANGUAGES as readonly string[]).includes(value)) return LANGUAGE_CODES[value as BotLanguage];
  const lower = value.toLowerCase();
  if ((LANG_CODES as readonly string[]).includes(lower)) return lower as LangCode;
  const aliases: Record<string, LangCode> = {
    spanish: 'es',
    espanol: 'es',
    español: 'es',
    english: 'en',
    ingles: 'en',
    inglés: 'en',
    french: 'fr',
    francais: 'fr',
    français: 'fr',
    german: 'de',
    deutsch: 'de',
    italian: 'it',
    italiano: 'it',
    russian: 'ru',
    русский: 'ru',
    hindi: 'hi',
    हिंदी: 'hi',
  };
  return aliases[lower] ?? 'en';
}

/**
 * The bot language of an interface language (issue 10: a new bot speaks the language its owner
 * uses the dashboard in): the inverse of {@link LANGUAGE_CODES}; an unknown code gives English,
 * the spec's default bot language (000 §1).
 */
export function botLanguageFor(code: string | null | undefined): BotLanguage {
  const lang = (code ?? '').trim().toLowerCase().split('-')[0];
  const found = BOT_LANGUAGES.find((l) => LANGUAGE_CODES[l] === lang);
  return found ?? DEFAULT_BOT_LANGUAGE;
}

/**
 * Plans that count as paid whatever their expiry (spec 000 §4, 001 §4: "premium or monthly"). The
 * server's gate (engine/auth/profiles.ts isPaid) and the dashboard's plan badge both read this.
 */
export const SUBSCRIPTION_PLANS = ['premium', 'monthly'] as const;
export type SubscriptionPlan = (typeof SUBSCRIPTION_PLANS)[number];

/** True for a plan of {@link SUBSCRIPTION_PLANS}. */
export function isSubscriptionPlan(plan: string | null | undefined): plan is SubscriptionPlan {
  return (SUBSCRIPTION_PLANS as readonly (string | null | undefined)[]).includes(plan);
}

/**
 * File kinds a bot can send (spec 000 §3), and `document` (.txt, .md, .docx: issue 30 §1, its text
 * answers followers; sent as a document, as a PDF is).
 */
export const FILE_TYPES = ['image', 'pdf', 'audio', 'video', 'document'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** Allowed upload extensions (spec 000 §5). */
export const ALLOWED_EXTENSIONS = [
  'pdf',
  'jpg',
  'jpeg',
  'png',
  'webp',
  'mp3',
  'wav',
  'ogg',
  'aac',
  'm4a',
  'mp4',
  'mov',
  'm4v',
  'webm',
  'txt',
  'md',
  'docx',
] as const;

/** File limits (spec 000 §5 and §9): bytes and counts. */
export const FILE_LIMITS = {
  /** 10 MB per file, in bytes. */
  maxFileBytes: 10 * 1024 * 1024,
  /** 10 files per bot. */
  maxFilesPerBot: 10,
  /** 100 MB per bot, in bytes. */
  maxBotBytes: 100 * 1024 * 1024,
} as const;

/**
 * Characters of a bot's public description (issue 10 §7; not in the spec): a few sentences for the
 * IALanding's hero and link previews.
 */
export const PUBLIC_DESCRIPTION_MAX = 500;

export { MAX_MESSAGE_CHARS };

/** The default time zone of a bot's clock (`reloj`): the spec's default reservation time zone (001 §9). */
export const DEFAULT_TIMEZONE = 'Europe/Madrid';

/** One item of a chat history as the chat clients send it (spec 000 §3). */
export const HistoryItem = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().max(MAX_MESSAGE_CHARS),
});
export type HistoryItem = z.infer<typeof HistoryItem>;

/**
 * A history item as a client sends it (`messageHistory`, spec 000 §3): content longer than
 * {@link MAX_MESSAGE_CHARS} is cut to its first MAX_MESSAGE_CHARS characters instead of refusing the
 * turn (issue 10: one over-long message, resent as history by the client, made every later turn
 * fail). History is context for the reply, so its start is enough; the new message itself is still
 * refused over the limit.
 */
export const HistoryItemInput = HistoryItem.extend({
  content: z
    .string()
    .transform((text) => {
      if (text.length <= MAX_MESSAGE_CHARS) return text;
      // Never cut between the two halves of a surrogate pair (an emoji).
      const end = /[\uD800-\uDBFF]/.test(text[MAX_MESSAGE_CHARS - 1]!)
        ? MAX_MESSAGE_CHARS - 1
        : MAX_MESSAGE_CHARS;
      return text.slice(0, end);
    })
    .describe(`Longer than ${MAX_MESSAGE_CHARS} characters: cut to its first ${MAX_MESSAGE_CHARS}.`),
});

/** A file as the engine offers or sends it (`archivos.lista`, `archivosDisponibles`). */
export const FileRef = z.object({
  id: z.string(),
  file_name: z.string(),
  file_type: z.enum(FILE_TYPES),
  keyword: z.string(),
});
export type FileRef = z.infer<typeof FileRef>;

/** What the engine does with files on a turn: send one, offer a list, or nothing (spec 001 §7). */
export const FileAction = z.enum(['SEND', 'LIST', 'NONE']);
export type FileAction = z.infer<typeof FileAction>;

/** `contenedorEmpatico.archivos` (spec 000 §7): LIST sets the offered list, any other action clears it. */
export const ArchivosBlock = z.object({
  action: FileAction,
  lista: z.array(FileRef),
});
export type ArchivosBlock = z.infer<typeof ArchivosBlock>;

/** A file sent with a reply (spec 000 §7 `attachment`). `url` is absolute when PUBLIC_URL is known. */
export const Attachment = z.object({
  url: z.string(),
  type: z.enum(FILE_TYPES),
  name: z.string(),
  mime: z.string(),
  fileId: z.string(),
  caption: z.string(),
});
export type Attachment = z.infer<typeof Attachment>;

/** The follower's emotional state as the empathy container reads it. */
export const EMOTIONAL_STATES = ['neutral', 'contento', 'frustrado', 'urgente', 'confundido'] as const;
export type EmotionalState = (typeof EMOTIONAL_STATES)[number];

/** `contenedorEmpatico` with exactly the fields of spec 000 §7. */
export const ContenedorEmpatico = z.object({
  estadoEmpatico: z.object({
    estado: z.enum(EMOTIONAL_STATES),
    /** Strength of the state, 0 (none) to 1 (strong). */
    puntuacion: z.number().min(0).max(1),
    /** The cues that produced the state, e.g. "palabra:gracias", "mayúsculas". */
    senales: z.array(z.string()),
  }),
  historialReciente: z.array(HistoryItem),
  analisisInterno: z.object({
    textoAnalizado: z.string(),
    archivosDisponibles: z.array(FileRef),
    archivosEnviados: z.array(z.string()),
    archivoMencionado: FileRef.nullable(),
    alertas: z.array(z.string()),
    resumenContexto: z.string(),
    recomendacionAsistente: z.string(),
    reloj: z.object({
      /** ISO 8601 with the zone's offset. */
      iso: z.string(),
      zonaHoraria: z.string(),
      /** Human date and time in the bot's language. */
      texto: z.string(),
    }),
  }),
  archivos: ArchivosBlock,
});
export type ContenedorEmpatico = z.infer<typeof ContenedorEmpatico>;

/**
 * Printable ASCII and tabs only (issue 24 §7): what a credential pasted into a form may hold when it
 * goes into an HTTP header or URL (a Bot API token, a Graph API access token). A character outside
 * it (non-Latin-1, a NUL, a line break) would make `fetch` throw before anything is sent.
 */
export const PRINTABLE_ASCII = /^[\t\x20-\x7e]*$/;
