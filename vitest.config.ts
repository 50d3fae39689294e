import { defineConfig } from 'vitest/config';

/** Options both projects share. */
const shared = {
  pool: 'forks' as const,
  // Browser scenarios run many steps; on a loaded 2-core machine they need more than the default.
  // With three files at a time the CPU is busy: a step waits longer, so a scenario gets 2 minutes.
  testTimeout: 120_000,
  hookTimeout: 120_000,
  // expect.poll waits 1 s by default: on a busy machine a page or a job takes longer (no timing is asserted).
  expect: { poll: { timeout: 15_000 } },
};

export default defineConfig({
  test: {
    // Three files at a time on the 2-core CI machine: a browser or server test file keeps about two
    // thirds of a core busy (it waits on Chromium, a child `charla` and the database), so two left a
    // third of the CPU idle; the suite's wall time is what CI's 30-minute limit counts.
    maxWorkers: 3,
    projects: [
      {
        test: {
          ...shared,
          name: 'server',
          include: ['test/**/*.test.ts', 'engine/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          // A worker keeps the modules it has loaded from one file to the next: evaluating the
          // server's module graph (fastify, better-auth, the AWS SDK…) again for each of ~120 files
          // was a sixth of the suite's CPU. Each file builds its own app, database and servers and
          // closes them; none mocks a module or stubs a global (the component tests do: below).
          isolate: false,
        },
      },
      {
        test: {
          ...shared,
          name: 'components',
          include: ['test/**/*.test.tsx'],
        },
      },
    ],
  },
});
