/**
 * What the Telegram channel says by itself. Follower-facing texts are in each bot language
 * (spec 001 §9); the owner-facing errors of the connect routes are Spanish, like the rest of the
 * API's messages (spec 000 §8 shows them after "Error al conectar Telegram: ").
 */
import type { LangCode } from '../../engine/schemas.ts';

type PerLang<T> = Record<LangCode, T>;

/** The kinds of media a follower can send that the bot stores but cannot read yet. */
export type ReceivedKind = 'voice' | 'audio' | 'photo' | 'document' | 'video' | 'sticker' | 'other';

/** Names of the media kinds, used in the "received" reply and in the stored conversation. */
export const MEDIA_NAMES: PerLang<Record<ReceivedKind, string>> = {
  es: {
    voice: 'nota de voz',
    audio: 'audio',
    photo: 'foto',
    document: 'documento',
    video: 'vídeo',
    sticker: 'sticker',
    other: 'mensaje',
  },
  en: {
    voice: 'voice note',
    audio: 'audio',
    photo: 'photo',
    document: 'document',
    video: 'video',
    sticker: 'sticker',
    other: 'message',
  },
  fr: {
    voice: 'message vocal',
    audio: 'audio',
    photo: 'photo',
    document: 'document',
    video: 'vidéo',
    sticker: 'sticker',
    other: 'message',
  },
  de: {
    voice: 'Sprachnachricht',
    audio: 'Audio',
    photo: 'Foto',
    document: 'Dokument',
    video: 'Video',
    sticker: 'Sticker',
    other: 'Nachricht',
  },
  it: {
    voice: 'messaggio vocale',
    audio: 'audio',
    photo: 'foto',
    document: 'documento',
    video: 'video',
    sticker: 'sticker',
    other: 'messaggio',
  },
  ru: {
    voice: 'голосовое сообщение',
    audio: 'аудио',
    photo: 'фото',
    document: 'документ',
    video: 'видео',
    sticker: 'стикер',
    other: 'сообщение',
  },
  hi: {
    voice: 'वॉइस नोट',
    audio: 'ऑडियो',
    photo: 'फ़ोटो',
    document: 'दस्तावेज़',
    video: 'वीडियो',
    sticker: 'स्टिकर',
    other: 'संदेश',
  },
};

/**
 * The reply to media without text: the bot keeps it in the conversation (the owner sees it) and
 * asks for words, since transcription comes with the audio plugin. `{media}` is a MEDIA_NAMES entry.
 */
export const MEDIA_RECEIVED: PerLang<string> = {
  es: 'He recibido tu {media}. Por ahora solo puedo leer mensajes de texto: ¿me lo cuentas por escrito?',
  en: 'I got your {media}. For now I can only read text messages: could you write it down for me?',
  fr: 'J’ai bien reçu votre {media}. Pour l’instant je ne lis que les messages texte : pouvez-vous me l’écrire ?',
  de: 'Ich habe deine {media} erhalten. Im Moment kann ich nur Textnachrichten lesen: Kannst du es mir schreiben?',
  it: 'Ho ricevuto il tuo {media}. Per ora posso leggere solo messaggi di testo: me lo scrivi?',
  ru: 'Я получил ваше {media}. Пока я читаю только текстовые сообщения: напишите, пожалуйста, текстом.',
  hi: 'मुझे आपका {media} मिल गया। अभी मैं केवल टेक्स्ट संदेश पढ़ सकता हूँ: क्या आप इसे लिखकर बता सकते हैं?',
};

/** Errors of `POST /api/verify-telegram` and `/api/remove-telegram` (owner-facing, Spanish). */
export const TELEGRAM_ERRORS = {
  /** Spec 000 §5. */
  missingData: 'Faltan datos para conectar.',
  /** Spec 000 §5: with no saved bot. */
  saveFirst: 'Primero guarda la configuración del chatbot',
  required: 'Indica el token del bot y su nombre de usuario (sin @).',
  badTokenFormat:
    'El token no tiene el formato de Telegram (números, dos puntos y letras), p. ej. 123456789:AA…',
  tokenRejected: 'Telegram rechazó el token. Cópialo de nuevo desde @BotFather.',
  usernameMismatch: 'El nombre de usuario no coincide: el token es del bot @{actual}.',
  unreachable: 'No se pudo contactar con Telegram. Inténtalo de nuevo en unos minutos.',
  inUse: 'Este bot de Telegram ya está conectado a otro chatbot. Desconéctalo allí primero.',
  notConnected: 'Este chatbot no tiene Telegram conectado.',
} as const;
