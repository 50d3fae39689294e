/**
 * Secrets at rest (engine/secrets.ts): AES-256-GCM under the instance secret; and Telegram tokens
 * kept out of logs and of the errors owners read.
 */
import { Writable } from 'node:stream';
import { HttpError } from 'grammy';
import { describe, expect, it } from 'vitest';
import { describeError } from '../adapters/telegram/bot-api.ts';
import { createLogger } from '../engine/logger.ts';
import { SecretBox } from '../engine/secrets.ts';

describe('SecretBox', () => {
  const box = new SecretBox('instance-secret-one');
  it('round-trips a value and never stores it in the clear', () => {
    const sealed = box.encrypt('123456:ABC-telegram-token');
    expect(sealed).not.toContain('telegram');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.decrypt(sealed)).toBe('123456:ABC-telegram-token');
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });
  it('refuses a tampered value or another instance’s secret', () => {
    const sealed = box.encrypt('value');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => box.decrypt(parts.join('.'))).toThrow();
    expect(() => new SecretBox('instance-secret-two').decrypt(sealed)).toThrow();
    expect(() => box.decrypt('plain-text')).toThrow('not an encrypted value');
  });
});

describe('Telegram tokens in logs and owner-facing errors', () => {
  const token = '123456789:AAHsecretsecretsecretsecretsecret12';
  it('scrubs a token out of a logged network error, its stack and its cause', () => {
    const lines: string[] = [];
    const log = createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    });
    const err = new Error(`request to https://api.telegram.org/bot${token}/getUpdates failed`, {
      cause: new Error(`connect ECONNREFUSED for /bot${token}/getMe`),
    });
    log.warn({ err }, 'telegram connection problem');
    const out = lines.join('');
    expect(out).toContain('bot<token>');
    expect(out).not.toContain(token.split(':')[1]);
  });
  it('describes a network failure to the owner without the token', () => {
    const failure = new HttpError(
      `Network request for 'getMe' failed!`,
      new Error(`request to http://127.0.0.1:9/bot${token}/getMe failed, reason: connect ECONNREFUSED`),
    );
    const text = describeError(failure);
    expect(text).toContain('ECONNREFUSED');
    expect(text).not.toContain(token.split(':')[1]);
  });
});
