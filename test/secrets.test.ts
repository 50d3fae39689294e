/** Secrets at rest (engine/secrets.ts): AES-256-GCM under the instance secret. */
import { describe, expect, it } from 'vitest';
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
