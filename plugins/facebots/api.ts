/**
 * The Facebots directory's browser-safe contract (spec 001 §2 Public directory, §4 Like, §5
 * directory visibility, §7 directory queries, §8 Directory; issue 16 §4): zod schemas shared by the
 * routes and the /facebots page.
 */
import { z } from 'zod';
import { CATEGORIES } from '../../engine/schemas.ts';

/** Spec 001 §9: the sort buttons, in order. */
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
  category: z.enum(CATEGORIES).optional(),
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
