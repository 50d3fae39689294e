/**
 * The health of a bot's WhatsApp connection as the owner sees it (ChannelConnections.health): a
 * linked device held here (open or not), held by another process (its lease and stored error tell),
 * or a Cloud API number whose credentials are checked against Meta (cached a minute).
 */
import type { ChannelContext, ConnectionHealth } from '../../engine/registry/index.ts';
import { describeGraphError, type Graph } from './cloud/graph.ts';
import type { Connection } from './connection.ts';
import { connectionOf } from './queries.ts';
import type { WhatsAppSettings } from './settings.ts';
import type { waDb } from './tables.ts';

/** How long a Cloud API credentials check in the health view is reused, ms. */
export const CLOUD_CHECK_MS = 60_000;

/** What {@link whatsappHealth} reads: the adapter's state in this process. */
export interface HealthDeps {
  ctx: ChannelContext<WhatsAppSettings>;
  db: ReturnType<typeof waDb>;
  connections: ReadonlyMap<string, Connection>;
  lastUpdate: ReadonlyMap<string, Date>;
  cloudChecks: Map<string, { error: string | null; at: number }>;
  graph: (token: string) => Graph;
}

/** The health of one bot's connection. */
export async function whatsappHealth(deps: HealthDeps, chatbotId: string): Promise<ConnectionHealth> {
  const { ctx, db, connections, lastUpdate, cloudChecks } = deps;
  const row = await connectionOf(db, chatbotId);
  const local = lastUpdate.get(chatbotId);
  const stored = row?.last_update_at ? new Date(row.last_update_at) : null;
  const latest = local && (!stored || local > stored) ? local : stored;
  const base = {
    mode: row?.backend === 'cloud' ? 'cloud-api' : 'linked-device',
    lastError: row?.last_error ?? null,
    lastErrorAt: row?.last_error_at ? new Date(row.last_error_at).toISOString() : null,
    lastUpdateAt: latest?.toISOString() ?? null,
    pendingUpdates: null,
  };
  if (!row?.backend || (row.backend === 'baileys' && row.status !== 'linked'))
    return { ...base, state: 'disconnected' };
  if (!(await ctx.mayRun(chatbotId))) return { ...base, state: 'paused' };
  const conn = connections.get(chatbotId);
  if (row.backend === 'baileys') {
    if (conn?.backend === 'baileys') return { ...base, state: conn.session.open ? 'connected' : 'error' };
    // Held by another process: its lease and the stored last error tell.
    const heldElsewhere =
      row.holder !== null && row.lease_until !== null && new Date(row.lease_until).getTime() > Date.now();
    return {
      ...base,
      state: heldElsewhere && !row.last_error ? 'connected' : 'error',
      lastError: base.lastError ?? (heldElsewhere ? null : 'WhatsApp se está conectando…'),
    };
  }
  // Cloud API: the credentials are checked against the number's node (cached a minute).
  const check = cloudChecks.get(chatbotId);
  let error = check && Date.now() - check.at < CLOUD_CHECK_MS ? check.error : undefined;
  if (error === undefined) {
    try {
      const token = ctx.secrets.decrypt(row.meta_token ?? '');
      await deps.graph(token).call('GET', `${row.phone_number_id}?fields=display_phone_number`);
      error = null;
    } catch (err) {
      error = describeGraphError(err);
    }
    cloudChecks.set(chatbotId, { error, at: Date.now() });
  }
  if (error) return { ...base, state: 'error', lastError: error, lastErrorAt: new Date().toISOString() };
  return { ...base, state: 'connected' };
}
