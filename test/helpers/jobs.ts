/** Job definitions and a wait helper shared by test/jobs.test.ts and its child process. */
import { z } from 'zod';
import { defineJob } from '../../engine/jobs/index.ts';

/** The job a child process claims and dies holding: a 2 s lease, retried at once. */
export const crashJob = defineJob({
  name: 'test.crash',
  data: z.object({ step: z.string() }),
  leaseSeconds: 2,
  retryBackoff: false,
  retryDelaySeconds: 0,
});

/**
 * Resolves once `check` returns true, looking every 50 ms.
 * @throws Error with `what` when it is still false after `timeoutMs` (a generous bound, not a speed check).
 */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
