/**
 * The Facebots directory's browser-safe contract (spec 001 §2 Public directory, §4 Like, §5
 * directory visibility, §7 directory queries, §8 Directory; issue 16 §4): zod schemas shared by the
 * routes and the /facebots page.
 */
import { z } from 'zod';
import { type CATEGORIES, CategoryInput } from '../../engine/schemas.ts';

/** Spec 001 §9: the sort buttons, in order. */
/**
 * Locale keys of the bot categories (`configure.categories.*` in dashboard/src/i18n/locales): the
 * stored value stays the spec's Spanish name; a label shows its emoji (CATEGORY_LABELS) and the
 * name in the interface language. Shared by the dashboard's settings and the directory's pages.
 */
export const CATEGORY_KEYS: Record<(typeof CATEGORIES)[number], string> = {
  'Restaurante y Comida': 'food',
  'Salud y Clínicas': 'health',
  Belleza: 'beauty',
  Educación: 'education',
  'Tienda o Comercio': 'shop',
  'Servicios Profesionales': 'professional',
  'Artista o Influencer': 'artist',
  'Periódico o Medio de Comunicación': 'media',
  'Club Deportivo o Eventos Deportivos': 'sports',
  'Grupo de Amigos': 'friends',
};

export const SORTS = ['populares', 'recientes', 'antiguos', 'relevantes'] as const;
export type Sort = (typeof SORTS)[number];
/** Bots per page. */
export const PAGE_SIZE = 24;
/** Spec 001 §8 Directory. */
export const DIRECTORY_TEXTS = {
  empty: 'No hay bots activos en este momento.',
  failed: 'No se pudieron cargar los bots activos.',
} as const;
/**
 * The slug of a bot's directory page (spec 001 §2: `/facebots/{name-lowercased-with-dashes}`):
 * accents dropped, lowercase, every run of other characters one dash ("Clínica Sonrisa" →
 * "clinica-sonrisa").
 */
export function botSlug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export const DirectoryQuery = z.object({
  sort: z.enum(SORTS).default('populares'),
  category: CategoryInput.optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
});

/** One bot's card. */
export const DirectoryBot = z.object({
  id: z.string(),
  business_name: z.string(),
  category: z.string(),
  /** The public description (or the first sentences of the business description). */
  description: z.string(),
  telegram_username: z.string().nullable(),
  responses_count: z.number().int(),
  likes_count: z.number().int(),
  /** The bot's active IALanding, if any (`/ialanding/<slug>`). */
  ialanding_slug: z.string().nullable(),
  created_at: z.string(),
});
export type DirectoryBot = z.infer<typeof DirectoryBot>;

export const DirectoryAnswer = z.object({
  bots: z.array(DirectoryBot),
  page: z.number().int(),
  more: z.boolean(),
});
export type DirectoryAnswer = z.infer<typeof DirectoryAnswer>;

export const LikeBody = z.object({
  /** The browser's visitor id (kept in localStorage): one like per visitor and bot. */
  visitorId: z
    .string()
    .min(8)
    .max(128)
    .regex(/^[\w-]+$/),
});
export const LikeAnswer = z.object({ likes: z.number().int(), counted: z.boolean() });

/**
 * A listed bot as the directory service gives it (the columns a card and a bot's page show; counts
 * as numbers, `created_at` a Date from PostgreSQL or an ISO string from PGlite's JSON paths).
 */
export interface DirectoryListing {
  id: string;
  business_name: string;
  category: string;
  public_description: string | null;
  business_description: string;
  telegram_username: string | null;
  idioma: string;
  responses_count: number;
  likes_count: number;
  created_at: Date | string;
  /** The bot's active IALanding's slug, when it has one. */
  ialanding_slug: string | null;
}

/**
 * The Facebots directory as a service other plugins use (issue 25 §5: plugins reach each other only
 * through the registry's composition): the site's directory pages and sitemap. plugins/index.ts
 * builds it from facebots/index.ts `directoryService` and hands it to the site.
 */
export interface DirectoryService {
  /** One page of the directory in the spec's orders (spec 001 §7), `more` when another page follows. */
  list(q: {
    sort: Sort;
    category?: string | undefined;
    page: number;
  }): Promise<{ rows: DirectoryListing[]; more: boolean }>;
  /** The listed bot whose name gives this slug ({@link botSlug}), or undefined. */
  findBySlug(slug: string): Promise<DirectoryListing | undefined>;
}

/** Why a bot cannot be published yet: the dashboard shows `publish.errors.<code>`. */
export const PUBLISH_BLOCKERS = ['needsDescription', 'needsWeb'] as const;
export type Blocker = (typeof PUBLISH_BLOCKERS)[number];

/** What the owner's publish card shows: the state, what is missing, and the listing's content. */
export const PublishState = z.object({
  /** ISO time the bot was published, or null while it is private. */
  published_at: z.string().nullable(),
  /** What still stops publishing (empty: it can be published). */
  blockers: z.array(z.enum(PUBLISH_BLOCKERS)),
  /** What the directory shows once published. */
  listing: z.object({
    business_name: z.string(),
    description: z.string(),
    category: z.string(),
    telegram_username: z.string().nullable(),
    ialanding_slug: z.string().nullable(),
  }),
});
export type PublishState = z.infer<typeof PublishState>;
