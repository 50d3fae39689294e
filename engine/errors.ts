/**
 * Errors the engine and the HTTP layer raise on purpose. Each carries a stable code, the HTTP
 * status the one error handler maps it to, and a message for the user (the spec's text where it
 * gives one). Anything else is an unexpected failure and becomes a 500 without details.
 */

/** Stable error codes. */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  /** The request is understood and refused (a bot whose service is off, a cross-site request). */
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'LIMIT_REACHED'
  /** A service Charla depends on (Telegram, Meta) could not be reached or failed. */
  | 'UPSTREAM'
  /** Too many requests in a window (rate limits). */
  | 'RATE_LIMITED';

const STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  LIMIT_REACHED: 422,
  UPSTREAM: 502,
  RATE_LIMITED: 429,
};

/** An expected error with a user-facing message. */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

/** Spec 000 §8 generic server failure (also the 503 while the database cannot be reached). */
export const SERVER_ERROR = 'Error en el servidor. Por favor, inténtalo más tarde.';
/** A request whose data the server cannot take (the start of the validation error's text). */
export const INVALID_DATA = 'Datos no válidos.';

/** Spec 000 §8 (test chat, 404): the bot does not exist. */
export const BOT_NOT_FOUND = 'No existe configuración para tu bot. ¡Configúralo y vuelve a intentarlo!';
/** Shorthand for a 404 with the spec's bot-not-found text. */
export function botNotFound(): AppError {
  return new AppError('NOT_FOUND', BOT_NOT_FOUND);
}
