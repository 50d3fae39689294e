/**
 * Issue 26 §6: an owner may have the operator role. An operator signed in to the dashboard sees
 * /admin and may call `/api/operator/*` (owners and their days, coupons, bots' channel health,
 * recent errors) like the holder of the operator token does. Set with
 * `charla owners create --operator` or `charla owners operator <email> [--off]`.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE owners ADD COLUMN operator boolean NOT NULL DEFAULT false;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE owners DROP COLUMN operator;');
}
