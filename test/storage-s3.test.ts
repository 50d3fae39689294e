/**
 * Object storage (issue 26 §1) against a real S3-compatible server (s3rver, started here):
 * - the same contract for LocalStorage and S3Storage: a streamed put of several MB (a multipart
 *   upload on S3), whole and ranged reads, head, list, remove, a missing key;
 * - `/files/{key}` served from either backend: Range (206, Content-Range), ETag and 304, 404, the
 *   files' security headers; an uploaded PDF lands in the bucket, not on disk;
 * - a stored file that is gone is a permanent send error (WhatsApp answering records it, no retry);
 * - `charla storage migrate` copies a local store into the bucket, and a second run copies nothing.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPermanent } from '../adapters/telegram/bot-api.ts';
import { createAnswering } from '../adapters/whatsapp/shared/answer.ts';
import type { FileSource, WaTransport } from '../adapters/whatsapp/shared/types.ts';
import { migrateStorage } from '../cli/commands/storage.ts';
import type { S3Config } from '../engine/config.ts';
import { FILES_CSP } from '../engine/http/csp.ts';
import type { ChannelContext } from '../engine/registry/index.ts';
import { LocalStorage, MissingFileError, type Storage } from '../engine/storage/index.ts';
import { S3Storage } from '../engine/storage/s3.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';

/** The part of s3rver's API used here (the package ships no types). */
interface S3rver {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => S3rver;

const BUCKET = 'charla-files';
const PDF = readFileSync(new URL('../assets/demo/carta-el-pato-pepe.pdf', import.meta.url));
const BIN = new URL('../bin/charla.js', import.meta.url).pathname;

let server: S3rver;
let endpoint: string;
let dir: string;

/** The S3 settings of the test server, as the environment gives them. */
const s3Env = (bucket = BUCKET): Record<string, string> => ({
  S3_ENDPOINT: endpoint,
  S3_BUCKET: bucket,
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  S3_FORCE_PATH_STYLE: 'true',
});
const s3Config = (bucket = BUCKET): S3Config => ({
  bucket,
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  forcePathStyle: true,
});

/** Bytes that differ along their length (a range read of the wrong offset shows). */
function pattern(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) out.writeUInt32BE(i >>> 0, i);
  return out;
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'charla-s3-test-'));
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: join(dir, 's3rver'),
    configureBuckets: [{ name: BUCKET }, { name: 'migrated' }, { name: 'contract' }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['LocalStorage', () => new LocalStorage(join(dir, `local-${Date.now()}`)) as Storage],
  ['S3Storage', () => new S3Storage(s3Config('contract')) as Storage],
])('%s contract', (_name, make) => {
  let storage: Storage;
  const big = pattern(12 * 1024 * 1024 + 1234);
  beforeAll(() => {
    storage = make();
  });
  afterAll(() => storage.close?.());

  it('stores a stream of several MB and reads it whole and by range', async () => {
    // Chunks of 1 MB: the backend gets a stream, never the whole buffer.
    const chunks = Array.from({ length: Math.ceil(big.length / 2 ** 20) }, (_, i) =>
      big.subarray(i * 2 ** 20, (i + 1) * 2 ** 20),
    );
    await storage.put('u1/100_video.webm', Readable.from(chunks), { contentType: 'video/webm' });
    const head = await storage.head('u1/100_video.webm');
    expect(head).toMatchObject({ size: big.length, contentType: 'video/webm' });
    expect(head?.etag).toMatch(/^(W\/)?".+"$/);
    expect(head?.lastModified).toBeInstanceOf(Date);

    const whole = await storage.get('u1/100_video.webm');
    expect(whole?.size).toBe(big.length);
    expect(sha(await readAll(whole!.stream))).toBe(sha(big));

    const range = { start: 5 * 2 ** 20 - 3, end: 9 * 2 ** 20 + 10 };
    const part = await storage.get('u1/100_video.webm', range);
    expect(part).toMatchObject({ size: big.length, range });
    expect((await readAll(part!.stream)).equals(big.subarray(range.start, range.end + 1))).toBe(true);
  });

  it('stores bytes, lists, removes; a missing key is null, an invalid key refused', async () => {
    await storage.put('u2/200_carta.pdf', PDF);
    expect(await storage.exists('u2/200_carta.pdf')).toBe(true);
    expect((await storage.head('u2/200_carta.pdf'))?.contentType).toBe('application/pdf');
    const listed: Record<string, number> = {};
    for await (const o of storage.list()) listed[o.key] = o.size;
    expect(listed).toMatchObject({ 'u2/200_carta.pdf': PDF.length, 'u1/100_video.webm': big.length });

    // Overwriting is atomic and replaces the bytes.
    await storage.put('u2/200_carta.pdf', Buffer.from('otra'));
    expect((await readAll((await storage.get('u2/200_carta.pdf'))!.stream)).toString()).toBe('otra');

    await storage.remove('u2/200_carta.pdf');
    await storage.remove('u2/200_carta.pdf'); // missing: not an error
    expect(await storage.exists('u2/200_carta.pdf')).toBe(false);
    expect(await storage.head('u2/200_carta.pdf')).toBeNull();
    expect(await storage.get('u2/200_carta.pdf')).toBeNull();
    expect(await storage.get('nadie/nada.pdf', { start: 0, end: 1 })).toBeNull();
    for (const bad of ['../fuera.pdf', 'u1/../../x', '', '/abs.pdf', 'a//b'])
      await expect(storage.put(bad, Buffer.from('x')), bad).rejects.toThrow(/invalid storage key/);
  });
});

describe.each(['local', 's3'] as const)('/files/ served from %s storage', (kind) => {
  let app: TestApp;
  let token: string;
  let key: string;
  let stored: { id: string; chatbot_id: string; file_name: string; file_url: string };

  beforeAll(async () => {
    app = await createTestApp('pglite', kind === 's3' ? { env: s3Env() } : {});
    token = (await app.owner(`files-${kind}@example.com`)).token;
    const http = await app.http();
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${token}` },
      payload: { business_name: 'El Pato Pepe', business_description: 'Restaurante.' },
    });
    const form = await multipart(
      { chatbotId: saved.json().id, keyword: 'carta', context: 'La carta' },
      { field: 'file', name: 'Carta del día.pdf', data: PDF },
    );
    const up = await http.inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
      payload: form.body,
    });
    expect(up.statusCode, up.body).toBe(201);
    stored = up.json();
    key = stored.file_url;
  });
  afterAll(async () => {
    await app?.close();
  });

  const url = () => `/files/${key.split('/').map(encodeURIComponent).join('/')}`;

  it('stores the upload in the configured backend', async () => {
    expect(app.storage.kind).toBe(kind);
    const onDisk = join(app.dataDir, 'storage', 'chatbot-files', key);
    if (kind === 'local') expect(readFileSync(onDisk).equals(PDF)).toBe(true);
    else {
      expect(() => readFileSync(onDisk)).toThrow();
      const inBucket = new S3Storage(s3Config());
      expect((await inBucket.head(key))?.size).toBe(PDF.length);
      inBucket.close();
    }
  });

  it('serves the whole file with its type, length, validators and security headers', async () => {
    const http = await app.http();
    const res = await http.inject({ method: 'GET', url: url() });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(PDF.length),
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      'content-security-policy': FILES_CSP,
      'cache-control': 'public, max-age=3600',
    });
    expect(res.headers.etag).toBeTruthy();
    expect(new Date(String(res.headers['last-modified'])).getTime()).toBeGreaterThan(0);

    const head = await http.inject({ method: 'HEAD', url: url() });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(PDF.length));
    expect(head.rawPayload.length).toBe(0);
  });

  it('answers ranges with 206 and Content-Range, a range past the end with 416', async () => {
    const http = await app.http();
    const part = await http.inject({ method: 'GET', url: url(), headers: { range: 'bytes=100-1099' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${PDF.length}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(part.rawPayload.equals(PDF.subarray(100, 1100))).toBe(true);

    const tail = await http.inject({ method: 'GET', url: url(), headers: { range: 'bytes=-10' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(PDF.subarray(PDF.length - 10))).toBe(true);

    const open = await http.inject({
      method: 'GET',
      url: url(),
      headers: { range: `bytes=${PDF.length - 5}-` },
    });
    expect(open.headers['content-range']).toBe(`bytes ${PDF.length - 5}-${PDF.length - 1}/${PDF.length}`);

    const past = await http.inject({ method: 'GET', url: url(), headers: { range: `bytes=${PDF.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${PDF.length}`);
  });

  it('revalidates with 304, and answers a missing key or a folder with 404', async () => {
    const http = await app.http();
    const first = await http.inject({ method: 'GET', url: url() });
    const again = await http.inject({
      method: 'GET',
      url: url(),
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const changed = await http.inject({ method: 'GET', url: url(), headers: { 'if-none-match': '"otro"' } });
    expect(changed.statusCode).toBe(200);

    const folder = key.split('/')[0]!;
    for (const path of ['/files/', `/files/${folder}/`, `/files/${folder}`, `/files/${folder}/nada.pdf`]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await http.inject({ method, url: path });
        expect(res.statusCode, `${method} ${path}`).toBe(404);
      }
    }
    expect((await http.inject({ method: 'GET', url: '/files/..%2Fsecret' })).statusCode).toBe(404);
    expect((await http.inject({ method: 'GET', url: `/files/${folder}/.oculto` })).statusCode).toBe(404);
  });

  it('a send whose stored file is gone is a permanent error, recorded once, not retried', async () => {
    const file = stored;
    await app.storage.remove(file.file_url);
    const openFile = async (fileUrl: string) => {
      const opened = await app.storage.get(fileUrl);
      if (!opened) throw new MissingFileError(fileUrl);
      return opened;
    };
    const recorded: string[] = [];
    const answering = createAnswering({
      ctx: () => ({ db: app.store.db, publicUrl: undefined, openFile }) as unknown as ChannelContext,
      recordError: async (_bot, message) => {
        recorded.push(message);
      },
    });
    const sent: string[] = [];
    const transport = {
      listBodyMax: 0,
      sendText: async (_chat: string, text: string) => {
        sent.push(text);
      },
      sendAttachment: async (_chat: string, _a: unknown, source: FileSource) => {
        if ('read' in source) await source.read();
      },
    } as unknown as WaTransport & { listBodyMax: number };
    const attachment = {
      fileId: file.id,
      type: 'pdf',
      name: file.file_name,
      mime: 'application/pdf',
      url: `/files/${file.file_url}`,
    };
    await answering.deliver(
      transport,
      file.chatbot_id,
      'chat-1',
      { text: 'Aquí tienes la carta', attachment } as never,
      'es',
    );
    expect(sent).toEqual(['Aquí tienes la carta']);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toContain('stored file not found');
    // Telegram's retry decision says the same.
    expect(isPermanent(new MissingFileError(file.file_url))).toBe(true);
  });
});

describe('charla storage migrate', () => {
  it('copies every local file into the bucket, and a second run copies nothing', async () => {
    const dataDir = join(dir, 'migrate-data');
    const root = join(dataDir, 'storage', 'chatbot-files');
    const files: Record<string, Buffer> = {
      'owner-a/1700000000000_carta.pdf': PDF,
      'owner-a/1700000000001_foto.jpg': Buffer.from('jpg bytes'),
      'owner-b/1700000000002_video.webm': pattern(6 * 1024 * 1024),
    };
    for (const [key, data] of Object.entries(files)) {
      mkdirSync(join(root, key, '..'), { recursive: true });
      writeFileSync(join(root, key), data);
    }
    // A half-written file of an interrupted put is no object.
    writeFileSync(join(root, 'owner-a', '1700000000003_x.pdf.part-123-abc'), 'half');

    const run = promisify(execFile);
    const env = { ...process.env, CHARLA_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...s3Env('migrated') };
    const first = await run(process.execPath, [BIN, 'storage', 'migrate', '--json'], {
      env,
      timeout: 120_000,
    });
    expect(JSON.parse(first.stdout)).toMatchObject({ bucket: 'migrated', copied: 3, skipped: 0, failed: 0 });

    const bucket = new S3Storage(s3Config('migrated'));
    const listed: Record<string, number> = {};
    for await (const o of bucket.list()) listed[o.key] = o.size;
    expect(listed).toEqual(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.length])));
    const pdf = await bucket.get('owner-a/1700000000000_carta.pdf');
    expect(pdf?.contentType).toBe('application/pdf');
    expect((await readAll(pdf!.stream)).equals(PDF)).toBe(true);

    const second = await run(process.execPath, [BIN, 'storage', 'migrate'], { env, timeout: 120_000 });
    expect(second.stdout).toContain('Copied 0 file(s)');
    expect(second.stdout).toContain('3 already there, 0 failed');

    // A file that changed size is copied again (the in-process function the command runs).
    writeFileSync(join(root, 'owner-a', '1700000000001_foto.jpg'), 'jpg bytes, larger now');
    const counts = await migrateStorage(new LocalStorage(root), bucket);
    expect(counts).toMatchObject({ copied: 1, skipped: 2, failed: 0 });
    bucket.close();
  });

  it('refuses without S3_BUCKET', async () => {
    const run = promisify(execFile);
    const env = { ...process.env, CHARLA_DATA_DIR: join(dir, 'no-bucket'), S3_BUCKET: '' };
    const failed = await run(process.execPath, [BIN, 'storage', 'migrate'], { env }).catch((e) => e);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('S3_BUCKET is not set');
  });
});
