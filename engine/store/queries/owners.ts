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
 * Returns the owner with this e-mail, creating it (and its `user_profiles` row, plan `free`,
 * no expiry per spec 000 §3) when absent. `created` tells which happened.
 */
export async function ensureOwner(
  db: Kysely<Database>,
  email: string,
): Promise<{ owner: Owner; created: boolean }> {
  const existing = await findOwnerByEmail(db, email);
  if (existing) return { owner: existing, created: false };
  return db.transaction().execute(async (trx) => {
    const owner = await trx
      .insertInto('owners')
      .values({ email: email.trim().toLowerCase() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('user_profiles')
      .values({ user_id: owner.id, full_name: null, expires_at: null, stripe_subscription_id: null })
      .execute();
    return { owner, created: true };
  });
}

/** Lists owners, oldest first. */
export async function listOwners(db: Kysely<Database>): Promise<Owner[]> {
  return db.selectFrom('owners').selectAll().orderBy('created_at').execute();
}
