/**
 * A graceful stop (issue 26 §3), on `charla serve` run as `npm start` runs it: with a dashboard's
 * live stream open (the file list) and 20 chats waiting on a slow LLM, SIGTERM ends the live stream
 * at once (its browser reconnects, to another node behind a balancer), lets every one of the 20
 * turns finish and answer, stores them, and exits 0 — before, one open tab held the process
 * forever. `/readyz` says ready while it runs, and `/metrics` counts the turns (bearer token).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bundleLikeNpmStart,
  type CharlaServer,
  charlaEnv,
  runCharla,
  serveCharla,
} from './helpers/charla-process.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';

const TURNS = 20;

describe('SIGTERM with open streams and turns in flight', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-shutdown-'));
  let openai: FakeOpenAi;
  let server: CharlaServer | undefined;

  beforeAll(async () => {
    await bundleLikeNpmStart();
    // Each answer takes ~1.5 s: long enough to be in flight when the signal comes.
    openai = await startFakeOpenAi({
      reply: (req) => ({
        text: `Respuesta: ${String(req.messages.at(-1)?.content ?? '')}`,
        chunks: ['Respuesta: ', String(req.messages.at(-1)?.content ?? '')],
        chunkDelayMs: 750,
      }),
    });
  }, 240_000);
  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await openai?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('ends live streams, finishes the turns in flight, and exits 0', { timeout: 240_000 }, async () => {
    const env = charlaEnv({
      CHARLA_DATA_DIR: dataDir,
      CHARLA_SECRET: 'shutdown-test-secret-of-32-chars!!',
      OPENAI_BASE_URL: openai.baseURL,
      OPENAI_API_KEY: 'x',
      CHARLA_METRICS_TOKEN: 'metrics-token',
      CHARLA_RATE_LIMITS: 'off',
    });
    expect(runCharla(['seed', '--demo'], env).code).toBe(0);
    const token = runCharla(['owners', 'token', 'demo@charla.local'], env);
    const auth = { authorization: `Bearer ${token.stdout.trim().split('\n').at(-1)!.trim()}` };
    server = await serveCharla(env);
    const { url } = server;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const { bot } = (await (await fetch(`${url}/api/my-chatbot`, { headers: auth })).json()) as {
      bot: { id: string };
    };

    // A dashboard tab: the live file list.
    const live = await fetch(`${url}/api/chatbot-files/events?chatbotId=${bot.id}`, {
      headers: { ...auth, accept: 'text/event-stream' },
    });
    expect(live.status).toBe(200);
    const liveEnded = live.body!.pipeTo(new WritableStream()).then(() => Date.now());

    const turns = Array.from({ length: TURNS }, (_, i) =>
      fetch(`${url}/api/chatbot-message/${bot.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          userMessage: `pregunta ${i}`,
          visitorId: `visitante-${i}`,
          messageId: `m-${i}`,
        }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { reply?: string } })),
    );
    while (openai.requests.length < TURNS) await new Promise((r) => setTimeout(r, 50));

    const signalled = Date.now();
    const exited = new Promise<number | null>((resolve) =>
      server!.child.once('exit', (code) => resolve(code)),
    );
    server.child.kill('SIGTERM');
    expect((await liveEnded) - signalled).toBeLessThan(1000);
    const answers = await Promise.all(turns);
    expect(answers.map((a) => a.status)).toEqual(Array(TURNS).fill(200));
    expect(answers.map((a) => a.body.reply)).toEqual(answers.map((_, i) => `Respuesta: pregunta ${i}`));
    expect(await exited).toBe(0);

    // All 20 were stored: a new process answers each retried message id from the store.
    server = await serveCharla(env);
    const metricsDenied = await fetch(`${server.url}/metrics`);
    expect(metricsDenied.status).toBe(401);
    const retried = await fetch(`${server.url}/api/chatbot-message/${bot.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userMessage: 'pregunta 7', visitorId: 'visitante-7', messageId: 'm-7' }),
    });
    expect(await retried.json()).toMatchObject({ reply: 'Respuesta: pregunta 7', duplicate: true });
    const metrics = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer metrics-token' } })
    ).text();
    expect(metrics).toMatch(/charla_turns_total\{channel="web",outcome="duplicate"\} 1/);
    expect(metrics).toMatch(/nodejs_eventloop_lag_seconds/);
    expect(openai.requests).toHaveLength(TURNS);
  });
});
