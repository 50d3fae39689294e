/**
 * Nothing lost to a crash (issue 5): `charla serve` receives a follower's Telegram message by long
 * polling, stores it and acknowledges it to Telegram, and is killed (SIGKILL) while the LLM is
 * still thinking. Telegram will not deliver that update again; the restarted process answers it
 * from its durable inbox, once. Real processes run as `npm start` runs them (bin/charla.js on the
 * bundle dist/charla.mjs), a real PGlite data dir, the local Bot API and OpenAI-format servers.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleLikeNpmStart, charlaEnv, runCharla, serveCharla } from './helpers/charla-process.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

/** Bundling, then five processes one after the other: a loaded machine needs more than the default. */
const SLOW_MS = 180_000;

describe('a crash between storing and answering a Telegram update', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-tg-restart-'));
  let telegram: FakeTelegram;
  let openai: FakeOpenAi;
  /** While true the LLM never answers (the process is killed mid-turn). */
  let stall = true;
  const children: ChildProcess[] = [];

  const env = (): NodeJS.ProcessEnv =>
    charlaEnv({
      CHARLA_DATA_DIR: dataDir,
      CHARLA_SECRET: 'restart-test-secret-of-32-characters!',
      OPENAI_BASE_URL: openai.baseURL,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      TELEGRAM_MODE: 'polling',
      TELEGRAM_POLL_TIMEOUT_S: '1',
      // The killed process's claim on the update expires after this (60 s by default).
      CHARLA_INBOX_LEASE_MS: '2000',
    });
  const charla = (args: string[]) => runCharla(args, env());
  const serve = async () => {
    const server = await serveCharla(env());
    children.push(server.child);
    return server;
  };

  beforeAll(async () => {
    await bundleLikeNpmStart();
    telegram = await startFakeTelegram();
    openai = await startFakeOpenAi({
      reply: async (req) => {
        while (stall) await new Promise((r) => setTimeout(r, 50));
        return { text: `Respuesta: ${req.messages.at(-1)?.content}` };
      },
    });
  }, SLOW_MS);
  afterAll(async () => {
    // Wait for each process to be gone before removing its data directory.
    await Promise.all(
      children
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map((c) => {
          const exited = new Promise((r) => c.once('exit', r));
          c.kill('SIGKILL');
          return exited;
        }),
    );
    stall = false;
    await openai?.close();
    await telegram?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'answers the stored update after a restart, exactly once',
    async () => {
      expect(charla(['seed', '--demo']).code).toBe(0);
      const token = charla(['owners', 'token', 'demo@charla.local']);
      expect(token.code, token.stderr).toBe(0);
      const session = token.stdout.trim().split('\n').at(-1)!.trim();
      const bot = telegram.addBot('pato_pepe_bot');

      const first = await serve();
      const auth = { authorization: `Bearer ${session}`, 'content-type': 'application/json' };
      const { bot: config } = (await (
        await fetch(`${first.url}/api/my-chatbot`, { headers: auth })
      ).json()) as {
        bot: { id: string };
      };
      const connected = await fetch(`${first.url}/api/verify-telegram`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          chatbotId: config.id,
          telegramToken: bot.token,
          telegramUsername: 'pato_pepe_bot',
        }),
      });
      expect(connected.status, await connected.clone().text()).toBe(200);

      const update = await telegram.sendText(
        bot.token,
        { id: 777, first_name: 'Marta' },
        '¿Hacéis reservas para 8?',
      );
      // Stored, acknowledged (a later getUpdates carries a higher offset) and in the LLM's hands.
      await telegram.waitFor(
        (calls) =>
          calls.some(
            (c) => c.method === 'getUpdates' && Number(c.params.offset) > Number(update.update_id),
          ) && openai.requests.length > 0,
        20_000,
      );
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));
      expect(telegram.callsOf(bot.token, 'sendMessage')).toHaveLength(0);

      stall = false;
      const second = await serve();
      await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length > 0, 30_000);
      await new Promise((r) => setTimeout(r, 1500));
      expect(
        telegram.callsOf(bot.token, 'sendMessage').map((c) => [c.params.chat_id, c.params.text]),
      ).toEqual([['777', 'Respuesta: ¿Hacéis reservas para 8?']]);
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    },
    SLOW_MS,
  );
});
