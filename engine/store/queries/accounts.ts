/**
 * An owner's account as a whole (issue 26 §5): what their data export reads, page by page, and
 * what deleting the account removes beyond the cascades of `owners`.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';

/** Rows read per page when a long list (messages, followers) is streamed. */
export const EXPORT_PAGE_ROWS = 500;

/** The owner's row, their profile, their sign-in methods and sessions, with no secret. */
export async function accountSummary(db: Kysely<Database>, ownerId: string) {
  const owner = await db.selectFrom('owners').selectAll().where('id', '=', ownerId).executeTakeFirst();
  if (!owner) return undefined;
  const profile = await db
    .selectFrom('user_profiles')
    .select(['full_name', 'plan', 'expires_at', 'stripe_subscription_id', 'created_at'])
    .where('user_id', '=', ownerId)
    .executeTakeFirst();
  // Password hashes and OAuth tokens stay out: only which methods the owner signs in with.
  const signInMethods = await db
    .selectFrom('auth_accounts')
    .select(['provider_id', 'created_at', 'updated_at'])
    .where('user_id', '=', ownerId)
    .orderBy('created_at')
    .execute();
  // Session tokens stay out: when and from where the owner signed in.
  const sessions = await db
    .selectFrom('auth_sessions')
    .select(['created_at', 'expires_at', 'ip_address', 'user_agent'])
    .where('user_id', '=', ownerId)
    .orderBy('created_at')
    .execute();
  return { owner, profile: profile ?? null, signInMethods, sessions };
}

/** The owner's bots, oldest first, without the channels' credentials (`telegram_token`, `meta_token`). */
export async function exportBots(db: Kysely<Database>, ownerId: string) {
  const rows = await db
    .selectFrom('chatbots')
    .selectAll()
    .where('user_id', '=', ownerId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(({ telegram_token: _t, meta_token: _m, ...bot }) => bot);
}

/** Every file row of the owner's bots, oldest first. */
export async function exportFiles(db: Kysely<Database>, ownerId: string) {
  return db
    .selectFrom('chatbot_files')
    .selectAll()
    .where('user_id', '=', ownerId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The IALandings of the owner's bots. */
export async function exportIalandings(db: Kysely<Database>, ownerId: string) {
  return db
    .selectFrom('ialandings')
    .selectAll()
    .where('user_id', '=', ownerId)
    .orderBy('created_at')
    .execute();
}

/** One page of a bot's followers (one per channel and chat), by id after `afterId`. */
export async function followersPage(db: Kysely<Database>, chatbotId: string, afterId: string | null) {
  let q = db.selectFrom('followers').selectAll().where('chatbot_id', '=', chatbotId);
  if (afterId !== null) q = q.where('id', '>', afterId);
  return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
}

/** One page of a bot's messages, oldest first, by id after `afterId`. */
export async function messagesPage(db: Kysely<Database>, chatbotId: string, afterId: string | null) {
  let q = db.selectFrom('conversation_messages').selectAll().where('chatbot_id', '=', chatbotId);
  if (afterId !== null) q = q.where('id', '>', afterId);
  return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
}

/**
 * Deletes an owner and, by the cascades of `owners` and `chatbots`, every row of theirs and their
 * bots (profile, sessions, sign-in methods, bots, files, followers, messages, IALandings, the
 * inbox, handoffs, the plugins' tables), plus the password-reset links that name them
 * (`auth_verifications.value`), in one transaction.
 * @returns whether the owner existed.
 */
export async function deleteOwnerRows(db: Kysely<Database>, ownerId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('auth_verifications').where('value', '=', ownerId).execute();
    const res = await trx.deleteFrom('owners').where('id', '=', ownerId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  });
}
