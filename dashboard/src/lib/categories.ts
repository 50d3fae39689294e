/**
 * Locale keys of the bot categories (`configure.categories.*`). The stored value stays the spec's
 * Spanish name; a label shows its emoji (CATEGORY_LABELS) and the name in the interface language.
 */
import type { CATEGORIES } from '../../../engine/schemas.ts';

export const CATEGORY_KEYS: Record<(typeof CATEGORIES)[number], string> = {
  'Empresa o Profesional': 'business',
  'Artista o Influencer': 'artist',
  'Divulgador Científico o Educativo': 'educator',
  'Periódico o Medio de Comunicación': 'media',
  'Grupo de Amigos': 'friends',
  'Tienda o Comercio': 'shop',
  'Club Deportivo o Eventos Deportivos': 'sports',
};
