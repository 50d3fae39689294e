/**
 * Nothing lost to a crash (issue 5): `charla serve` receives a follower's Telegram message by long
 * polling, stores it and acknowledges it to Telegram, and is killed (SIGKILL) while the LLM is
 * still thinking. Telegram will not deliver that update again; the restarted process answers it
 * from its durable inbox, once. Real processes, a real PGlite data dir, the local Bot API and
 * OpenAI-format servers.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const BIN = new URL('../bin/charla.js', import.meta.url).pathname;

describe('a crash between storing and answering a Telegram update', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-tg-restart-'));
  let telegram: FakeTelegram;
  let openai: FakeOpenAi;
  /** While true the LLM never answers (the process is killed mid-turn). */
  let stall = true;
  const children: ChildProcess[] = [];

  const env = (): NodeJS.ProcessEnv => {
    const { OPENAI_API_KEY: _k, DATABASE_URL: _d, ...rest } = process.env;
    return {
      ...rest,
      CHARLA_DATA_DIR: dataDir,
      CHARLA_SECRET: 'restart-test-secret-of-32-characters!',
      LOG_LEVEL: 'warn',
      OPENAI_BASE_URL: openai.baseURL,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      TELEGRAM_MODE: 'polling',
      TELEGRAM_POLL_TIMEOUT_S: '1',
      // The killed process's claim on the update expires after this (60 s by default).
      CHARLA_INBOX_LEASE_MS: '2000',
    };
  };
  const charla = (args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args], { env: env(), encoding: 'utf8', timeout: 60_000 });
  const serve = (): Promise<{ child: ChildProcess; url: string }> => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: env() });
    children.push(child);
    let out = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 60_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /Charla is running at (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve({ child, url: m[1]! });
        }
      });
      child.stderr!.on('data', (d: Buffer) => {
        out += d.toString();
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`serve exited (${code ?? signal}):\n${out}`));
      });
    });
  };

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    openai = await startFakeOpenAi({
      reply: async (req) => {
        while (stall) await new Promise((r) => setTimeout(r, 50));
        return { text: `Respuesta: ${req.messages.at(-1)?.content}` };
      },
    });
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    stall = false;
    await openai?.close();
    await telegram?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the stored update after a restart, exactly once', async () => {
    expect(charla(['seed', '--demo']).status).toBe(0);
    const token = charla(['owners', 'token', 'demo@charla.local']);
    expect(token.status, token.stderr).toBe(0);
    const session = token.stdout.trim().split('\n').at(-1)!.trim();
    const bot = telegram.addBot('pato_pepe_bot');

    const first = await serve();
    const auth = { authorization: `Bearer ${session}`, 'content-type': 'application/json' };
    const config = (await (await fetch(`${first.url}/api/my-chatbot`, { headers: auth })).json()) as {
      id: string;
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
        calls.some((c) => c.method === 'getUpdates' && Number(c.params.offset) > Number(update.update_id)) &&
        openai.requests.length > 0,
      20_000,
    );
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    expect(telegram.callsOf(bot.token, 'sendMessage')).toHaveLength(0);

    stall = false;
    const second = await serve();
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length > 0, 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(telegram.callsOf(bot.token, 'sendMessage').map((c) => [c.params.chat_id, c.params.text])).toEqual([
      ['777', 'Respuesta: ¿Hacéis reservas para 8?'],
    ]);
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
  });
});
