/**
 * The fake Telegram Bot API (test/servers/telegram.ts) as its own process, for bench/telegram.ts:
 * it registers `bots` bots, counts the calls it gets by method without keeping them, and tells
 * its counts on a second (control) port. Idle `getUpdates` long polls hang on it until their
 * `timeout`, as on Telegram.
 *
 * `node bin/run-ts.js bench/telegram-api.ts <bots>` prints one JSON line:
 * `{"apiRoot":…,"control":…,"bots":[{"token","id","username"}]}`; `GET <control>/stats` answers
 * {@link FakeStats}.
 */

import { startFakeTelegram } from '../test/servers/telegram.ts';
import { serveStats } from './control.ts';

/** What the fake has seen since it started. */
export interface FakeStats {
  /** Calls by Bot API method. */
  calls: Record<string, number>;
  /** sendMessage calls, and the time (ms since the epoch) of the first and the last. */
  sent: number;
  firstSentAt: number | null;
  lastSentAt: number | null;
  /** The texts sent, by how often (at most 8 different ones are told apart). */
  texts: Record<string, number>;
  /** Bots that called setWebhook / getUpdates at least once. */
  webhooksSet: number;
  polling: number;
}

const count = Number(process.argv[2] ?? 100);
const fake = await startFakeTelegram({ record: true });
const bots = Array.from({ length: count }, (_, i) => fake.addBot(`bench_${i}_bot`, 7_000_000 + i));

const stats: FakeStats = {
  calls: {},
  sent: 0,
  firstSentAt: null,
  lastSentAt: null,
  texts: {},
  webhooksSet: 0,
  polling: 0,
};
const withWebhook = new Set<string>();
const withPolls = new Set<string>();

/** Tallies the recorded calls and drops them (the fake records every call; the bench keeps none). */
function tally(): void {
  for (const call of fake.calls) {
    stats.calls[call.method] = (stats.calls[call.method] ?? 0) + 1;
    if (call.method === 'sendMessage') {
      stats.sent++;
      stats.firstSentAt ??= call.at;
      stats.lastSentAt = Math.max(stats.lastSentAt ?? 0, call.at);
      const text = String(call.params.text);
      if (text in stats.texts || Object.keys(stats.texts).length < 8)
        stats.texts[text] = (stats.texts[text] ?? 0) + 1;
    } else if (call.method === 'setWebhook') withWebhook.add(call.token);
    else if (call.method === 'getUpdates') withPolls.add(call.token);
  }
  fake.calls.length = 0;
  stats.webhooksSet = withWebhook.size;
  stats.polling = withPolls.size;
}
const control = await serveStats(stats, tally);
process.stdout.write(`${JSON.stringify({ apiRoot: fake.apiRoot, control, bots })}\n`);
