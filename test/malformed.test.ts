/**
 * Issue 24 §7, "every malformed request is a 4xx, never a 500", class by class, over real HTTP
 * (raw sockets, test/helpers/fuzz-wire.ts, so a truncated body really is cut on the wire):
 *
 * - a malformed or truncated multipart form (busboy's errors) is 400 on every upload route;
 * - a WhatsApp access token or a Telegram token with a character outside Latin-1 is 400, and
 *   nothing is sent to Meta or Telegram;
 * - a Telegram webhook for an id that is no bot is 404, while a known bot not connected here
 *   keeps its 503 (Telegram retries);
 * - a directory under a static prefix (`/widget/`, `/files/<bot>/`) is 404;
 * - an invalid `DATABASE_URL` stops `charla serve` at once with one line naming it, no stack.
 *
 * Each answer is also checked to be the product's Spanish text, not a library's English.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../engine/config.ts';
import { MALFORMED_FORM, ONE_FILE_ONLY } from '../engine/http/multipart.ts';
import { charlaEnv, runCharla } from './helpers/charla-process.ts';
import { dialectsOf, testStore } from './helpers/db.ts';
import { createFuzzApp, type FuzzApp, type FuzzTargets, seedTargets } from './helpers/fuzz.ts';
import { exchange, type WireAnswer } from './helpers/fuzz-wire.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const OGG = Buffer.concat([Buffer.from('OggS\0\x02'), Buffer.alloc(200, 1)]);

describe.each(dialectsOf(import.meta.url))('malformed requests on %s', (kind) => {
  let fuzz: FuzzApp;
  let port: number;
  let t: FuzzTargets;

  /** Sends raw bytes as one request; `auth` signs it in as the seeded owner. */
  const send = (
    method: string,
    target: string,
    options: {
      type?: string;
      body?: Buffer;
      auth?: boolean;
      length?: number;
      headers?: Array<[string, string]>;
    } = {},
  ): Promise<WireAnswer> =>
    exchange(
      port,
      {
        method,
        target,
        headers: [
          ['Host', `127.0.0.1:${port}`],
          ...(options.auth
            ? ([['Authorization', `Bearer ${t.owner.token}`]] as Array<[string, string]>)
            : []),
          ...(options.type ? ([['Content-Type', options.type]] as Array<[string, string]>) : []),
          ...(options.body || options.length !== undefined
            ? ([['Content-Length', String(options.length ?? options.body?.length ?? 0)]] as Array<
                [string, string]
              >)
            : []),
          ...(options.headers ?? []),
          ['Connection', 'close'],
        ],
        body: options.body,
      },
      10_000,
    );
  const json = (a: WireAnswer) => JSON.parse(a.body) as { error?: string };

  beforeAll(async () => {
    fuzz = await createFuzzApp({ store: await testStore(kind) });
    const http = await fuzz.app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    port = (http.server.address() as AddressInfo).port;
    const seeded = await seedTargets(fuzz.app, http);
    expect(seeded.warnings).toEqual([]);
    t = seeded.targets;
  });
  afterAll(async () => {
    await fuzz?.close();
  });

  describe('multipart forms', () => {
    const boundary = 'limite-de-prueba';
    const type = `multipart/form-data; boundary=${boundary}`;
    const part = (headers: string, data: Buffer | string) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`),
        Buffer.from(data),
        Buffer.from('\r\n'),
      ]);
    const field = (name: string, value: string) =>
      part(`Content-Disposition: form-data; name="${name}"`, value);
    const file = (name: string, filename: string, data: Buffer, mime: string) =>
      part(
        `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${mime}`,
        data,
      );
    const end = Buffer.from(`--${boundary}--\r\n`);

    /** Every route that reads a form (engine/http/multipart.ts), with a good form for it. */
    const routes = () => [
      {
        url: '/api/chatbot-files',
        auth: true,
        fields: [field('chatbotId', t.botId), field('keyword', 'carta')],
        file: file('file', 'carta.pdf', PDF, 'application/pdf'),
      },
      {
        url: `/api/chatbot-voice/${t.botId}`,
        auth: false,
        fields: [field('visitorId', t.followerId), field('channel', 'web')],
        file: file('audio', 'nota.ogg', OGG, 'audio/ogg'),
      },
      {
        url: `/api/web/${t.webKey}/voice`,
        auth: false,
        fields: [field('visitorId', t.followerId), field('channel', 'web')],
        file: file('audio', 'nota.ogg', OGG, 'audio/ogg'),
      },
      {
        url: '/api/apply-audio-effect',
        auth: true,
        fields: [field('chatbotId', t.botId), field('preset', 'robot')],
        file: file('audio', 'nota.ogg', OGG, 'audio/ogg'),
      },
      {
        url: '/api/telegram-broadcast',
        auth: true,
        fields: [field('chatbotId', t.botId), field('text', 'Hola a todos')],
        file: file('audio', 'nota.ogg', OGG, 'audio/ogg'),
      },
      {
        url: `/api/conversations/${t.botId}/voice`,
        auth: true,
        fields: [field('channel', 'web'), field('userId', t.followerId)],
        file: file('audio', 'nota.ogg', OGG, 'audio/ogg'),
      },
    ];

    it('answers a truncated form, one without its closing boundary, a broken part header or no boundary with 400 on every upload route', async () => {
      for (const r of routes()) {
        const whole = Buffer.concat([...r.fields, r.file, end]);
        const cases: Array<[string, Buffer, string, string | undefined]> = [
          [
            'cut in the middle of the file part',
            whole.subarray(0, whole.length - r.file.length / 2 - end.length),
            type,
            MALFORMED_FORM,
          ],
          ['without the closing boundary', Buffer.concat([...r.fields, r.file]), type, MALFORMED_FORM],
          [
            'cut inside a part header',
            Buffer.concat([...r.fields, Buffer.from(`--${boundary}\r\nContent-Disposition: form-da`)]),
            type,
            MALFORMED_FORM,
          ],
          ['without a boundary parameter', whole, 'multipart/form-data', MALFORMED_FORM],
          ['with another boundary', whole, 'multipart/form-data; boundary=otro', MALFORMED_FORM],
          // busboy skips a part whose header is over its limit: the route says what is missing.
          [
            'with a part header of 20 KB',
            Buffer.concat([part(`X-Relleno: ${'a'.repeat(20_000)}`, 'x'), end]),
            type,
            undefined,
          ],
        ];
        for (const [what, body, contentType, text] of cases) {
          const a = await send('POST', r.url, { type: contentType, body, auth: r.auth });
          if (text) {
            expect(a.status, `${r.url} ${what}: ${a.body}`).toBe(400);
            expect(json(a).error, `${r.url} ${what}`).toBe(text);
          } else {
            expect(a.status, `${r.url} ${what}: ${a.body}`).toBeGreaterThanOrEqual(400);
            expect(a.status, `${r.url} ${what}: ${a.body}`).toBeLessThan(500);
          }
        }
      }
    });

    it('answers two files with 400 "Envía un solo archivo."', async () => {
      for (const r of routes()) {
        const body = Buffer.concat([...r.fields, r.file, r.file, end]);
        const a = await send('POST', r.url, { type, body, auth: r.auth });
        expect(a.status, `${r.url}: ${a.body}`).toBe(400);
        expect(json(a).error).toBe(ONE_FILE_ONLY);
      }
    });

    it('keeps serving after a client that closes the connection in the middle of a form, and still takes a good one', async () => {
      const r = routes()[0]!;
      const whole = Buffer.concat([...r.fields, r.file, end]);
      const logged = fuzz.capture.errors.length;
      // Declares the whole form, sends half, and goes away: nothing to answer, nothing logged as failed.
      const gone = await exchange(
        port,
        {
          method: 'POST',
          target: r.url,
          headers: [
            ['Host', `127.0.0.1:${port}`],
            ['Authorization', `Bearer ${t.owner.token}`],
            ['Content-Type', type],
            ['Content-Length', String(whole.length)],
          ],
          body: whole.subarray(0, whole.length / 2),
        },
        300,
      );
      expect(gone.status).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const good = await send('POST', r.url, { type, body: whole, auth: true });
      expect(good.status, good.body).toBe(201);
      expect(fuzz.capture.errors.slice(logged).map((e) => `${e.msg}: ${e.error}`)).toEqual([]);
    });
  });

  describe('credentials that become HTTP headers', () => {
    it('refuses a WhatsApp access token with a character outside Latin-1 with 400, and calls Meta only for a good one', async () => {
      const before = fuzz.upstreamCalls();
      for (const accessToken of ['EAAbcñ€def', 'EAA😀', 'EAA\u0000x', 'EAA\r\nX-Inyectada: 1']) {
        // A NUL is refused for the whole body before the route (engine/http/server.ts); the rest here.
        const text = accessToken.includes('\u0000')
          ? /^Datos no válidos/
          : /^Datos no válidos \(accessToken\): el token de acceso/;
        const connect = await send('POST', '/api/connect-whatsapp-cloud', {
          auth: true,
          type: 'application/json',
          body: Buffer.from(
            JSON.stringify({
              chatbotId: t.botId,
              phoneNumberId: '123',
              businessAccountId: '456',
              accessToken,
            }),
          ),
        });
        expect(connect.status, `${JSON.stringify(accessToken)}: ${connect.body}`).toBe(400);
        expect(json(connect).error).toMatch(text);
        for (const url of ['/api/meta/businesses', '/api/meta/whatsapp-accounts']) {
          const meta = await send('POST', url, {
            auth: true,
            type: 'application/json',
            body: Buffer.from(JSON.stringify({ accessToken, businessId: '789' })),
          });
          expect(meta.status, `${url} ${JSON.stringify(accessToken)}: ${meta.body}`).toBe(400);
        }
      }
      expect(fuzz.upstreamCalls()).toBe(before);
      // An ASCII token still goes to Meta, which refuses it here (the stand-in answers 401): 400 with Meta's reason.
      const ascii = await send('POST', '/api/connect-whatsapp-cloud', {
        auth: true,
        type: 'application/json',
        body: Buffer.from(
          JSON.stringify({
            chatbotId: t.botId,
            phoneNumberId: '123',
            businessAccountId: '456',
            accessToken: ' EAAvalido123 ',
          }),
        ),
      });
      expect(ascii.status, ascii.body).toBe(400);
      expect(json(ascii).error).toMatch(/^Meta rechazó el token de acceso/);
      expect(fuzz.upstreamCalls()).toBeGreaterThan(before);
    });

    it('refuses a Telegram token with a character outside Latin-1 with 400, and asks Telegram only about a good one', async () => {
      const before = fuzz.upstreamCalls();
      for (const telegramToken of [
        '123456:abcdefghijklmnopqrstuvwxyzñ0123456789',
        '123456:ABC€defghijklmnopqrstuvwxyz0123456789',
        '123456:abc\u0000defghijklmnopqrstuvwxyz0123456789',
      ]) {
        const a = await send('POST', '/api/verify-telegram', {
          auth: true,
          type: 'application/json',
          body: Buffer.from(
            JSON.stringify({ chatbotId: t.botId, telegramToken, telegramUsername: 'fuzz_bot' }),
          ),
        });
        expect(a.status, a.body).toBe(400);
        if (!telegramToken.includes('\u0000'))
          expect(json(a).error).toContain('El token no tiene el formato de Telegram');
      }
      expect(fuzz.upstreamCalls()).toBe(before);
      const good = await send('POST', '/api/verify-telegram', {
        auth: true,
        type: 'application/json',
        body: Buffer.from(
          JSON.stringify({
            chatbotId: t.botId,
            telegramToken: '123456:abcdefghijklmnopqrstuvwxyz0123456789',
            telegramUsername: 'fuzz_bot',
          }),
        ),
      });
      expect(good.status, good.body).toBe(400);
      expect(json(good).error).toBe('Telegram rechazó el token. Cópialo de nuevo desde @BotFather.');
      expect(fuzz.upstreamCalls()).toBeGreaterThan(before);
    });
  });

  it('answers a Telegram webhook for an id that is no bot 404, and keeps 503 for a known bot not connected here', async () => {
    const update = Buffer.from(
      JSON.stringify({
        update_id: 1,
        message: { message_id: 1, date: 1, chat: { id: 1, type: 'private' }, text: 'hola' },
      }),
    );
    for (const id of ['00000000-0000-4000-8000-000000000000', 'x', 'a'.repeat(100)]) {
      const a = await send('POST', `/channels/telegram/${id}`, { type: 'application/json', body: update });
      expect(a.status, `${id}: ${a.body}`).toBe(404);
    }
    // A NUL in the id: no bot either (404), or refused with the rest of the NUL input (400).
    for (const id of ['%00', 'a%00b']) {
      const a = await send('POST', `/channels/telegram/${id}`, { type: 'application/json', body: update });
      expect([400, 404], `${id}: ${a.body}`).toContain(a.status);
    }
    for (const id of [t.botId, t.otherBotId]) {
      const a = await send('POST', `/channels/telegram/${id}`, { type: 'application/json', body: update });
      expect(a.status, a.body).toBe(503);
    }
  });

  it('answers a directory under a static prefix with 404, and still serves the files in it', async () => {
    const widget = await send('GET', '/widget.js');
    expect(widget.status).toBe(200);
    const botDir = t.filePath.split('/')[0]!;
    const answers: string[] = [];
    for (const dir of ['/widget/', '/widget/sub/', '/files/', `/files/${botDir}/`, `/files/${botDir}`]) {
      for (const method of ['GET', 'HEAD']) {
        const a = await send(method, dir);
        answers.push(`${method} ${dir} ${a.status}`);
      }
    }
    expect(answers.filter((a) => !a.endsWith(' 404'))).toEqual([]);
    const stored = await send('GET', `/files/${t.filePath}`);
    expect(stored.status).toBe(200);
  });
});

describe('DATABASE_URL', () => {
  const bad: Array<[string, RegExp]> = [
    [
      'mysql://charla:secreto@localhost/charla',
      /^Invalid configuration: DATABASE_URL: must be a PostgreSQL URL, .* \(it starts with "mysql:"\)$/,
    ],
    ['sqlite:///var/charla.db', /\(it starts with "sqlite:"\)$/],
    ['localhost:5432/charla', /\(it starts with "localhost:"\)$/],
    ['no es una url', /\(it has no scheme\)$/],
    ['postgres://charla:secreto@localhost:puerto/charla', /DATABASE_URL: is not a valid URL/],
    ['postgresql://charla:secr@to@[::1/charla', /DATABASE_URL: is not a valid URL/],
  ];

  it('refuses anything but a postgres:// or postgresql:// URL that parses, in one line that shows no password', () => {
    for (const [url, reason] of bad) {
      let error: unknown;
      try {
        loadConfig({ DATABASE_URL: url });
      } catch (err) {
        error = err;
      }
      expect(error, url).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message, url).toMatch(reason);
      expect(message).not.toContain('\n');
      expect(message).not.toContain('secr');
    }
    for (const url of [
      'postgres://charla:secreto@db.example:5432/charla',
      'postgresql:///charla?host=/var/run/postgresql',
      ' postgres://localhost/charla ',
    ]) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url.trim());
    }
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('stops `charla serve` at once with that line and no stack', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'charla-bad-url-'));
    try {
      for (const [url, reason] of bad.slice(0, 1).concat(bad.slice(4, 5))) {
        const started = Date.now();
        const run = runCharla(
          ['serve', '--port', '0'],
          charlaEnv({ CHARLA_DATA_DIR: dataDir, DATABASE_URL: url }),
        );
        // A failure (1), or invalid input (2) where cli/util.ts maps ConfigError to EXIT.usage.
        expect([1, 2], run.stderr).toContain(run.code);
        const lines = run.stderr.trim().split('\n');
        expect(lines, run.stderr).toHaveLength(1);
        expect(lines[0]!.replace(/^charla: /, '')).toMatch(reason);
        expect(run.stderr).not.toContain('secreto');
        expect(run.stdout).toBe('');
        expect(Date.now() - started).toBeLessThan(15_000);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
