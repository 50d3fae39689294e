/**
 * Billing's server texts (spec 001 §4, §8 where the spec gives them; Spanish, the API's language).
 * The dashboard shows them in the owner's language by their `code`.
 */

/** Spec 001 §4: a coupon applied. */
export const COUPON_APPLIED = 'Cupón aplicado. ¡Disfruta de tus días extra!';

/** Why a coupon was refused: the API's text for each `code`. */
export const COUPON_ERRORS = {
  /** Spec 001 §4: unknown code. */
  invalid: 'Cupón inválido',
  expired: 'Este cupón ha caducado.',
  exhausted: 'Este cupón ya no tiene usos disponibles.',
  alreadyRedeemed: 'Ya has usado este cupón.',
  tooMany: 'Demasiados intentos. Espera unos minutos y vuelve a probar.',
} as const;

/** Spec 001 §8 subscription errors, and Charla's own where the spec is silent. */
export const BILLING_ERRORS = {
  /** Spec 001 §8: the checkout could not be created. */
  checkout: 'Error iniciando el pago',
  /** Spec 001 §8: cancelling the renewal failed. */
  cancel: 'Error actualizando estado',
  /** Without STRIPE_SECRET_KEY (issue 11, self-hosting). */
  paymentsOff: 'Los pagos no están configurados en este servidor. Pide días a su operador.',
  /** A second monthly subscription while one renews. */
  alreadySubscribed: 'Ya tienes una suscripción activa.',
  /** Cancel without a renewing subscription (or someone else's id). */
  noSubscription: 'No tienes una suscripción activa.',
  /** Spec 001 §5: custom days below 1. */
  tooFewDays: 'Necesitas al menos 1 día',
  /** Spec 001 §5: custom days over 21. */
  tooManyDays:
    'Para más de 21 días te recomendamos el plan mensual: 35 días por 19,99€ (5 días gratis cada mes).',
  /** Stripe signature check failed. */
  badSignature: 'Firma de Stripe no válida.',
  /** A signed event whose object Charla cannot read (issue 24 §7). */
  badEvent: 'Evento de Stripe no válido.',
  webhookOff: 'El webhook de Stripe no está configurado (STRIPE_WEBHOOK_SECRET).',
} as const;
