/**
 * Child process of bench/whatsapp.ts: resident memory of linked-device sessions. It prepares
 * `sessions` bots with a linked WhatsApp (owners with days left), builds the app as `charla serve`
 * does, measures `process.memoryUsage()` after a GC, loads `@whiskeysockets/baileys` and measures
 * again, then starts the channels: every session takes its lease, opens its auth state and a real
 * Baileys socket, pointed at a local WebSocket server that accepts the upgrade and stays silent (no
 * WhatsApp here), and measures once all are open. Prints one JSON line, `{"memory":…}`, and exits.
 *
 * `node --expose-gc bin/run-ts.js bench/whatsapp-memory.ts <sessions>` with CHARLA_DATA_DIR and
 * CHARLA_SECRET in the environment.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { loadBaileys } from '../adapters/whatsapp/baileys/lib.ts';
import { createWhatsAppAdapter } from '../adapters/whatsapp/index.ts';
import { createApp } from '../cli/app.ts';
import { loadConfig } from '../engine/config.ts';
import { createLogger } from '../engine/logger.ts';
import type { ChannelAdapter } from '../engine/registry/index.ts';

const sessions = Number(process.argv[2]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function settled(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await sleep(200);
  }
  return process.memoryUsage().rss;
}

// A WebSocket server that completes the upgrade and then says nothing.
const held: Socket[] = [];
const server = createServer();
server.on('upgrade', (req, socket) => {
  const accept = createHash('sha1')
    .update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
    .digest('base64');
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  held.push(socket as Socket);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/ws/chat`;

let opened = 0;
const adapter = createWhatsAppAdapter({
  loadBaileys: async () => {
    const real = await loadBaileys();
    const makeWASocket = ((config: Parameters<typeof real.makeWASocket>[0]) => {
      opened++;
      return real.makeWASocket({
        ...config,
        waWebSocketUrl: url,
        connectTimeoutMs: 600_000,
        keepAliveIntervalMs: 600_000,
      });
    }) as typeof real.makeWASocket;
    return { ...real, makeWASocket };
  },
});
const app = await createApp(loadConfig(), {
  log: createLogger({ level: 'error' }),
  env: { WHATSAPP_SEND_INTERVAL_MS: '0' },
  adapters: [adapter as unknown as ChannelAdapter<never>],
});
const db = app.store.db;
const expires = new Date(Date.now() + 30 * 86_400_000);
for (let i = 0; i < sessions; i++) {
  const owner = await db
    .insertInto('owners')
    .values({ email: `mem${i}@bench.example.com`, email_verified: true, image: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('user_profiles')
    .values({ user_id: owner.id, plan: 'free', expires_at: expires })
    .execute();
  const bot = await db
    .insertInto('chatbots')
    .values({
      user_id: owner.id,
      business_name: `Mem ${i}`,
      business_description: 'x',
      whatsapp_number: `3460${i}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await adapter
    .db()
    .insertInto('whatsapp_connections')
    .values({ chatbot_id: bot.id, backend: 'baileys', status: 'linked' })
    .execute();
}
await app.http();
const before = await settled();
await loadBaileys();
const loaded = await settled();
await app.startChannels();
const deadline = performance.now() + 120_000;
while (
  (adapter.connections.connected().length < sessions || held.length < sessions) &&
  performance.now() < deadline
)
  await sleep(100);
await sleep(2000);
const after = await settled();
process.stdout.write(
  `${JSON.stringify({ memory: { module: loaded - before, sessions: after - loaded, connected: adapter.connections.connected().length, opened } })}\n`,
);
process.exit(0);
