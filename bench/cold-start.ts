/**
 * The cold start of `charla serve` (part of `npm run bench`): spawn to the first 200 on /healthz
 * on an existing PGlite data dir, three times, and the median (goal < 1.5 s).
 */
import { freePort, spawnNode, waitHealthy } from './procs.ts';
import { mark } from './report.ts';
import { charlaEnv, GOAL } from './settings.ts';

/** Spawn of `charla serve` to its first 200 on /healthz, on an existing PGlite data dir. */
export async function coldStart(dataDir: string, llmBaseURL: string): Promise<string> {
  const env = charlaEnv(dataDir, llmBaseURL);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    const t0 = performance.now();
    const child = spawnNode(
      'charla serve (cold start)',
      ['bin/charla.js', 'serve', '--port', String(port), '--host', '127.0.0.1'],
      env,
    );
    try {
      times.push(await waitHealthy(`http://127.0.0.1:${port}/healthz`, child, 60_000, t0));
    } finally {
      await child.stop(15_000);
    }
  }
  const median = [...times].sort((a, b) => a - b)[1]!;
  return `\nCold start of \`charla serve\` (existing PGlite data dir, spawn → first 200 on /healthz)\n  runs: ${times
    .map((t) => `${Math.round(t)} ms`)
    .join(
      ', ',
    )}\n  median: ${Math.round(median)} ms   goal < ${GOAL.coldStart.toLocaleString('en-US')} ms ${mark(median < GOAL.coldStart)}\n`;
}
