/** Owner accounts and their profiles (spec 001 §3 user_profiles). */
import type { Kysely } from 'kysely';
import type { Database, Owner } from '../database.ts';

/** Finds an owner by e-mail, case-insensitively. */
export async function findOwnerByEmail(db: Kysely<Database>, email: string): Promise<Owner | undefined> {
  return db
    .selectFrom('owners')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

/** Finds an owner by id. */
export async function findOwnerById(db: Kysely<Database>, id: string): Promise<Owner | undefined> {
  return db.selectFrom('owners').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Returns the owner with this e-mail, creating it (without a password: it can set one by
 * "forgot password", or an operator with `charla owners create`) when absent.
 */
export async function ensureOwner(
  db: Kysely<Database>,
  email: string,
): Promise<{ owner: Owner; created: boolean }> {
  const existing = await findOwnerByEmail(db, email);
  if (existing) return { owner: existing, created: false };
  const owner = await db
    .insertInto('owners')
    .values({ email: email.trim().toLowerCase() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { owner, created: true };
}

/** Lists owners, oldest first. */
export async function listOwners(db: Kysely<Database>): Promise<Owner[]> {
  return db.selectFrom('owners').selectAll().orderBy('created_at').execute();
}

/** An owner's profile (spec 001 §3), or undefined. */
export async function findProfile(db: Kysely<Database>, userId: string) {
  return db.selectFrom('user_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Inserts a profile unless the owner already has one. */
export async function insertProfileIfMissing(
  db: Kysely<Database>,
  profile: { user_id: string; plan: string; expires_at: Date | null },
): Promise<void> {
  await db
    .insertInto('user_profiles')
    .values({ ...profile, full_name: null, stripe_subscription_id: null })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

/**
 * Gives or takes an owner's operator role (issue 26 §6: /admin and `/api/operator/*`).
 * @returns whether an owner with this id exists.
 */
export async function setOwnerOperator(
  db: Kysely<Database>,
  id: string,
  operator: boolean,
): Promise<boolean> {
  const res = await db.updateTable('owners').set({ operator }).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Every owner for the operator's overview (issue 26 §6), oldest first: the account, its profile's
 * plan and expiry (spec 001 §3) and how many bots it has.
 */
export async function listOwnersOverview(db: Kysely<Database>) {
  return db
    .selectFrom('owners as o')
    .leftJoin('user_profiles as p', 'p.user_id', 'o.id')
    .select((eb) => [
      'o.id',
      'o.email',
      'o.email_verified',
      'o.operator',
      'o.created_at',
      'p.plan',
      'p.expires_at',
      eb
        .selectFrom('chatbots as c')
        .select((c) => c.fn.countAll<string>().as('n'))
        .whereRef('c.user_id', '=', 'o.id')
        .as('bots'),
    ])
    .orderBy('o.created_at')
    .execute();
}
