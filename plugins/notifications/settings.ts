/**
 * The owner's notification choices (issue 27 §1: "which events on which route"): each event kind
 * on or off per route, and the language of what they are sent. Everything is on until the owner
 * turns it off; only what is off is stored (`routes_off`, migrations.ts).
 */
import { z } from 'zod';
import { LANG_CODES, type LangCode } from '../../engine/schemas.ts';
import { findSettings, type NotificationsDb, saveSettings } from './queries.ts';
import { EVENT_KINDS, type EventKind } from './texts.ts';

/**
 * The routes a notification takes: `email` (the digest mail), `telegram` (the owner's own Telegram
 * chat linked to a bot), `push` (Web Push to the owner's subscribed browsers), `page` (the in-page
 * alert of an open dashboard, `GET /api/notifications/stream`).
 */
export const ROUTES = ['email', 'telegram', 'push', 'page'] as const;
/** One of {@link ROUTES}. */
export type Route = (typeof ROUTES)[number];

/** An owner's choices as the plugin reads them. */
export interface Choices {
  language: LangCode;
  /** The routes turned off, per kind (absent: every route on). */
  off: Partial<Record<EventKind, Route[]>>;
}

/** True when `kind` goes by `route` for this owner. */
export function routeOn(c: Choices, kind: EventKind, route: Route): boolean {
  return !(c.off[kind] ?? []).includes(route);
}

/** True when `kind` goes by any route (else the event is not even recorded). */
export function anyRouteOn(c: Choices, kind: EventKind): boolean {
  return ROUTES.some((r) => routeOn(c, kind, r));
}

/** The owner's choices (defaults: es, everything on). */
export async function ownerChoices(db: NotificationsDb, ownerId: string): Promise<Choices> {
  const s = await findSettings(db, ownerId);
  const language = (LANG_CODES as readonly string[]).includes(s?.language ?? '')
    ? (s!.language as LangCode)
    : 'es';
  const off: Choices['off'] = {};
  for (const [k, routes] of Object.entries(s?.routes_off ?? {}))
    if ((EVENT_KINDS as readonly string[]).includes(k) && Array.isArray(routes))
      off[k as EventKind] = routes.filter((r): r is Route => (ROUTES as readonly string[]).includes(r));
  return { language, off };
}

const RouteFlags = z.object({
  email: z.boolean(),
  telegram: z.boolean(),
  push: z.boolean(),
  page: z.boolean(),
});

/**
 * `GET`/`PUT /api/notifications/settings` answer: the language; every kind × route on (true) or
 * off; `telegramLinked`: one of the owner's bots has the owner's own Telegram linked (the
 * conversations plugin's phone link), so the telegram route reaches them; `pushAvailable`: the
 * operator set the VAPID keys, so the push route can work.
 */
export const SettingsAnswer = z.object({
  language: z.enum(LANG_CODES),
  events: z.object(
    Object.fromEntries(EVENT_KINDS.map((k) => [k, RouteFlags])) as Record<EventKind, typeof RouteFlags>,
  ),
  telegramLinked: z.boolean(),
  pushAvailable: z.boolean(),
});
/** See {@link SettingsAnswer}. */
export type SettingsAnswer = z.infer<typeof SettingsAnswer>;

const PartialFlags = RouteFlags.partial().strict();

/** `PUT` body: any kinds' routes, and the language; what is left out stays as it was. */
export const SettingsBody = z
  .object({
    language: z.enum(LANG_CODES).optional(),
    events: z
      .object(
        Object.fromEntries(EVENT_KINDS.map((k) => [k, PartialFlags.optional()])) as Record<
          EventKind,
          z.ZodOptional<typeof PartialFlags>
        >,
      )
      .strict()
      .optional(),
  })
  .strict();
/** See {@link SettingsBody}. */
export type SettingsBody = z.infer<typeof SettingsBody>;

/** The routes' flags of every kind for the answer. */
export function eventFlags(c: Choices): SettingsAnswer['events'] {
  return Object.fromEntries(
    EVENT_KINDS.map((k) => [k, Object.fromEntries(ROUTES.map((r) => [r, routeOn(c, k, r)]))]),
  ) as SettingsAnswer['events'];
}

/** Applies a `PUT` body to the owner's choices and stores them. */
export async function applySettings(
  db: NotificationsDb,
  ownerId: string,
  body: SettingsBody,
  now: Date,
): Promise<Choices> {
  const c = await ownerChoices(db, ownerId);
  const off: Record<string, Route[]> = {};
  for (const k of EVENT_KINDS) {
    const set = new Set(c.off[k] ?? []);
    for (const [r, on] of Object.entries(body.events?.[k] ?? {})) {
      if (on === true) set.delete(r as Route);
      if (on === false) set.add(r as Route);
    }
    if (set.size > 0) off[k] = ROUTES.filter((r) => set.has(r));
  }
  const language = body.language ?? c.language;
  await saveSettings(db, ownerId, { language, routesOff: off }, now);
  return { language, off };
}
