/**
 * Nothing lost to a crash on WhatsApp (issue 13): `charla serve` stores a signed Cloud API webhook
 * and acknowledges it, and is killed (SIGKILL) while the LLM is still thinking. Meta will not
 * deliver that message again; the restarted process answers it from its durable inbox, once.
 * Real processes, a real PGlite data dir, the local Graph API and OpenAI-format servers.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGraph, hubSignature, messageWebhook, startFakeGraph } from './servers/graph.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';

const BIN = new URL('../bin/charla.js', import.meta.url).pathname;
const APP_SECRET = 'restart-app-secret';

describe('a crash between storing and answering a WhatsApp message', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-wa-restart-'));
  let graph: FakeGraph;
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
      WHATSAPP_GRAPH_URL: graph.url,
      META_APP_SECRET: APP_SECRET,
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
    graph = await startFakeGraph();
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
    await graph?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the stored message after a restart, exactly once', async () => {
    expect(charla(['seed', '--demo']).status).toBe(0);
    const token = charla(['owners', 'token', 'demo@charla.local']);
    expect(token.status, token.stderr).toBe(0);
    const session = token.stdout.trim().split('\n').at(-1)!.trim();
    const accessToken = 'EAArestartxxxxxxxxxxxxxxxxxxxxxxxx';
    graph.addNumber({
      id: '8801',
      display_phone_number: '+34 600 880 100',
      verified_name: 'Demo',
      tokens: [accessToken],
    });

    const first = await serve();
    const auth = { authorization: `Bearer ${session}`, 'content-type': 'application/json' };
    const { bot } = (await (await fetch(`${first.url}/api/my-chatbot`, { headers: auth })).json()) as {
      bot: { id: string };
    };
    const connected = await fetch(`${first.url}/api/connect-whatsapp-cloud`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        chatbotId: bot.id,
        phoneNumberId: '8801',
        businessAccountId: '9901',
        accessToken,
      }),
    });
    expect(connected.status, await connected.clone().text()).toBe(200);

    const { body } = messageWebhook(
      '8801',
      { waId: '34600777888', name: 'Marta' },
      { type: 'text', text: { body: '¿Hacéis reservas para 8?' } },
    );
    const raw = JSON.stringify(body);
    const ack = await fetch(`${first.url}/channels/whatsapp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, APP_SECRET) },
      body: raw,
    });
    expect(ack.status).toBe(200);
    // Stored, acknowledged and in the LLM's hands.
    await graph.waitFor(() => openai.requests.length > 0, 20_000);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    expect(graph.messages('8801')).toHaveLength(0);

    stall = false;
    const second = await serve();
    await graph.waitFor(() => graph.messages('8801').length > 0, 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(graph.messages('8801').map((m) => [m.to, (m.text as { body: string }).body])).toEqual([
      ['34600777888', 'Respuesta: ¿Hacéis reservas para 8?'],
    ]);
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
  });
});
