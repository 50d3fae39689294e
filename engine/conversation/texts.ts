/**
 * The texts a bot says by itself, in each bot language: the greeting (localised by `idioma`,
 * spec 000 §2), the failure text (spec 000 §8), the list offer and the offline replies; the
 * sentences that go with a file are in ./file-sentences.ts.
 */
import type { LangCode } from '../schemas.ts';

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
