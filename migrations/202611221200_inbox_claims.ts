/**
 * Claims on inbox rows (issue 5, from review): `claimed_at` says a process is handling an update.
 * A process claims a pending row before handling it and renews the claim while it works, so two
 * processes (a restart overlapping the old one, several behind a load balancer) never answer the
 * same update; a claim older than the lease belongs to a process that died and is taken over.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE channel_updates ADD COLUMN claimed_at timestamptz;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE channel_updates DROP COLUMN claimed_at;');
}
