/**
 * Shared constants and zod schemas: the one source of truth for the values the spec fixes
 * (categories, styles, bot languages, file limits) and for the shapes that cross the HTTP
 * boundary. The dashboard imports this module, so it must stay browser-safe (no node: imports).
 */
import { z } from 'zod';

/** Bot categories, stored without their emoji prefix (spec 000 §1, 001 §3). */
export const CATEGORIES = [
  'Empresa o Profesional',
  'Artista o Influencer',
  'Divulgador Científico o Educativo',
  'Periódico o Medio de Comunicación',
  'Grupo de Amigos',
  'Tienda o Comercio',
  'Club Deportivo o Eventos Deportivos',
] as const;
export type Category = (typeof CATEGORIES)[number];
/** Default category of a new bot (spec 000 §9). */
export const DEFAULT_CATEGORY: Category = 'Empresa o Profesional';

/** Display labels with their emoji prefix, keyed by the stored value (spec 000 §1). */
export const CATEGORY_LABELS: Record<Category, string> = {
  'Empresa o Profesional': '🏢 Empresa o Profesional',
  'Artista o Influencer': '🎨 Artista o Influencer',
  'Divulgador Científico o Educativo': '🔬 Divulgador Científico o Educativo',
  'Periódico o Medio de Comunicación': '📰 Periódico o Medio de Comunicación',
  'Grupo de Amigos': '👥 Grupo de Amigos',
  'Tienda o Comercio': '🛍️ Tienda o Comercio',
  'Club Deportivo o Eventos Deportivos': '⚽ Club Deportivo o Eventos Deportivos',
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

/** File kinds a bot can send (spec 000 §3). */
export const FILE_TYPES = ['image', 'pdf', 'audio', 'video'] as const;
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

/** Characters of a message the engine accepts in one turn; longer input is refused (400). */
export const MAX_MESSAGE_CHARS = 8000;

/** The default time zone of a bot's clock (`reloj`): the spec's default reservation time zone (001 §9). */
export const DEFAULT_TIMEZONE = 'Europe/Madrid';

/** One item of a chat history as the chat clients send it (spec 000 §3). */
export const HistoryItem = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().max(MAX_MESSAGE_CHARS),
});
export type HistoryItem = z.infer<typeof HistoryItem>;

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
