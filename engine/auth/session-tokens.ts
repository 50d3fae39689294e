/**
 * Owner session tokens stored only as hashes (issue 24 item 6: "a database dump or a backup signs
 * in as every owner"). better-auth 1.7 keeps the session token in clear in `auth_sessions.token`
 * and has no option to hash it, so Charla wraps the database adapter better-auth talks to: for the
 * session model, the token is replaced by {@link hashToken} on every write and in every `where`
 * clause, and the raw token is put back in what the adapter returns. better-auth never sees the
 * difference: the cookie, the `set-auth-token` header and `charla owners token` still carry the raw
 * token, getSession / sign-out / session refresh / change-password look rows up by the raw token,
 * and a stored hash used as a cookie or a bearer token is hashed again and matches nothing.
 *
 * Rows read without their token (better-auth's `listSessions`, by owner) cannot show the raw token,
 * which is nowhere any more: they show `hashed:<stored value>`, except the caller's own session,
 * which shows its raw token. A `hashed:` value is accepted back in a `where` only inside an auth
 * endpoint whose caller is already signed in, and only for that caller's own sessions, so
 * `/revoke-session` with a token from `/list-sessions` and `/revoke-other-sessions` keep working,
 * while a `hashed:` value as a cookie or bearer token (no signed-in caller yet) matches nothing.
 *
 * Sessions written before this existed are hashed in place by
 * migrations/202611251400_hashed_session_tokens.ts (their owners stay signed in).
 */
import { tryGetCurrentAuthEndpointContext } from '@better-auth/core/context';
import type { DBAdapter, DBTransactionAdapter, Where } from 'better-auth';
import { hashToken } from '../secrets.ts';

/** Prefix of a session's stored hash when it is shown instead of its (unknown) raw token. */
export const STORED_TOKEN_PREFIX = 'hashed:';

/** Adapters already wrapped (in place), so a transaction's adapter is never hashed twice. */
const wrapped = new WeakSet<object>();

/** The signed-in caller of the current better-auth endpoint, if any. */
function currentSession(): { token: string; userId: string } | undefined {
  const ctx = tryGetCurrentAuthEndpointContext() as
    | { context?: { session?: { session?: { token?: unknown; userId?: unknown } } | null } }
    | undefined;
  const s = ctx?.context?.session?.session;
  return typeof s?.token === 'string' && typeof s.userId === 'string'
    ? { token: s.token, userId: s.userId }
    : undefined;
}

/**
 * One lookup's translation: the `where` with stored values, and, for each stored value met, the
 * token the caller gave for it (so the row goes back with that token).
 */
interface Lookup {
  where: Where[];
  shown: Map<string, string>;
}

/** Never a stored value (every stored token is a 43-character hash): matches nothing. */
const NO_MATCH = '';

function translateWhere(where: Where[] | undefined): Lookup {
  const shown = new Map<string, string>();
  if (!where) return { where: [], shown };
  let scopedTo: string | undefined;
  let scopeNeeded = false;
  const store = (value: string): string => {
    if (value.startsWith(STORED_TOKEN_PREFIX)) {
      scopeNeeded = true;
      scopedTo ??= currentSession()?.userId;
      if (!scopedTo) return NO_MATCH;
      const stored = value.slice(STORED_TOKEN_PREFIX.length);
      shown.set(stored, value);
      return stored;
    }
    const stored = hashToken(value);
    shown.set(stored, value);
    return stored;
  };
  const out = where.map((clause): Where => {
    if (clause.field !== 'token') return clause;
    const { value } = clause;
    if (typeof value === 'string') return { ...clause, value: store(value) };
    if (Array.isArray(value)) {
      const values = (value as unknown[]).map((v) => (typeof v === 'string' ? store(v) : NO_MATCH));
      return { ...clause, value: values.length ? values : [NO_MATCH] };
    }
    return clause;
  });
  // A `hashed:` value only ever reaches the signed-in caller's own sessions.
  if (scopeNeeded && scopedTo)
    out.push({ field: 'userId', value: scopedTo, operator: 'eq', connector: 'AND' });
  return { where: out, shown };
}

/** Puts the caller-facing token back in a session row read from the database. */
function reveal<T>(row: T, shown: Map<string, string>): T {
  if (!row || typeof row !== 'object') return row;
  const stored = (row as { token?: unknown }).token;
  if (typeof stored !== 'string') return row;
  let token = shown.get(stored);
  if (token === undefined) {
    const mine = currentSession();
    token = mine && hashToken(mine.token) === stored ? mine.token : `${STORED_TOKEN_PREFIX}${stored}`;
  }
  return { ...row, token };
}

/**
 * Wraps a better-auth database adapter, in place, so the session model's `token` is stored as
 * {@link hashToken} (see the module comment). Other models pass through untouched. In place, not a
 * copy: better-auth keys its schema check by the adapter object.
 * @param sessionModels the session model's names (`session` and the configured table name).
 */
export function hashSessionTokens<A extends DBAdapter | DBTransactionAdapter>(
  adapter: A,
  sessionModels: readonly string[],
): A {
  if (wrapped.has(adapter)) return adapter;
  wrapped.add(adapter);
  const isSession = (model: string) => sessionModels.includes(model);
  const inner = { ...adapter } as DBAdapter;
  const hashData = (data: Record<string, unknown>, shown: Map<string, string>) => {
    if (typeof data.token !== 'string') return data;
    const stored = hashToken(data.token);
    shown.set(stored, data.token);
    return { ...data, token: stored };
  };
  const target = adapter as DBAdapter;
  target.create = async (args) => {
    if (!isSession(args.model)) return inner.create(args);
    const shown = new Map<string, string>();
    const data = hashData(args.data as Record<string, unknown>, shown) as typeof args.data;
    return reveal(await inner.create({ ...args, data }), shown);
  };
  target.findOne = async (args) => {
    if (!isSession(args.model)) return inner.findOne(args);
    const { where, shown } = translateWhere(args.where);
    return reveal(await inner.findOne({ ...args, where }), shown);
  };
  target.findMany = async <T>(args: Parameters<DBAdapter['findMany']>[0]) => {
    if (!isSession(args.model)) return inner.findMany<T>(args);
    const { where, shown } = translateWhere(args.where);
    const rows = await inner.findMany<T>({ ...args, ...(args.where ? { where } : {}) });
    return rows.map((row) => reveal(row, shown));
  };
  target.count = async (args) => {
    if (!isSession(args.model) || !args.where) return inner.count(args);
    return inner.count({ ...args, where: translateWhere(args.where).where });
  };
  target.update = async (args) => {
    if (!isSession(args.model)) return inner.update(args);
    const { where, shown } = translateWhere(args.where);
    const update = hashData(args.update, shown);
    return reveal(await inner.update({ ...args, where, update }), shown);
  };
  target.updateMany = async (args) => {
    if (!isSession(args.model)) return inner.updateMany(args);
    const { where, shown } = translateWhere(args.where);
    return inner.updateMany({ ...args, where, update: hashData(args.update, shown) });
  };
  target.delete = async (args) => {
    if (!isSession(args.model)) return inner.delete(args);
    return inner.delete({ ...args, where: translateWhere(args.where).where });
  };
  target.deleteMany = async (args) => {
    if (!isSession(args.model)) return inner.deleteMany(args);
    return inner.deleteMany({ ...args, where: translateWhere(args.where).where });
  };
  target.consumeOne = async (args) => {
    if (!isSession(args.model)) return inner.consumeOne(args);
    const { where, shown } = translateWhere(args.where);
    return reveal(await inner.consumeOne({ ...args, where }), shown);
  };
  target.incrementOne = async (args) => {
    if (!isSession(args.model)) return inner.incrementOne(args);
    const { where, shown } = translateWhere(args.where);
    const set = args.set ? hashData(args.set, shown) : undefined;
    return reveal(await inner.incrementOne({ ...args, where, ...(set ? { set } : {}) }), shown);
  };
  if ('transaction' in adapter && typeof inner.transaction === 'function') {
    target.transaction = (callback) =>
      inner.transaction((trx) => callback(hashSessionTokens(trx, sessionModels)));
  }
  return adapter;
}
