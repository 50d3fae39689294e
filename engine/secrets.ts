/**
 * Secrets at rest. The key comes from `CHARLA_SECRET`, or from
 * `<dataDir>/secret`, generated (32 random bytes, mode 0600) on first use (DESIGN.md: secrets at rest).
 * Encryption is AES-256-GCM from node:crypto with a random 12-byte IV per value.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Returns the configured secret, or reads/creates `<dataDir>/secret`. */
export function resolveSecret(dataDir: string, configured: string | undefined): string {
  if (configured) return configured;
  const file = join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Encrypts values (bot tokens) with a key derived from the instance secret. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`charla:enc:${secret}`).digest();
  }

  /**
   * A stable secret derived for one purpose and value (HMAC-SHA256 under the instance secret,
   * base64url, 43 characters of `A-Za-z0-9_-`), e.g. a bot's webhook secret token. Nothing to
   * store: every process with the same instance secret derives the same value.
   */
  derive(purpose: string, value: string): string {
    return createHmac('sha256', this.key).update(`${purpose}\u0000${value}`).digest('base64url');
  }

  /** Encrypts `plain` to `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /**
   * Decrypts a value made by {@link encrypt}.
   * @throws Error when the value was tampered with or made under another secret.
   */
  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not an encrypted value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/**
 * A new web key (`charla_key`, spec 001 §7 generate_{product}_key): 24 random bytes in base64url,
 * 32 URL-safe characters that cannot be guessed.
 */
export function newCharlaKey(): string {
  return randomBytes(24).toString('base64url');
}
