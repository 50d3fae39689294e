/**
 * The dashboard's feature switches (issue 10, "dead ends"): a screen or control whose feature is
 * not built yet stays out of sight, or shows as "coming soon", instead of leading to "Esta página
 * aún no existe". The issue that builds a feature flips its one switch here to true (and its tests
 * then check the screen it leads to).
 *
 * - `facebots`: the public directory /facebots (spec 001 §2): the login's "Ver bots activos en
 *   Facebots" button, /main's directory popup and its sentence, "(aparece en Facebots)" on the
 *   public checkbox of /configure.
 * - `reservations`: the Reservas checkbox of /configure and its "Ver reservas" and "Configurar"
 *   buttons (spec 000 §2, 001 §2).
 * - `webSearch`: the "Búsqueda web" checkbox of /configure (with the web-search plugin's availability).
 * - `followers`: /usuarios-conversaciones, /main's "Interactuar con seguidores" card.
 * - `gestion`: /gestion, /main's "Gestión" card and the "Renovar en Gestión" link of the days
 *   warning.
 */
export const FEATURES = {
  facebots: true,
  reservations: true,
  webSearch: true,
  followers: true,
  gestion: true,
} as const satisfies Record<string, boolean>;

/** A feature's name. */
export type Feature = keyof typeof FEATURES;

/** True when a feature's screens are built and shown. */
export function enabled(feature: Feature): boolean {
  return FEATURES[feature];
}
