/**
 * The texts a bot says by itself, in each bot language: the greeting (localised by `idioma`,
 * spec 000 §2), the canned sentences that go with a file (image, pdf, audio, default; spec 000 §9,
 * Spanish is the source), the failure text (spec 000 §8), the list offer and the offline replies.
 */
import type { FileType, LangCode } from '../schemas.ts';

type PerLang<T> = Record<LangCode, T>;

/** The greeting a chat shows first. `{business}` is the business name. */
export const GREETINGS: PerLang<string> = {
  es: '¡Hola! Soy el asistente de {business}. ¿En qué puedo ayudarte?',
  en: 'Hi! I am the assistant of {business}. How can I help you?',
  fr: 'Bonjour ! Je suis l’assistant de {business}. Comment puis-je vous aider ?',
  de: 'Hallo! Ich bin der Assistent von {business}. Wie kann ich helfen?',
  it: 'Ciao! Sono l’assistente di {business}. Come posso aiutarti?',
  ru: 'Здравствуйте! Я ассистент {business}. Чем могу помочь?',
  hi: 'नमस्ते! मैं {business} का सहायक हूँ। मैं आपकी कैसे मदद कर सकता हूँ?',
};

/** Spec 000 §8: "No pudimos responder en este momento. Por favor, intenta de nuevo más tarde." */
export const FAILURE_TEXTS: PerLang<string> = {
  es: 'No pudimos responder en este momento. Por favor, intenta de nuevo más tarde.',
  en: 'We could not answer right now. Please try again later.',
  fr: 'Nous n’avons pas pu répondre pour le moment. Veuillez réessayer plus tard.',
  de: 'Wir konnten gerade nicht antworten. Bitte versuche es später noch einmal.',
  it: 'Non siamo riusciti a rispondere in questo momento. Riprova più tardi.',
  ru: 'Сейчас мы не смогли ответить. Пожалуйста, попробуйте позже.',
  hi: 'हम अभी जवाब नहीं दे सके। कृपया बाद में फिर से प्रयास करें।',
};

/** Canned sentences sent with a file, per type; one is chosen per turn (spec 000 §9). */
export const FILE_SENTENCES: PerLang<Record<FileType | 'default', readonly string[]>> = {
  es: {
    image: ['¡Aquí tienes la imagen! 📸', 'Te envío la imagen que buscabas. 🖼️', 'Mira esta imagen. 👀'],
    pdf: [
      'Aquí tienes el documento PDF. 📄',
      'Te envío el PDF con toda la información. 📑',
      'Te dejo el PDF por aquí. 📄',
    ],
    audio: ['Escucha este audio. 🎧', 'Te envío un audio. 🔊', 'Aquí tienes el audio. 🎙️'],
    video: ['Mira este vídeo. 🎬', 'Te envío el vídeo. 📹', 'Aquí tienes el vídeo. 🎥'],
    document: ['Aquí tienes el documento. 📄', 'Te envío el documento con la información. 📑'],
    default: ['Aquí tienes el archivo. 📎', 'Te envío el archivo que pediste. 📎'],
  },
  en: {
    image: [
      'Here is the picture! 📸',
      'Sending you the image you were looking for. 🖼️',
      'Take a look at this image. 👀',
    ],
    pdf: ['Here is the PDF document. 📄', 'Sending you the PDF with all the details. 📑'],
    audio: ['Listen to this audio. 🎧', 'Here is the audio. 🔊'],
    video: ['Watch this video. 🎬', 'Here is the video. 🎥'],
    document: ['Here is the document. 📄', 'Sending you the document with the details. 📑'],
    default: ['Here is the file. 📎', 'Sending you the file you asked for. 📎'],
  },
  fr: {
    image: ['Voici l’image ! 📸', 'Je vous envoie l’image. 🖼️'],
    pdf: ['Voici le document PDF. 📄', 'Je vous envoie le PDF avec tous les détails. 📑'],
    audio: ['Écoutez cet audio. 🎧', 'Voici l’audio. 🔊'],
    video: ['Regardez cette vidéo. 🎬', 'Voici la vidéo. 🎥'],
    document: ['Voici le document. 📄', 'Je vous envoie le document avec les détails. 📑'],
    default: ['Voici le fichier. 📎'],
  },
  de: {
    image: ['Hier ist das Bild! 📸', 'Ich schicke dir das Bild. 🖼️'],
    pdf: ['Hier ist das PDF-Dokument. 📄', 'Ich schicke dir das PDF mit allen Details. 📑'],
    audio: ['Hör dir diese Audiodatei an. 🎧', 'Hier ist die Audiodatei. 🔊'],
    video: ['Schau dir dieses Video an. 🎬', 'Hier ist das Video. 🎥'],
    document: ['Hier ist das Dokument. 📄', 'Ich schicke dir das Dokument mit den Details. 📑'],
    default: ['Hier ist die Datei. 📎'],
  },
  it: {
    image: ['Ecco l’immagine! 📸', 'Ti invio l’immagine. 🖼️'],
    pdf: ['Ecco il documento PDF. 📄', 'Ti invio il PDF con tutti i dettagli. 📑'],
    audio: ['Ascolta questo audio. 🎧', 'Ecco l’audio. 🔊'],
    video: ['Guarda questo video. 🎬', 'Ecco il video. 🎥'],
    document: ['Ecco il documento. 📄', 'Ti invio il documento con i dettagli. 📑'],
    default: ['Ecco il file. 📎'],
  },
  ru: {
    image: ['Вот изображение! 📸', 'Отправляю вам картинку. 🖼️'],
    pdf: ['Вот PDF-документ. 📄', 'Отправляю PDF со всеми подробностями. 📑'],
    audio: ['Послушайте это аудио. 🎧', 'Вот аудио. 🔊'],
    video: ['Посмотрите это видео. 🎬', 'Вот видео. 🎥'],
    document: ['Вот документ. 📄', 'Отправляю документ с подробностями. 📑'],
    default: ['Вот файл. 📎'],
  },
  hi: {
    image: ['यह रही तस्वीर! 📸', 'मैं आपको तस्वीर भेज रहा हूँ। 🖼️'],
    pdf: ['यह रहा PDF दस्तावेज़। 📄', 'मैं आपको पूरी जानकारी वाला PDF भेज रहा हूँ। 📑'],
    audio: ['यह ऑडियो सुनिए। 🎧', 'यह रहा ऑडियो। 🔊'],
    video: ['यह वीडियो देखिए। 🎬', 'यह रहा वीडियो। 🎥'],
    document: ['यह रहा दस्तावेज़। 📄', 'मैं आपको जानकारी वाला दस्तावेज़ भेज रहा हूँ। 📑'],
    default: ['यह रही फ़ाइल। 📎'],
  },
};

/** Intro of a list offer, then one numbered line per file, then how to pick. */
export const LIST_TEXTS: PerLang<{ intro: string; one: string; pick: string }> = {
  es: {
    intro: 'Tengo varios archivos que pueden interesarte:',
    one: 'Puedo enviarte este archivo:',
    pick: 'Responde con el número o el nombre del que quieras.',
  },
  en: {
    intro: 'I have several files that may interest you:',
    one: 'I can send you this file:',
    pick: 'Reply with the number or the name of the one you want.',
  },
  fr: {
    intro: 'J’ai plusieurs fichiers qui peuvent vous intéresser :',
    one: 'Je peux vous envoyer ce fichier :',
    pick: 'Répondez avec le numéro ou le nom de celui que vous voulez.',
  },
  de: {
    intro: 'Ich habe mehrere Dateien, die dich interessieren könnten:',
    one: 'Ich kann dir diese Datei schicken:',
    pick: 'Antworte mit der Nummer oder dem Namen der gewünschten Datei.',
  },
  it: {
    intro: 'Ho diversi file che potrebbero interessarti:',
    one: 'Posso inviarti questo file:',
    pick: 'Rispondi con il numero o il nome di quello che vuoi.',
  },
  ru: {
    intro: 'У меня есть несколько файлов, которые могут вас заинтересовать:',
    one: 'Я могу отправить вам этот файл:',
    pick: 'Ответьте номером или названием нужного файла.',
  },
  hi: {
    intro: 'मेरे पास कई फ़ाइलें हैं जो आपके काम की हो सकती हैं:',
    one: 'मैं आपको यह फ़ाइल भेज सकता हूँ:',
    pick: 'जो चाहिए उसका नंबर या नाम लिखकर जवाब दें।',
  },
};

/** How the offline responder opens, by the follower's state (empathy container); neutral opens with nothing. */
export const OFFLINE_OPENERS: PerLang<Record<'contento' | 'frustrado' | 'urgente' | 'confundido', string>> = {
  es: {
    contento: '¡Gracias a ti! 😊',
    frustrado: 'Siento mucho las molestias.',
    urgente: 'Voy al grano.',
    confundido: 'Te lo explico con calma.',
  },
  en: {
    contento: 'Thank you! 😊',
    frustrado: 'I am really sorry about the trouble.',
    urgente: 'Straight to the point.',
    confundido: 'Let me explain it simply.',
  },
  fr: {
    contento: 'Merci à vous ! 😊',
    frustrado: 'Je suis vraiment désolé pour ce désagrément.',
    urgente: 'Je vais droit au but.',
    confundido: 'Je vous explique simplement.',
  },
  de: {
    contento: 'Danke dir! 😊',
    frustrado: 'Das tut mir wirklich leid.',
    urgente: 'Kurz und knapp:',
    confundido: 'Ich erkläre es dir in Ruhe.',
  },
  it: {
    contento: 'Grazie a te! 😊',
    frustrado: 'Mi dispiace davvero per il disagio.',
    urgente: 'Vado dritto al punto.',
    confundido: 'Te lo spiego con calma.',
  },
  ru: {
    contento: 'Спасибо вам! 😊',
    frustrado: 'Приносим извинения за неудобства.',
    urgente: 'Коротко:',
    confundido: 'Объясню просто.',
  },
  hi: {
    contento: 'आपका धन्यवाद! 😊',
    frustrado: 'असुविधा के लिए हमें खेद है।',
    urgente: 'सीधी बात:',
    confundido: 'मैं आसान शब्दों में समझाता हूँ।',
  },
};

/**
 * The offline responder's sentences (no LLM configured). `files` and `alsoFiles` head a list of
 * files named by their context text (issue 10 §6: never by keyword); `ask` follows it.
 */
export const OFFLINE_TEXTS: PerLang<{
  /** The answer to a greeting (issue 29). */
  hello: string;
  intro: string;
  files: string;
  alsoFiles: string;
  ask: string;
  notFound: string;
  noFiles: string;
  already: string;
  contact: string;
}> = {
  es: {
    hello: '¡Hola!',
    intro: 'Soy el asistente de {business}.',
    files: 'Puedo enviarte:',
    alsoFiles: 'También puedo enviarte:',
    ask: 'Dime cuál quieres y te lo envío.',
    notFound: 'No encuentro ese dato en la información de {business}.',
    noFiles: '¿En qué más puedo ayudarte?',
    already: 'Ya te envié «{file}» más arriba. Si quieres que lo reenvíe, pídemelo por su nombre.',
    contact: 'Cuéntame qué necesitas y te ayudo.',
  },
  en: {
    hello: 'Hello!',
    intro: 'I am the assistant of {business}.',
    files: 'I can send you:',
    alsoFiles: 'I can also send you:',
    ask: 'Tell me which one you want and I will send it.',
    notFound: 'I cannot find that in what I know about {business}.',
    noFiles: 'What else can I help you with?',
    already: 'I already sent you “{file}” above. Ask for it by name if you want it again.',
    contact: 'Tell me what you need and I will help.',
  },
  fr: {
    hello: 'Bonjour !',
    intro: 'Je suis l’assistant de {business}.',
    files: 'Je peux vous envoyer :',
    alsoFiles: 'Je peux aussi vous envoyer :',
    ask: 'Dites-moi lequel vous voulez et je vous l’envoie.',
    notFound: 'Je ne trouve pas cette information sur {business}.',
    noFiles: 'Que puis-je faire d’autre pour vous ?',
    already:
      'Je vous ai déjà envoyé « {file} » plus haut. Demandez-le par son nom pour le recevoir à nouveau.',
    contact: 'Dites-moi ce dont vous avez besoin.',
  },
  de: {
    hello: 'Hallo!',
    intro: 'Ich bin der Assistent von {business}.',
    files: 'Ich kann dir schicken:',
    alsoFiles: 'Ich kann dir auch schicken:',
    ask: 'Sag mir, was du möchtest, und ich schicke es dir.',
    notFound: 'Dazu finde ich nichts in den Infos von {business}.',
    noFiles: 'Wobei kann ich noch helfen?',
    already:
      'Ich habe dir „{file}“ schon weiter oben geschickt. Frag mit dem Namen danach, wenn du es noch einmal willst.',
    contact: 'Sag mir, was du brauchst.',
  },
  it: {
    hello: 'Ciao!',
    intro: 'Sono l’assistente di {business}.',
    files: 'Posso inviarti:',
    alsoFiles: 'Posso anche inviarti:',
    ask: 'Dimmi quale vuoi e te lo invio.',
    notFound: 'Non trovo questa informazione su {business}.',
    noFiles: 'In cos’altro posso aiutarti?',
    already: 'Ti ho già inviato «{file}» più sopra. Chiedilo per nome se lo vuoi di nuovo.',
    contact: 'Dimmi di cosa hai bisogno.',
  },
  ru: {
    hello: 'Здравствуйте!',
    intro: 'Я ассистент {business}.',
    files: 'Я могу отправить:',
    alsoFiles: 'Ещё я могу отправить:',
    ask: 'Напишите, что из этого вам нужно, и я отправлю.',
    notFound: 'Я не нашёл этого в информации о {business}.',
    noFiles: 'Чем ещё могу помочь?',
    already: 'Я уже отправил «{file}» выше. Попросите его по названию, если нужно снова.',
    contact: 'Расскажите, что вам нужно.',
  },
  hi: {
    hello: 'नमस्ते!',
    intro: 'मैं {business} का सहायक हूँ।',
    files: 'मैं आपको भेज सकता हूँ:',
    alsoFiles: 'मैं आपको यह भी भेज सकता हूँ:',
    ask: 'बताइए कौन-सा चाहिए, मैं भेज दूँगा।',
    notFound: '{business} की जानकारी में मुझे यह नहीं मिला।',
    noFiles: 'मैं और किस बात में मदद कर सकता हूँ?',
    already: 'मैंने «{file}» पहले ही ऊपर भेज दिया है। दोबारा चाहिए तो उसका नाम लिखें।',
    contact: 'बताइए आपको क्या चाहिए।',
  },
};

/** Fills `{name}` placeholders. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, key: string) => values[key] ?? m);
}

/** The greeting of a bot in its language. */
export function greeting(lang: LangCode, businessName: string): string {
  return fill(GREETINGS[lang], { business: businessName });
}

/** A small stable hash (FNV-1a), so a retried turn picks the same canned sentence. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One canned sentence for a file of `type`, chosen by `seed` (the turn's message id). */
export function fileSentence(lang: LangCode, type: FileType, seed: string): string {
  const options = FILE_SENTENCES[lang][type] ?? FILE_SENTENCES[lang].default;
  return options[hash(seed) % options.length]!;
}

/** The numbered list offer in the bot's language (a single file, as a reply citing it offers it, issue 30 §3: `one`). */
export function listOffer(lang: LangCode, names: readonly string[]): string {
  const t = LIST_TEXTS[lang];
  return [names.length === 1 ? t.one : t.intro, ...names.map((n, i) => `${i + 1}. ${n}`), t.pick].join('\n');
}

/** The kinds of media a follower can send that the bot stores but cannot read yet. */
export type ReceivedKind = 'voice' | 'audio' | 'photo' | 'document' | 'video' | 'sticker' | 'other';

/** The media kind of an inbound attachment's `type` (unknown types are `other`). */
export function receivedKind(type: string | undefined): ReceivedKind {
  const kinds: readonly string[] = ['voice', 'audio', 'photo', 'document', 'video', 'sticker'];
  return type && kinds.includes(type) ? (type as ReceivedKind) : 'other';
}

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
 * asks for words (unless a plugin, such as voice transcription, turned it into text first). `{media}` is a MEDIA_NAMES entry.
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
