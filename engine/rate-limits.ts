/**
 * Rate limits (issue 24 §2–3; issue 26 §2): every limit Charla applies, with its default, the
 * environment variable that changes it, and one limiter whose counters live in PostgreSQL (or
 * PGlite), so every node of a deployment counts the same requests.
 *
 * Why not @fastify/rate-limit's stores: a turn checks three counters (visitor, address, bot) and
 * sign-in two; here they are one statement and one round trip, on PGlite and PostgreSQL alike, and
 * the same limiter serves routes, the engine and plugins (a reservation code look-up is not a route).
 *
 * Configuration (README "Security"): `CHARLA_RATE_LIMITS=off` turns every limit off (benchmarks);
 * each limit's variable takes `<max>/<window>`, e.g. `CHARLA_LIMIT_TURN_VISITOR=30/1m`, where the
 * window is a number with `ms`, `s`, `m` or `h`, or `off` for that limit alone.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { Kysely } from 'kysely';
import type { Database } from './store/database.ts';
import {
  clearCounter,
  hitCounters,
  pruneCounters,
  readCounter,
  refundCounter,
} from './store/queries/rate-limits.ts';

/** One limit: at most `max` hits in a fixed window of `windowMs` milliseconds. */
export interface LimitRule {
  max: number;
  windowMs: number;
}

/** A limit's default and the variable that overrides it. */
interface LimitDefinition extends LimitRule {
  env: string;
  /** What is counted, for the README table and `--help`. */
  what: string;
}

const MINUTE = 60_000;

/**
 * Every limit, by name. Turn limits apply to every route that runs a turn (the bot-id chat and
 * voice routes, the widget's message and voice routes) with shared counters per bot.
 */
export const LIMITS = {
  /** One visitor (widget visitor id, else address) on one bot. Issue 6: 20 a minute. */
  turnVisitor: {
    max: 20,
    windowMs: MINUTE,
    env: 'CHARLA_LIMIT_TURN_VISITOR',
    what: 'turns of one visitor on one bot',
  },
  /** One network address on one bot (a new visitor id per message does not escape). */
  turnAddress: {
    max: 60,
    windowMs: MINUTE,
    env: 'CHARLA_LIMIT_TURN_ADDRESS',
    what: 'turns from one address on one bot',
  },
  /** One bot from everyone (a key's whole site). */
  turnBot: { max: 600, windowMs: MINUTE, env: 'CHARLA_LIMIT_TURN_BOT', what: 'turns of one bot' },
  /** The owner's own test chat and the operator's `charla chat`, per owner. */
  turnOwner: {
    max: 60,
    windowMs: MINUTE,
    env: 'CHARLA_LIMIT_TURN_OWNER',
    what: 'test-chat turns of one owner',
  },
  /** Wrong passwords for one account from one address (issue 3: 5 per 15 min). */
  signInAccount: {
    max: 5,
    windowMs: 15 * MINUTE,
    env: 'CHARLA_LIMIT_SIGNIN_ACCOUNT',
    what: 'failed sign-ins of one account from one address',
  },
  /** Failed sign-ins from one address across accounts (issue 24 §3: 30 per 15 min). */
  signInAddress: {
    max: 30,
    windowMs: 15 * MINUTE,
    env: 'CHARLA_LIMIT_SIGNIN_ADDRESS',
    what: 'failed sign-ins from one address',
  },
  /** Requests to the account routes (`POST /api/auth/*`) from one address, sign-in aside. */
  authAddress: {
    max: 60,
    windowMs: MINUTE,
    env: 'CHARLA_LIMIT_AUTH_ADDRESS',
    what: 'account requests from one address',
  },
  /** Account routes that send a mail (sign-up, password reset, confirmation again) from one address. */
  authMail: {
    max: 10,
    windowMs: 60 * MINUTE,
    env: 'CHARLA_LIMIT_AUTH_MAIL',
    what: 'account mails asked from one address',
  },
  /** Coupon redemptions of one owner (issue 11). */
  couponOwner: {
    max: 10,
    windowMs: 10 * MINUTE,
    env: 'CHARLA_LIMIT_COUPON_OWNER',
    what: 'coupon attempts of one owner',
  },
  /** Coupon redemptions from one address (issue 11). */
  couponAddress: {
    max: 50,
    windowMs: 10 * MINUTE,
    env: 'CHARLA_LIMIT_COUPON_ADDRESS',
    what: 'coupon attempts from one address',
  },
  /** Data exports of one owner (issue 26 §5): each reads all their rows and files. */
  exportOwner: {
    max: 3,
    windowMs: 60 * MINUTE,
    env: 'CHARLA_LIMIT_EXPORT_OWNER',
    what: 'data exports of one owner',
  },
  /** "Volver a leer" of one owner (issue 30 §1): each reads a whole file (a PDF, a transcript) again. */
  rereadOwner: {
    max: 20,
    windowMs: 60 * MINUTE,
    env: 'CHARLA_LIMIT_REREAD_OWNER',
    what: 'file re-readings of one owner',
  },
  /** Facebots likes from one address (issue 16). */
  likeAddress: {
    max: 30,
    windowMs: MINUTE,
    env: 'CHARLA_LIMIT_LIKE_ADDRESS',
    what: 'Facebots likes from one address',
  },
  /** Questions to the site assistant from one address (issue 16 §5). */
  siteChatAddress: {
    max: 10,
    windowMs: MINUTE,
    env: 'CHARLA_LIMIT_SITE_CHAT_ADDRESS',
    what: 'site assistant questions from one address',
  },
  /**
   * Failed reservation-code look-ups of one follower (bot, channel, chat) (issue 24 §4): codes are
   * six characters, so guessing them is bounded here and by {@link LIMITS.reservationCodeBot}.
   */
  reservationCodeFollower: {
    max: 5,
    windowMs: 15 * MINUTE,
    env: 'CHARLA_LIMIT_RESERVATION_CODE_FOLLOWER',
    what: 'failed reservation-code look-ups of one follower',
  },
  /**
   * Failed reservation-code look-ups on one bot from all its followers (new web visitor ids are free
   * to make: this bounds guessing across them; at 50 per 15 min, finding one of 100 live codes
   * among ~720 million takes about 270 years on average).
   */
  reservationCodeBot: {
    max: 50,
    windowMs: 15 * MINUTE,
    env: 'CHARLA_LIMIT_RESERVATION_CODE_BOT',
    what: 'failed reservation-code look-ups on one bot',
  },
  /**
   * The widget's polls for pushed messages, and openings of its live stream, from one address to one
   * bot (an open widget asks every 15 s at worst, when its stream cannot open: 240 a minute is 60 open
   * widgets of one site behind one address, an office or a mobile NAT).
   */
  pushedAddress: {
    max: 240,
    windowMs: MINUTE,
    env: 'CHARLA_LIMIT_PUSHED_ADDRESS',
    what: 'widget polls from one address to one bot',
  },
} as const satisfies Record<string, LimitDefinition>;

/** The name of a limit. */
export type LimitName = keyof typeof LIMITS;

/** The limits in force: each rule, or null when that limit is off. */
export type LimitSettings = Record<LimitName, LimitRule | null>;

const WINDOW = /^(\d+)\s*(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1000, m: MINUTE, h: 60 * MINUTE } as const;

/**
 * Parses `<max>/<window>` (`20/1m`, `5/15m`, `600/60s`) or `off`.
 * @throws Error with the variable's name and what was expected.
 */
export function parseLimit(name: string, value: string): LimitRule | null {
  const v = value.trim().toLowerCase();
  if (v === 'off') return null;
  const [max, window] = v.split('/');
  const w = WINDOW.exec(window?.trim() ?? '');
  const n = Number(max);
  if (!w || !Number.isInteger(n) || n < 1)
    throw new Error(`${name}: expected <max>/<window> such as 20/1m or off, got "${value}"`);
  const windowMs = Number(w[1]) * UNIT_MS[w[2] as keyof typeof UNIT_MS];
  if (windowMs < 1) throw new Error(`${name}: the window must be longer than 0, got "${value}"`);
  return { max: n, windowMs };
}

/**
 * The limits from the environment: the defaults of {@link LIMITS}, each overridden by its
 * variable; all null with `CHARLA_RATE_LIMITS=off`.
 * @throws Error listing every invalid variable.
 */
export function limitSettings(env: Readonly<Record<string, string | undefined>>): LimitSettings {
  const all = (env.CHARLA_RATE_LIMITS ?? '').trim().toLowerCase();
  if (all && all !== 'off' && all !== 'on')
    throw new Error(`CHARLA_RATE_LIMITS: expected on or off, got "${env.CHARLA_RATE_LIMITS}"`);
  const errors: string[] = [];
  const out = {} as LimitSettings;
  for (const [name, def] of Object.entries(LIMITS) as [LimitName, LimitDefinition][]) {
    const raw = env[def.env];
    try {
      out[name] =
        all === 'off'
          ? null
          : raw?.trim()
            ? parseLimit(def.env, raw)
            : { max: def.max, windowMs: def.windowMs };
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  if (errors.length) throw new Error(errors.join('\n'));
  return out;
}

/** One counter a request hits: which limit, and the key it counts under (e.g. a bot and an address). */
export interface LimitCheck {
  limit: LimitName;
  key: string;
}

/** The outcome of {@link RateLimiter.hit}. */
export type LimitResult =
  | { allowed: true }
  | {
      allowed: false;
      /** The limit that refused. */
      limit: LimitName;
      /** Whole seconds until that counter's window ends (for `Retry-After`), at least 1. */
      retryAfterS: number;
    };

/**
 * The subject a network address is counted as: an IPv4 address (an IPv4-mapped IPv6 one unwrapped),
 * or an IPv6 address's /64 network — what one subscriber usually holds, so rotating through it does
 * not escape a per-address limit. Anything that is not an address is counted as given.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}

/**
 * Counts a request against `checks` and, when a limit refuses it, sets `Retry-After` on the reply.
 * @returns true when the request may go on; false when the caller answers 429 (with its own text).
 */
export async function admit(
  limits: Pick<RateLimiter, 'hit'>,
  reply: FastifyReply,
  checks: ReadonlyArray<LimitCheck>,
): Promise<boolean> {
  const result = await limits.hit(checks);
  if (result.allowed) return true;
  reply.header('retry-after', String(result.retryAfterS));
  return false;
}

/** Time between two deletions of ended windows by one process, ms. */
const PRUNE_EVERY_MS = 10 * MINUTE;

/**
 * Counts requests against {@link LIMITS} in the database. A hit is counted before the work it
 * guards (a sign-in attempt is counted before its password is checked), so concurrent requests
 * cannot slip past a limit: of 50 simultaneous attempts against a limit of 5, 5 go through.
 */
export class RateLimiter {
  private lastPrune = 0;

  constructor(
    private readonly db: Kysely<Database>,
    readonly settings: LimitSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** True when this limit counts anything (false when it is off). */
  enabled(limit: LimitName): boolean {
    return this.settings[limit] !== null;
  }

  /**
   * The counter key of a check: the limit's name and its subject. A subject longer than 128
   * characters (it may hold client input, e.g. an e-mail) is stored as its SHA-256, so no client
   * can make a key the database's index refuses, or bloat the table.
   */
  private keyOf(check: LimitCheck): string {
    const subject =
      check.key.length > 128 ? `#${createHash('sha256').update(check.key).digest('base64url')}` : check.key;
    return `${check.limit}:${subject}`;
  }

  /**
   * Counts one hit on each check's counter (one statement) and says whether every one is within
   * its limit. Checks of limits that are off are skipped; with all off, no query is made.
   * @throws the database's error (the caller's request fails as a 503 when it is unreachable).
   */
  async hit(checks: ReadonlyArray<LimitCheck>): Promise<LimitResult> {
    const active = new Map<string, { limit: LimitName; rule: LimitRule }>();
    for (const check of checks) {
      const rule = this.settings[check.limit];
      if (rule) active.set(this.keyOf(check), { limit: check.limit, rule });
    }
    if (active.size === 0) return { allowed: true };
    const now = this.now();
    const states = await hitCounters(
      this.db,
      [...active].map(([key, { rule }]) => ({ key, windowMs: rule.windowMs })),
      now,
    );
    this.maybePrune(now);
    let refused: { limit: LimitName; retryAfterS: number } | undefined;
    for (const state of states) {
      const { limit, rule } = active.get(state.key)!;
      if (state.hits > rule.max) {
        const retryAfterS = Math.max(1, Math.ceil((state.resetAt.getTime() - now.getTime()) / 1000));
        if (!refused || retryAfterS > refused.retryAfterS) refused = { limit, retryAfterS };
      }
    }
    return refused ? { allowed: false, ...refused } : { allowed: true };
  }

  /** Takes back one hit of a check (the request did not count: a right password, a 400). */
  async refund(check: LimitCheck): Promise<void> {
    if (this.settings[check.limit]) await refundCounter(this.db, this.keyOf(check));
  }

  /** Forgets a check's counter (a successful sign-in clears the account's failures). */
  async clear(check: LimitCheck): Promise<void> {
    if (this.settings[check.limit]) await clearCounter(this.db, this.keyOf(check));
  }

  /** True when the check's counter is at or past its limit, without counting a hit. */
  async exhausted(check: LimitCheck): Promise<boolean> {
    const rule = this.settings[check.limit];
    if (!rule) return false;
    return (await readCounter(this.db, this.keyOf(check), this.now())) >= rule.max;
  }

  /** Deletes ended windows now and then (at most every 10 minutes per process), in the background. */
  private maybePrune(now: Date): void {
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now.getTime();
    pruneCounters(this.db, now).catch(() => {
      // A failed prune is retried at the next interval; the counters stay correct meanwhile.
    });
  }
}
