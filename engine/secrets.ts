/**
 * Secrets at rest. The key comes from `CHARLA_SECRET`, or from
 * `<dataDir>/secret`, generated (32 random bytes, mode 0600) on first use (DESIGN.md: secrets at rest).
 * Encryption is AES-256-GCM from node:crypto with a random 12-byte IV per value. Bearer secrets the
 * server only has to recognise (owner session tokens) are stored as {@link hashToken} hashes, and
 * the embedded data dir is kept private to its user ({@link secureDataDir}; issue 24 item 6).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { type Dirent, existsSync, mkdirSync, readFileSync, type Stats, writeFileSync } from 'node:fs';
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Returns the configured secret, or reads/creates `<dataDir>/secret`. */
export function resolveSecret(dataDir: string, configured: string | undefined): string {
  if (configured) return configured;
  const file = join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
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

/**
 * What is stored for a bearer secret the server only has to recognise (an owner's session token,
 * issue 24 item 6): SHA-256 of its UTF-8 bytes, base64url without padding (43 characters), the
 * form better-auth's `verification.storeIdentifier: 'hashed'` uses. Unsalted on purpose: the tokens
 * are random (32 characters of [A-Za-z0-9], about 190 bits), so the hash cannot be reversed by
 * guessing, and a lookup needs the same value every time. migrations/202611251400_hashed_session_tokens.ts
 * computes the same value in SQL.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/** Mode of the embedded data dir and of every folder in it: only its user may list or enter it. */
export const DATA_DIR_MODE = 0o700;

/**
 * Makes an existing data dir private to its user (issue 24 item 6): the folder and every folder
 * below it 0700, every file without group or other bits (0600 for the files Charla writes:
 * pgdata, storage, secret, outbox, server.json, locks). New files come out private through the
 * command's umask (cli/main.ts), except some the embedded PGlite writes with modes of its own (its
 * initdb leaves 0666 files, its relation cache file `pg_internal.init` comes out 0644): the `charla`
 * command therefore runs this before each command (a data dir made by an older version, 0755
 * folders and 0644 files, is tightened on upgrade) and again once the command has done its work or
 * the server is up (`always`). Without `always`, a data dir already at 0700 is not walked, which
 * keeps the check at start to one `lstat`. Symbolic links are not followed. A missing dir is not
 * created; an entry removed during the walk is skipped. The walk is asynchronous: run once the server
 * is up, it never holds up a request (a synchronous walk of an embedded database's 1,400 entries
 * kept `charla serve` from answering for 100–400 ms after it started listening).
 * @returns how many entries had their mode changed.
 * @throws the file system's error when a mode cannot be changed (e.g. EPERM on a file of another user).
 */
export async function secureDataDir(dataDir: string, options: { always?: boolean } = {}): Promise<number> {
  let top: Stats;
  try {
    top = await lstat(dataDir);
  } catch {
    return 0;
  }
  if (!top.isDirectory() || ((top.mode & 0o077) === 0 && !options.always)) return 0;
  let changed = 0;
  const tighten = async (path: string, mode: number, dir: boolean) => {
    const wanted = dir ? DATA_DIR_MODE : mode & 0o700;
    if ((mode & 0o777) !== wanted) {
      await chmod(path, wanted);
      changed++;
    }
  };
  const gone = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';
  const walk = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (gone(err)) return;
      throw err;
    }
    // A folder's entries at once (the thread pool runs their lstat and chmod in parallel).
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.isSymbolicLink()) return;
        const path = join(dir, entry.name);
        try {
          await tighten(path, (await lstat(path)).mode, entry.isDirectory());
          if (entry.isDirectory()) await walk(path);
        } catch (err) {
          if (!gone(err)) throw err;
        }
      }),
    );
  };
  await tighten(dataDir, top.mode, true);
  await walk(dataDir);
  return changed;
}
