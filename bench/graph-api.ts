/**
 * The fake Graph API (test/servers/graph.ts) as its own process, for bench/whatsapp.ts: in the bench's
 * own process its work (answering every reply Charla sends) shared the event loop with the load
 * generator and showed up in the measured time to the 200. It registers `count` Cloud API numbers
 * (`9000000 + i`, token `EAAbench<i>…`), counts the text messages it is sent without keeping them,
 * and tells its counts on a second (control) port.
 *
 * `node bin/run-ts.js bench/graph-api.ts <count>` prints one JSON line `{"url":…,"control":…}`;
 * `GET <control>/stats` answers {@link GraphStats}.
 */

import { startFakeGraph } from '../test/servers/graph.ts';
import { serveStats } from './control.ts';

/** What the fake has been sent since it started. */
export interface GraphStats {
  /** `/messages` calls of type text, and the time (ms since the epoch) of the last one. */
  texts: number;
  lastMessageAt: number | null;
}

/** The token of bench number `i`. */
export const benchToken = (i: number) => `EAAbench${i}xxxxxxxxxxxxxxxxxxxxxxxx`;

const count = Number(process.argv[2] ?? 100);
const fake = await startFakeGraph();
for (let i = 0; i < count; i++)
  fake.addNumber({
    id: String(9_000_000 + i),
    display_phone_number: `+34 600 ${i}`,
    verified_name: 'Bench',
    tokens: [benchToken(i)],
  });

const stats: GraphStats = { texts: 0, lastMessageAt: null };
/** Tallies the recorded calls and drops them (the fake records every call; the bench keeps none). */
function tally(): void {
  for (const call of fake.calls) {
    if (!call.path.endsWith('/messages')) continue;
    stats.lastMessageAt = Math.max(stats.lastMessageAt ?? 0, call.at);
    if ((call.body as { type?: string } | undefined)?.type === 'text') stats.texts++;
  }
  fake.calls.length = 0;
}
const control = await serveStats(stats, tally);
process.stdout.write(`${JSON.stringify({ url: fake.url, control })}\n`);
