/**
 * Request ids in every log line (issue 26 §3): a line logged deep in an adapter while it answers a
 * request carries that request's id, the id a proxy sent (`x-request-id`) is kept and sent back,
 * an unsafe one is replaced, and lines of jobs and channel updates carry theirs.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLogContext, withLogContext } from '../engine/log-context.ts';
import { createLogger } from '../engine/logger.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';

/** A logger whose JSON lines are kept in `lines`. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: createLogger({ level: 'info', destination }), lines };
}

describe('log lines say which request, job or update they belong to', () => {
  const { log, lines } = capturingLogger();
  let app: TestApp;
  beforeAll(async () => {
    // CHARLA_LOG_CONTEXT=on (what `charla serve` sets from the configuration).
    setLogContext(true);
    app = await createTestApp('pglite', { log });
  });
  afterAll(async () => {
    await app?.close();
    setLogContext(false);
  });

  it('a line an adapter logs while answering a request carries the request id the proxy sent', async () => {
    const owner = await app.owner('ids@example.com');
    const http = await app.http();
    const auth = { authorization: `Bearer ${owner.token}` };
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth,
      payload: { business_name: 'Ids', business_description: 'Tienda.' },
    });
    const chatbotId = (saved.json() as { id: string }).id;
    const removed = await http.inject({
      method: 'POST',
      url: '/api/remove-telegram',
      headers: { ...auth, 'x-request-id': 'proxy-req-42' },
      payload: { chatbotId },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.headers['x-request-id']).toBe('proxy-req-42');
    const line = lines.find((l) => l.msg === 'telegram bot disconnected by its owner');
    expect(line?.reqId).toBe('proxy-req-42');
    expect(line?.channel).toBe('telegram');

    // A header that could forge log lines is not used; each request gets its own id.
    const other = await http.inject({
      method: 'POST',
      url: '/api/remove-telegram',
      headers: { ...auth, 'x-request-id': 'a"} {"level":60' },
      payload: { chatbotId },
    });
    expect(other.statusCode, other.body).toBe(200);
    const ids = [
      other.headers['x-request-id'],
      (await http.inject({ url: '/healthz' })).headers['x-request-id'],
    ];
    expect(ids[0]).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(ids[1]).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(ids[0]).not.toBe(ids[1]);
    const second = lines.filter((l) => l.msg === 'telegram bot disconnected by its owner')[1];
    expect(second?.reqId).toBe(ids[0]);
  });

  it('a context follows awaits and timers, nests, and ends with its work', async () => {
    const of = (msg: string) => lines.find((l) => l.msg === msg);
    await withLogContext({ jobId: 'job-1', queue: 'reminders' }, async () => {
      await new Promise((r) => setTimeout(r, 5));
      await withLogContext({ updateKey: '7:100' }, async () => {
        await Promise.resolve();
        log.info('inner');
      });
      log.info('outer');
    });
    log.info('outside');
    // One line's fields never stay for the next (pino merges them into what the mixin returns).
    await withLogContext({ reqId: 'r-1' }, async () => {
      log.warn({ err: new Error('first') }, 'with error');
      log.info('after error');
    });
    log.warn({ err: Object.freeze(new Error('frozen')) }, 'outside with error');
    expect(of('after error')).toMatchObject({ reqId: 'r-1' });
    expect(of('after error')?.err).toBeUndefined();
    expect(of('outside with error')?.reqId).toBeUndefined();
    expect(of('inner')).toMatchObject({ jobId: 'job-1', queue: 'reminders', updateKey: '7:100' });
    expect(of('outer')).toMatchObject({ jobId: 'job-1', queue: 'reminders' });
    expect(of('outer')?.updateKey).toBeUndefined();
    expect(of('outside')?.jobId).toBeUndefined();
  });
});
