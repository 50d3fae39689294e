/**
 * "A channel is down" (issue 27 §1): the adapters raise health changes on every node
 * (engine/channels/health-report.ts, NOTIFY {@link HEALTH_CHANNEL}); this plugin keeps each
 * connection's state in `notification_channel_state`, and the one node whose update turns it from
 * working to down (a conditional update: one winner) records a `channel_down` event, deduped by
 * the transition's time. A recovery sets it back to working, so the next failure is told again.
 */
import { z } from 'zod';
import { HEALTH_CHANNEL } from '../../engine/channels/health-report.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import type { NewEvent } from './delivery.ts';
import { type NotificationsDb, notificationsDb } from './queries.ts';

const Report = z.object({
  chatbotId: z.string().min(1).max(100),
  channel: z.string().min(1).max(40),
  ok: z.boolean(),
  reason: z.string().nullable().optional(),
});

/**
 * Applies one health change.
 * @returns the transition's time when this call turned the connection from working to down.
 */
export async function applyHealth(
  db: NotificationsDb,
  r: z.infer<typeof Report>,
  now: Date,
): Promise<Date | null> {
  if (r.ok) {
    await db
      .updateTable('notification_channel_state')
      .set({ down: false, since: now })
      .where('chatbot_id', '=', r.chatbotId)
      .where('channel', '=', r.channel)
      .where('down', '=', true)
      .execute();
    return null;
  }
  const row = await db
    .insertInto('notification_channel_state')
    .values({ chatbot_id: r.chatbotId, channel: r.channel, down: true, since: now })
    .onConflict((oc) =>
      oc
        .columns(['chatbot_id', 'channel'])
        .doUpdateSet({ down: true, since: now })
        .where('notification_channel_state.down', '=', false),
    )
    .returning('since')
    .executeTakeFirst();
  return row ? new Date(row.since) : null;
}

/**
 * Listens for health changes (call in `setup`); `record` records the event. Resolves with the
 * function that stops listening (the plugin's `dispose`).
 */
export function listenChannelHealth(
  ctx: PluginContext,
  record: (e: NewEvent) => Promise<boolean>,
): Promise<() => Promise<void>> {
  const db = notificationsDb(ctx.db);
  const onChange = async (payload: string) => {
    const r = Report.parse(JSON.parse(payload));
    const since = await applyHealth(db, r, ctx.now());
    if (!since) return;
    await record({
      chatbotId: r.chatbotId,
      kind: 'channel_down',
      grp: `channel:${r.chatbotId}:${r.channel}`,
      dedupe: `down:${r.chatbotId}:${r.channel}:${since.toISOString()}`,
      data: { channel: r.channel, reason: r.reason ?? null },
    });
  };
  return ctx.listen(HEALTH_CHANNEL, (payload) => {
    onChange(payload).catch((err: unknown) =>
      ctx.log.warn({ err }, 'notifications: a channel health change was not recorded'),
    );
  });
}
