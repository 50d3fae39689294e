/**
 * End to end, `charla` as a process on embedded PGlite with no LLM configured (what a new user
 * runs first): migrate, seed, serve, then real messages over HTTP, the terminal chat, and the exit
 * codes of failures.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = new URL('../bin/charla.js', import.meta.url).pathname;

function env(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { OPENAI_API_KEY: _k, OPENAI_BASE_URL: _b, DATABASE_URL: _d, ...rest } = process.env;
  return { ...rest, CHARLA_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
}

function charla(args: string[], dataDir: string, extra: Record<string, string> = {}) {
  const res = spawnSync(process.execPath, [BIN, ...args], {
    env: env(dataDir, extra),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** Starts `charla serve` and resolves with its URL once it prints it. */
function serve(dataDir: string): Promise<{ child: ChildProcess; url: string; stdout: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: env(dataDir) });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Charla is running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, stdout: () => out });
      }
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
}

describe('charla as a process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-e2e-'));
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  let botId: string;

  const message = async (userMessage: string, visitorId = 'e2e-follower') => {
    const res = await fetch(`${server!.url}/api/chatbot-message/${botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userMessage, visitorId }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as {
      reply: string;
      offline: boolean;
      attachment: { type: string; name: string; url: string; fileId: string } | null;
      contenedorEmpatico: { archivos: { action: string; lista: Array<{ id: string; file_name: string }> } };
    };
  };

  beforeAll(() => {
    const migrate = charla(['migrate'], dataDir);
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout).toMatch(/Applied \d+ migration\(s\)\./);
    const seed = charla(['seed', '--demo', '--json'], dataDir);
    expect(seed.code, seed.stderr).toBe(0);
    botId = JSON.parse(seed.stdout).botId;
  });
  afterAll(() => {
    server?.child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates and seeds idempotently', () => {
    const again = charla(['migrate'], dataDir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to apply');
    const seed = charla(['seed', '--demo', '--json'], dataDir);
    expect(JSON.parse(seed.stdout)).toMatchObject({ botId, created: { owner: false, bot: false, files: 0 } });
    const files = charla(['files', 'list', botId, '--json'], dataDir);
    expect(
      JSON.parse(files.stdout)
        .map((f: { keyword: string }) => f.keyword)
        .sort(),
    ).toEqual(['audio,saludo', 'foto,local', 'menu,carta,precios']);
  });

  it('chats in the terminal: one turn with --message --json gets the PDF menu', () => {
    const res = charla(['chat', botId, '--message', 'menu', '--json'], dataDir);
    expect(res.code, res.stderr).toBe(0);
    const answer = JSON.parse(res.stdout);
    expect(answer.attachment).toMatchObject({ type: 'pdf', name: 'carta-el-pato-pepe.pdf' });
    expect(answer.offline).toBe(true);
    const plain = charla(['chat', botId, '--message', '¿A qué hora abrís?'], dataDir);
    expect(plain.stdout).toMatch(/^El Pato Pepe › .*El Pato Pepe/);
  });

  it('serves the demo over HTTP: the menu, the CARTA, an unrelated message, a LIST and a pick', async () => {
    server = await serve(dataDir);
    expect(server.stdout()).toContain(`Demo bot:        El Pato Pepe  id ${botId}`);
    const health = await fetch(`${server.url}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', store: 'pglite', llm: 'offline' });

    const menu = await message('menu', 'f-1');
    expect(menu.attachment).toMatchObject({ type: 'pdf', name: 'carta-el-pato-pepe.pdf' });
    expect(menu.offline).toBe(true);
    const pdf = await fetch(menu.attachment!.url);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const carta = await message('¿Tenéis la CARTA?', 'f-2');
    expect(carta.attachment?.type).toBe('pdf');

    const unrelated = await message('¿Aceptáis perros en la terraza?', 'f-3');
    expect(unrelated.attachment).toBeNull();
    expect(unrelated.reply).toContain('El Pato Pepe');

    const two = await message('Mándame la foto del local y la carta de precios', 'f-4');
    expect(two.contenedorEmpatico.archivos.action).toBe('LIST');
    const offered = two.contenedorEmpatico.archivos.lista;
    expect(offered).toHaveLength(2);
    expect(two.reply).toContain('1. ');
    const pick = await message('2', 'f-4');
    expect(pick.attachment?.fileId).toBe(offered[1]!.id);
  });

  it('routes `charla chat` through the running server instead of opening its database', () => {
    const res = charla(['chat', botId, '--message', 'foto', '--json'], dataDir);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).attachment).toMatchObject({ type: 'image' });
    const plain = charla(['chat', botId, '--message', '¿Abrís los lunes?'], dataDir);
    expect(plain.stdout).toMatch(/^El Pato Pepe › \S.*El Pato Pepe/);
    const busy = charla(['bots', 'list'], dataDir);
    expect(busy.code).toBe(4);
    expect(busy.stderr).toContain('in use by another Charla process');
  });

  it('exits non-zero with clear errors', () => {
    const unknownBot = charla(
      ['chat', 'no-such-bot', '--message', 'hola'],
      mkdtempSync(join(tmpdir(), 'charla-e2e-empty-')),
    );
    expect(unknownBot.code).toBe(3);
    const badUsage = charla(['bots', 'create', '--owner', 'x@example.com'], dataDir);
    expect(badUsage.code).toBe(2);
    expect(badUsage.stderr).toContain("required option '--name <name>'");
    const failedMigrate = charla(['migrate'], dataDir, {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(failedMigrate.code).toBe(1);
    expect(failedMigrate.stderr).toMatch(/charla: .*(ECONNREFUSED|connect)/);
  });
});
