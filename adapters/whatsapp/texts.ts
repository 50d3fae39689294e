/**
 * What the WhatsApp channel says by itself. Owner-facing errors are Spanish like the rest of the
 * API's messages (spec 000 §5 and §8 give several; the others follow their tone); the few words a
 * follower sees (the interactive list's button) are in the bot's language.
 */
import type { LangCode } from '../../engine/schemas.ts';

/** Errors of the WhatsApp routes and health notes (owner-facing, Spanish). */
export const WHATSAPP_ERRORS = {
  /** Spec 000 §5: connecting WhatsApp needs a configured bot (issue 29: without the spec's "ChatGPT"). */
  configureFirst: 'Primero debes configurar la información de tu Bot en el paso anterior.',
  /** Spec 000 §5: requesting a number needs the user and chatbot ids. */
  missingData: 'Faltan datos para solicitar número de WhatsApp',
  /** Spec 000 §8. */
  requestFailed: 'Error al solicitar número de WhatsApp',
  noDays:
    'Tu bot está desconectado por falta de días. Renueva tu suscripción para conectar WhatsApp; tu número se conserva.',
  badPhone: 'Escribe el número con el prefijo del país y solo dígitos, p. ej. 34612345678.',
  notLinking: 'No hay ninguna vinculación en curso. Pulsa «Conectar número» para empezar.',
  pairingUnavailable:
    'WhatsApp aún no está listo para dar un código de vinculación. Espera a que aparezca el código QR e inténtalo de nuevo.',
  cloudRequired:
    'Indica el identificador del número, el de la cuenta de WhatsApp Business y el token de acceso.',
  cloudTokenRejected: 'Meta rechazó el token de acceso o el número no pertenece a esa cuenta: {reason}',
  cloudUnreachable: 'No se pudo contactar con Meta. Inténtalo de nuevo en unos minutos.',
  cloudInUse: 'Este número de WhatsApp ya está conectado a otro chatbot. Desconéctalo allí primero.',
  cloudNoSecret:
    'Falta el secreto de la app de Meta: sin él no se pueden comprobar los mensajes que envía Meta. Indícalo en el formulario; si no lo tienes, tu operador puede configurarlo en el servidor.',
  metaNotConfigured:
    'El inicio de sesión con Facebook no está disponible en este servidor; tu operador puede activarlo.',
  metaNoBusinesses: 'Tu cuenta de Facebook no administra ninguna empresa (portfolio empresarial de Meta).',
  metaNoWhatsApp: 'Tu empresa no tiene ninguna cuenta de WhatsApp Business con un número de teléfono.',
  metaUnexpected: 'Error inesperado al conectar con Meta: {reason}',
  // Health notes the owner reads (the connection's last error).
  loggedOut:
    'WhatsApp cerró la sesión de este dispositivo vinculado (se desvinculó desde el teléfono o caducó). Vuelve a vincular el número.',
  qrExpired: 'El código QR caducó sin escanearse. Pulsa «Reintentar» para obtener uno nuevo.',
  /** Issue 28 §3: the linking failed on the network, not on the QR code (LINK_NETWORK_TEXTS.es). */
  linkNetwork:
    'No se pudo conectar con WhatsApp: comprueba la conexión a internet del servidor. Pulsa «Reintentar» cuando vuelva.',
  replaced: 'Otra conexión abrió esta misma sesión de WhatsApp; se reintenta la conexión.',
  heldElsewhere: 'Otro proceso de Charla mantiene abierta esta sesión de WhatsApp.',
  window24h:
    'No se envió la respuesta a {chat}: han pasado más de 24 horas desde su último mensaje (WhatsApp solo permite mensajes libres dentro de esa ventana con la API Cloud).',
  fileRefused: 'WhatsApp rechazó el archivo {file}: {reason}',
  sendFailed: 'WhatsApp rechazó un mensaje a {chat}: {reason}',
} as const;

/** Fills `{name}` placeholders. */
export function fillText(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}

/**
 * The Cloud API interactive list's button (at most 20 characters) and section title (at most 24),
 * in the bot's language (WhatsApp Cloud API, interactive list messages).
 */
export const LIST_BUTTON: Record<LangCode, { button: string; section: string; body: string }> = {
  es: { button: 'Ver archivos', section: 'Archivos', body: 'Elige un archivo:' },
  en: { button: 'See files', section: 'Files', body: 'Choose a file:' },
  fr: { button: 'Voir les fichiers', section: 'Fichiers', body: 'Choisissez un fichier :' },
  de: { button: 'Dateien ansehen', section: 'Dateien', body: 'Wähle eine Datei:' },
  it: { button: 'Vedi i file', section: 'File', body: 'Scegli un file:' },
  ru: { button: 'Показать файлы', section: 'Файлы', body: 'Выберите файл:' },
  hi: { button: 'फ़ाइलें देखें', section: 'फ़ाइलें', body: 'एक फ़ाइल चुनें:' },
};

/**
 * Issue 28 §3: a linked device's linking that failed because WhatsApp could not be reached (a
 * network error or a socket closed before any QR code, or before the scan), in the seven interface
 * languages. The Spanish one is stored as the connection's last error ({@link WHATSAPP_ERRORS});
 * the dashboard shows its own translation of the failure's code (`linkFailure: 'network'`).
 */
export const LINK_NETWORK_TEXTS: Record<LangCode, string> = {
  es: WHATSAPP_ERRORS.linkNetwork,
  en: "Could not connect to WhatsApp: check the server's internet connection. Press “Retry” once it is back.",
  fr: 'Impossible de se connecter à WhatsApp : vérifiez la connexion internet du serveur. Appuyez sur « Réessayer » quand elle est rétablie.',
  de: 'Keine Verbindung zu WhatsApp möglich: Prüfe die Internetverbindung des Servers. Tippe auf „Erneut versuchen“, sobald sie wieder steht.',
  it: 'Impossibile connettersi a WhatsApp: controlla la connessione a internet del server. Premi «Riprova» quando torna.',
  ru: 'Не удалось подключиться к WhatsApp: проверьте подключение сервера к интернету. Нажмите «Повторить», когда оно восстановится.',
  hi: 'WhatsApp से कनेक्ट नहीं हो सका: सर्वर का इंटरनेट कनेक्शन जाँचें। कनेक्शन लौटने पर «फिर से कोशिश करें» दबाएँ।',
};

/**
 * Issue 28 §3: why Meta cannot deliver this server's webhooks (cloud/public-url.ts), in the seven
 * interface languages, for owners: never an environment variable's name, only what is wrong and
 * who fixes it. `private`: the address is local or private (127.0.0.1, localhost, 10.x…);
 * `notHttps`: public but plain http (Meta only calls https callback URLs).
 */
export const PUBLIC_URL_WARNINGS: Record<LangCode, Record<'private' | 'notHttps', string>> = {
  es: {
    private:
      'Meta no puede llegar a la dirección pública de este servidor ({url}): es una dirección local o privada y los mensajes de WhatsApp no llegarían. Quien administra el servidor debe darle una dirección https pública.',
    notHttps:
      'Meta solo envía los mensajes a direcciones https y la de este servidor ({url}) no lo es. Quien administra el servidor debe darle una dirección https pública.',
  },
  en: {
    private:
      "This server's public address ({url}) is not reachable by Meta: it is a local or private address, so WhatsApp messages would never arrive. Your operator must give the server a public https address.",
    notHttps:
      "Meta only delivers messages to https addresses and this server's ({url}) is not one. Your operator must give the server a public https address.",
  },
  fr: {
    private:
      'Meta ne peut pas joindre l’adresse publique de ce serveur ({url}) : c’est une adresse locale ou privée, les messages WhatsApp n’arriveraient jamais. L’administrateur du serveur doit lui donner une adresse https publique.',
    notHttps:
      'Meta n’envoie les messages qu’à des adresses https et celle de ce serveur ({url}) n’en est pas une. L’administrateur du serveur doit lui donner une adresse https publique.',
  },
  de: {
    private:
      'Meta kann die öffentliche Adresse dieses Servers ({url}) nicht erreichen: Es ist eine lokale oder private Adresse, WhatsApp-Nachrichten kämen nie an. Wer den Server betreibt, muss ihm eine öffentliche https-Adresse geben.',
    notHttps:
      'Meta stellt Nachrichten nur an https-Adressen zu, und die dieses Servers ({url}) ist keine. Wer den Server betreibt, muss ihm eine öffentliche https-Adresse geben.',
  },
  it: {
    private:
      'Meta non può raggiungere l’indirizzo pubblico di questo server ({url}): è un indirizzo locale o privato e i messaggi WhatsApp non arriverebbero mai. Chi gestisce il server deve dargli un indirizzo https pubblico.',
    notHttps:
      'Meta invia i messaggi solo a indirizzi https e quello di questo server ({url}) non lo è. Chi gestisce il server deve dargli un indirizzo https pubblico.',
  },
  ru: {
    private:
      'Meta не может достучаться до публичного адреса этого сервера ({url}): это локальный или частный адрес, и сообщения WhatsApp не дойдут. Администратор сервера должен дать ему публичный адрес https.',
    notHttps:
      'Meta доставляет сообщения только на адреса https, а адрес этого сервера ({url}) не такой. Администратор сервера должен дать ему публичный адрес https.',
  },
  hi: {
    private:
      'Meta इस सर्वर के सार्वजनिक पते ({url}) तक नहीं पहुँच सकता: यह एक लोकल या निजी पता है, इसलिए WhatsApp संदेश कभी नहीं पहुँचेंगे। सर्वर चलाने वाले को इसे एक सार्वजनिक https पता देना होगा।',
    notHttps:
      'Meta केवल https पतों पर संदेश भेजता है और इस सर्वर का पता ({url}) ऐसा नहीं है। सर्वर चलाने वाले को इसे एक सार्वजनिक https पता देना होगा।',
  },
};
