/**
 * The refusals of the owner's file route (file-routes.ts, issue 27 §3) in the dashboard's language
 * (`x-app-language`, engine/auth/mail.ts `requestLanguage`): the size and format rules are the bot
 * files' (spec 000 §5: 10 MB, pdf/jpg/png/webp/mp3/wav/ogg/aac/m4a/mp4/mov/webm).
 */
import { ALLOWED_EXTENSIONS, type LangCode } from '../../engine/schemas.ts';

/** The owner file route's texts in one language. */
export interface OwnerFileTexts {
  /** 413: over 10 MB. */
  tooBig: (name: string) => string;
  /** 415: bytes of no allowed format. */
  badFormat: (name: string) => string;
  /** 400: neither a stored file nor an upload, or both. */
  oneFile: string;
  /** 404: the picked stored file is not the bot's (deleted meanwhile). */
  unknownFile: string;
  /** 400: no follower named, or not a multipart form. */
  badForm: string;
}

const formats = ALLOWED_EXTENSIONS.join(', ');

/** {@link OwnerFileTexts} by language, Spanish first. */
export const OWNER_FILE_TEXTS: Record<LangCode, OwnerFileTexts> = {
  es: {
    tooBig: (n) => `El archivo ${n} es demasiado grande. Máximo 10MB por archivo.`,
    badFormat: (n) => `El formato del archivo ${n} no está permitido. Formatos permitidos: ${formats}.`,
    oneFile: 'Elige un archivo del bot o sube uno nuevo (solo uno).',
    unknownFile: 'Ese archivo ya no está entre los archivos del bot.',
    badForm: 'Envía el archivo como multipart/form-data con el seguidor (channel, userId).',
  },
  en: {
    tooBig: (n) => `The file ${n} is too large. 10MB per file at most.`,
    badFormat: (n) => `The format of ${n} is not allowed. Allowed formats: ${formats}.`,
    oneFile: 'Pick one of the bot’s files or upload a new one (just one).',
    unknownFile: 'That file is no longer among the bot’s files.',
    badForm: 'Send the file as multipart/form-data with the follower (channel, userId).',
  },
  fr: {
    tooBig: (n) => `Le fichier ${n} est trop volumineux. 10 Mo maximum par fichier.`,
    badFormat: (n) => `Le format du fichier ${n} n’est pas autorisé. Formats autorisés : ${formats}.`,
    oneFile: 'Choisissez un fichier du bot ou envoyez-en un nouveau (un seul).',
    unknownFile: 'Ce fichier ne fait plus partie des fichiers du bot.',
    badForm: 'Envoyez le fichier en multipart/form-data avec l’abonné (channel, userId).',
  },
  de: {
    tooBig: (n) => `Die Datei ${n} ist zu groß. Höchstens 10 MB pro Datei.`,
    badFormat: (n) => `Das Format der Datei ${n} ist nicht erlaubt. Erlaubte Formate: ${formats}.`,
    oneFile: 'Wähle eine Datei des Bots oder lade eine neue hoch (nur eine).',
    unknownFile: 'Diese Datei gehört nicht mehr zu den Dateien des Bots.',
    badForm: 'Sende die Datei als multipart/form-data mit dem Follower (channel, userId).',
  },
  it: {
    tooBig: (n) => `Il file ${n} è troppo grande. Massimo 10MB per file.`,
    badFormat: (n) => `Il formato del file ${n} non è consentito. Formati consentiti: ${formats}.`,
    oneFile: 'Scegli un file del bot o caricane uno nuovo (uno solo).',
    unknownFile: 'Quel file non è più tra i file del bot.',
    badForm: 'Invia il file come multipart/form-data con il follower (channel, userId).',
  },
  ru: {
    tooBig: (n) => `Файл ${n} слишком большой. Не более 10 МБ на файл.`,
    badFormat: (n) => `Формат файла ${n} не разрешён. Разрешённые форматы: ${formats}.`,
    oneFile: 'Выберите файл бота или загрузите новый (только один).',
    unknownFile: 'Этого файла больше нет среди файлов бота.',
    badForm: 'Отправьте файл как multipart/form-data с подписчиком (channel, userId).',
  },
  hi: {
    tooBig: (n) => `फ़ाइल ${n} बहुत बड़ी है। हर फ़ाइल अधिकतम 10MB।`,
    badFormat: (n) => `फ़ाइल ${n} का फ़ॉर्मैट अनुमत नहीं है। अनुमत फ़ॉर्मैट: ${formats}।`,
    oneFile: 'बॉट की कोई फ़ाइल चुनें या नई अपलोड करें (केवल एक)।',
    unknownFile: 'वह फ़ाइल अब बॉट की फ़ाइलों में नहीं है।',
    badForm: 'फ़ाइल को फ़ॉलोअर (channel, userId) के साथ multipart/form-data के रूप में भेजें।',
  },
};
