/**
 * What the Telegram channel says by itself. Follower-facing texts are in each bot language
 * (spec 001 §9); the owner-facing errors of the connect routes are Spanish, like the rest of the
 * API's messages (spec 000 §8 shows them after "Error al conectar Telegram: ").
 */

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
