/**
 * What the WhatsApp channel says by itself. Owner-facing errors are Spanish like the rest of the
 * API's messages (spec 000 §5 and §8 give several; the others follow their tone); the few words a
 * follower sees (the interactive list's button) are in the bot's language.
 */
import type { LangCode } from '../../engine/schemas.ts';

/** Errors of the WhatsApp routes and health notes (owner-facing, Spanish). */
export const WHATSAPP_ERRORS = {
  /** Spec 000 §5: connecting WhatsApp needs a configured bot. */
  configureFirst:
    'Primero debes configurar la información de tu Bot en el paso anterior (conexión a ChatGPT).',
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
    'Falta el secreto de la app de Meta: sin él no se pueden comprobar los mensajes que envía Meta. Indícalo en el formulario o pide al administrador que configure META_APP_SECRET.',
  metaNotConfigured: 'El inicio de sesión con Facebook no está configurado en este servidor (META_APP_ID).',
  metaNoBusinesses: 'Tu cuenta de Facebook no administra ninguna empresa (portfolio empresarial de Meta).',
  metaNoWhatsApp: 'Tu empresa no tiene ninguna cuenta de WhatsApp Business con un número de teléfono.',
  metaUnexpected: 'Error inesperado al conectar con Meta: {reason}',
  // Health notes the owner reads (the connection's last error).
  loggedOut:
    'WhatsApp cerró la sesión de este dispositivo vinculado (se desvinculó desde el teléfono o caducó). Vuelve a vincular el número.',
  qrExpired: 'El código QR caducó sin escanearse. Pulsa «Reintentar» para obtener uno nuevo.',
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
