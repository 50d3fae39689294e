/**
 * What the web chat (widget and IALanding) shows around the conversation, in each bot language
 * (issue 6: "texts in the bot's language"). The Spanish ones are spec 001 §2's: "Asistente IA",
 * "Escribiendo...", "Escribe tu mensaje...". The failure text is spec 001 §8's network failure.
 */
import { z } from 'zod';
import type { LangCode } from '../../engine/schemas.ts';

/** The widget's texts (`GET /api/web/:key/config` `texts`; widget/ imports the type). */
export const WidgetTextsSchema = z.object({
  /** Subtitle under the business name: "Asistente IA". */
  title: z.string(),
  /** Typing indicator: "Escribiendo...". */
  typing: z.string(),
  /** Input placeholder and label: "Escribe tu mensaje...". */
  placeholder: z.string(),
  /** Label of the send button. */
  send: z.string(),
  /** Label of the floating button. */
  open: z.string(),
  /** Label of the close button. */
  close: z.string(),
  /** The network or technical failure text. */
  error: z.string(),
  /** Screen-reader text of a PDF link. */
  openFile: z.string(),
  /** Label of the microphone button (issue 15: a voice message). */
  record: z.string(),
  /** Label of the same button while recording. */
  stopRecording: z.string(),
  /** When the browser gives no microphone. */
  micError: z.string(),
  /** Issue 27 §3: who answers when the owner writes and set no name; `{business}` is the business name. */
  team: z.string(),
  /** The header's subtitle while a person answers (the bot is paused for this visitor). */
  person: z.string(),
  /** Said once when the visitor writes while a person answers (the bot stays quiet). */
  personNote: z.string(),
});
export type WidgetTexts = z.infer<typeof WidgetTextsSchema>;

export const WIDGET_TEXTS: Record<LangCode, WidgetTexts> = {
  es: {
    title: 'Asistente IA',
    typing: 'Escribiendo...',
    placeholder: 'Escribe tu mensaje...',
    send: 'Enviar',
    open: 'Abrir el chat',
    close: 'Cerrar el chat',
    error: 'No pudimos conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.',
    openFile: 'Abrir archivo',
    record: 'Grabar un mensaje de voz',
    stopRecording: 'Detener y enviar',
    micError: 'No se pudo acceder al micrófono.',
    team: 'Equipo de {business}',
    person: 'Te atiende una persona',
    personNote: 'Te responderá una persona en cuanto pueda.',
  },
  en: {
    title: 'AI assistant',
    typing: 'Typing...',
    placeholder: 'Write your message...',
    send: 'Send',
    open: 'Open the chat',
    close: 'Close the chat',
    error: 'We could not reach the server. Check your connection and try again.',
    openFile: 'Open file',
    record: 'Record a voice message',
    stopRecording: 'Stop and send',
    micError: 'Could not access the microphone.',
    team: '{business} team',
    person: 'A person is answering',
    personNote: 'A person will reply as soon as they can.',
  },
  fr: {
    title: 'Assistant IA',
    typing: 'En train d’écrire...',
    placeholder: 'Écrivez votre message...',
    send: 'Envoyer',
    open: 'Ouvrir le chat',
    close: 'Fermer le chat',
    error: 'Impossible de joindre le serveur. Vérifiez votre connexion et réessayez.',
    openFile: 'Ouvrir le fichier',
    record: 'Enregistrer un message vocal',
    stopRecording: 'Arrêter et envoyer',
    micError: 'Impossible d’accéder au micro.',
    team: 'Équipe de {business}',
    person: 'Une personne vous répond',
    personNote: 'Une personne vous répondra dès que possible.',
  },
  de: {
    title: 'KI-Assistent',
    typing: 'Schreibt...',
    placeholder: 'Schreibe deine Nachricht...',
    send: 'Senden',
    open: 'Chat öffnen',
    close: 'Chat schließen',
    error: 'Der Server ist nicht erreichbar. Prüfe deine Verbindung und versuche es erneut.',
    openFile: 'Datei öffnen',
    record: 'Sprachnachricht aufnehmen',
    stopRecording: 'Beenden und senden',
    micError: 'Kein Zugriff auf das Mikrofon.',
    team: 'Team von {business}',
    person: 'Ein Mensch antwortet dir',
    personNote: 'Ein Mensch antwortet dir, sobald er kann.',
  },
  it: {
    title: 'Assistente IA',
    typing: 'Sta scrivendo...',
    placeholder: 'Scrivi il tuo messaggio...',
    send: 'Invia',
    open: 'Apri la chat',
    close: 'Chiudi la chat',
    error: 'Non riusciamo a raggiungere il server. Controlla la connessione e riprova.',
    openFile: 'Apri file',
    record: 'Registra un messaggio vocale',
    stopRecording: 'Ferma e invia',
    micError: 'Impossibile accedere al microfono.',
    team: 'Team di {business}',
    person: 'Ti risponde una persona',
    personNote: 'Una persona ti risponderà appena possibile.',
  },
  ru: {
    title: 'ИИ-ассистент',
    typing: 'Печатает...',
    placeholder: 'Напишите сообщение...',
    send: 'Отправить',
    open: 'Открыть чат',
    close: 'Закрыть чат',
    error: 'Не удалось связаться с сервером. Проверьте подключение и попробуйте ещё раз.',
    openFile: 'Открыть файл',
    record: 'Записать голосовое',
    stopRecording: 'Остановить и отправить',
    micError: 'Нет доступа к микрофону.',
    team: 'Команда {business}',
    person: 'Вам отвечает человек',
    personNote: 'Вам ответит человек, как только сможет.',
  },
  hi: {
    title: 'AI सहायक',
    typing: 'लिख रहा है...',
    placeholder: 'अपना संदेश लिखें...',
    send: 'भेजें',
    open: 'चैट खोलें',
    close: 'चैट बंद करें',
    error: 'सर्वर से संपर्क नहीं हो सका। अपना कनेक्शन जाँचें और फिर से कोशिश करें।',
    openFile: 'फ़ाइल खोलें',
    record: 'वॉइस संदेश रिकॉर्ड करें',
    stopRecording: 'रोकें और भेजें',
    micError: 'माइक्रोफ़ोन तक पहुँच नहीं हो सकी।',
    team: '{business} टीम',
    person: 'एक व्यक्ति जवाब दे रहा है',
    personNote: 'एक व्यक्ति जल्द ही आपको जवाब देगा।',
  },
};

/**
 * Shown instead of the chat when the owner switched the web service off or has no days left
 * (visitors are not told which). `{business}` is the business name.
 */
export const UNAVAILABLE_TEXTS: Record<LangCode, string> = {
  es: 'El chat de {business} no está disponible en este momento. Vuelve a intentarlo más tarde.',
  en: 'The {business} chat is not available right now. Please try again later.',
  fr: 'Le chat de {business} n’est pas disponible pour le moment. Réessayez plus tard.',
  de: 'Der Chat von {business} ist gerade nicht verfügbar. Bitte versuche es später erneut.',
  it: 'La chat di {business} non è disponibile in questo momento. Riprova più tardi.',
  ru: 'Чат {business} сейчас недоступен. Попробуйте позже.',
  hi: '{business} की चैट अभी उपलब्ध नहीं है। कृपया बाद में फिर से कोशिश करें।',
};

/**
 * The 429 of every route that runs a turn (issue 24 §2), in the bot's language: the visitor is asked
 * to wait, not told which limit they met.
 */
export const TOO_MANY_TEXTS: Record<LangCode, string> = {
  es: 'Demasiados mensajes seguidos. Espera un momento y vuelve a intentarlo.',
  en: 'Too many messages in a row. Wait a moment and try again.',
  fr: 'Trop de messages à la suite. Attendez un instant et réessayez.',
  de: 'Zu viele Nachrichten hintereinander. Warte einen Moment und versuche es erneut.',
  it: 'Troppi messaggi di seguito. Aspetta un momento e riprova.',
  ru: 'Слишком много сообщений подряд. Подождите немного и попробуйте снова.',
  hi: 'लगातार बहुत सारे संदेश। थोड़ी देर रुकें और फिर से कोशिश करें।',
};

/** Spec 001 §8 texts of the IALanding and the key lookup (Spanish, as the spec gives them). */
export const WEB_ERRORS = {
  keyNotFound: 'No se encontró la configuración del bot para este IALanding.',
  landingNotFound: 'IALanding no encontrada',
  invalidUrl: 'URL no válida',
  missingChatbot: 'Error: No se encontró la configuración del chatbot.',
} as const;
