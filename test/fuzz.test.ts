/**
 * The project's own fuzz check in CI (issue 24): a short fixed-seed run of the fuzzer
 * (test/helpers/fuzz.ts) over every route of the route table, over real HTTP, on every test
 * dialect. It fails on any 5xx outside the contract list, a request left without an answer, an
 * uncaught error or a server that stops answering, and prints the status table and each 5xx's
 * first example (the request, the answer, what the server logged). `npm run fuzz` runs 10,000.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsOf, testStore } from './helpers/db.ts';
import { createFuzzApp, type FuzzApp, formatReport, runFuzz } from './helpers/fuzz.ts';

/** The CI run: this seed, this many requests, at most this long on a 2-core machine. */
const SEED = 24;
const REQUESTS = Number(process.env.FUZZ_CI_REQUESTS ?? 1500);
const BUDGET_MS = 22_000;

describe.each(dialectsOf(import.meta.url))('the fuzz check on %s', (kind) => {
  let fuzz: FuzzApp;
  beforeAll(async () => {
    fuzz = await createFuzzApp({ store: await testStore(kind) });
  });
  afterAll(async () => {
    await fuzz?.close();
  });

  it(`answers ${REQUESTS} malformed requests to every route (seed ${SEED}) without a 5xx or a crash`, async () => {
    const report = await runFuzz({ fuzz, seed: SEED, requests: REQUESTS, timeBudgetMs: BUDGET_MS });
    const text = formatReport(report, kind);
    // Every route was reached, each with more than one kind of request.
    expect(report.sent, text).toBeGreaterThanOrEqual(Math.min(REQUESTS, report.routes * 4));
    expect(report.failures.map((f) => `${f.type}: ${f.text}`).join('\n\n'), text).toBe('');
  }, 120_000);
});

describe.each(dialectsOf(import.meta.url))('the fuzz check with the rate limits on, on %s', (kind) => {
  let fuzz: FuzzApp;
  beforeAll(async () => {
    fuzz = await createFuzzApp({ store: await testStore(kind), env: { CHARLA_RATE_LIMITS: 'on' } });
  });
  afterAll(async () => {
    await fuzz?.close();
  });

  // The limiter's keys hold client input (an e-mail, a visitor id): huge or odd values must give a
  // 4xx like any other (a key over the index's size once gave a 500, issue 24 review).
  it('answers malformed requests to the sign-in and turn routes without a 5xx', async () => {
    const report = await runFuzz({
      fuzz,
      seed: SEED + 1,
      requests: 300,
      timeBudgetMs: 12_000,
      routeFilter: /\/api\/(auth|chatbot-message|chatbot-voice|web)\b/,
    });
    const text = formatReport(report, kind);
    expect(report.failures.map((f) => `${f.type}: ${f.text}`).join('\n\n'), text).toBe('');
  }, 120_000);
});
