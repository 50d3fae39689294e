/**
 * File storage for bot files (DESIGN.md: local disk by default behind a small interface; issue 26
 * §1: S3-compatible object storage when `S3_BUCKET` is set, engine/storage/s3.ts). Keys have the
 * spec's form `{userId}/{timestamp}_{name}` (spec 000 §3) and are served under `/files/{key}` by
 * Charla itself (engine/http/routes/files-serve.ts), whichever backend holds them.
 *
 * Nothing outside this folder assumes a local disk: readers stream through `get`, and only a tool
 * that needs a file path (none today: ffmpeg converts uploads before they are stored) may use the
 * optional `localPath` fast path of the local backend.
 */
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Inclusive byte range of an object (`bytes=start-end`), already checked against its size. */
export interface ByteRange {
  start: number;
  end: number;
}

/** What `head` knows about a stored object. */
export interface ObjectInfo {
  /** Size of the whole object, bytes. */
  size: number;
  contentType: string;
  /** Quoted entity tag as sent in `ETag` (weak `W/"…"` for the local backend). */
  etag: string;
  lastModified: Date;
}

/** An opened object: its bytes (the whole object or the asked range) and what `head` tells. */
export interface StoredObject extends ObjectInfo {
  /** The bytes; read it to the end or destroy it. */
  stream: Readable;
  /** The range the stream holds, when one was asked. */
  range?: ByteRange;
}

/** Options of `put`. */
export interface PutOptions {
  /** MIME type served with the object; default from the key's extension. */
  contentType?: string;
}

/** Where bot files live. */
export interface Storage {
  /** `local` (disk) or `s3` (an S3-compatible bucket). */
  readonly kind: 'local' | 's3';
  /**
   * Writes `data` under `key` atomically (a reader never sees half a file). A stream is written as
   * it comes, never held whole in memory.
   * @throws Error when the key is invalid (empty, absolute, with `.`/`..` segments).
   */
  put(key: string, data: Uint8Array | Readable, options?: PutOptions): Promise<void>;
  /** Opens a key (or a range of it); null when there is no such object. */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  /** What is known about a key without reading it; null when there is no such object. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Removes a key; a missing key is not an error. */
  remove(key: string): Promise<void>;
  /** True when the key exists. */
  exists(key: string): Promise<boolean>;
  /** Every stored key with its size (`charla storage migrate`). */
  list(): AsyncIterable<{ key: string; size: number }>;
  /**
   * The key's absolute path on this machine: the local backend only, for a tool that needs a file.
   * Other backends leave it undefined (download to a temporary file instead).
   */
  localPath?(key: string): string;
  /** Releases the backend's connections (S3); nothing for the local disk. */
  close?(): void;
}

/**
 * A stored file's key has no object (deleted behind the database's back, a storage outage that
 * lost it): sending it again will not help, so channels treat it as a permanent failure and do not
 * retry (issue 26 §1).
 */
export class MissingFileError extends Error {
  override name = 'MissingFileError';
  /** Always true: what the channels' retry decisions look at. */
  readonly permanent = true;
  constructor(readonly key: string) {
    super(`stored file not found: ${key}`);
  }
}

/** True for a `MissingFileError` (also across module copies, by name). */
export function isMissingFile(err: unknown): err is MissingFileError {
  return err instanceof MissingFileError || (err instanceof Error && err.name === 'MissingFileError');
}

/**
 * Checks a key the way both backends need: nothing that could escape the root or name a folder
 * (no empty, `.` or `..` segment, no backslash, no NUL), at most 1024 characters.
 * @throws Error `invalid storage key` otherwise.
 */
export function assertKey(key: string): void {
  const parts = key.split('/');
  if (
    !key ||
    key.length > 1024 ||
    key.includes('\\') ||
    key.includes('\0') ||
    parts.some((p) => !p || p === '.' || p === '..')
  )
    throw new Error(`invalid storage key: ${key}`);
}

/** MIME types of the extensions stored files have (engine/files.ts formats, and a few text types). */
const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  html: 'text/html; charset=UTF-8',
  htm: 'text/html; charset=UTF-8',
  txt: 'text/plain; charset=UTF-8',
  json: 'application/json; charset=UTF-8',
};

/** The MIME type of a key by its extension; `application/octet-stream` when unknown. */
export function contentTypeOf(key: string): string {
  return TYPES[extname(key).slice(1).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Normalises an uploaded file's name (spec 000 §5): accents removed, spaces to underscores, every
 * other character outside `A-Za-z0-9._-` to an underscore, and the extension ensured: when the
 * name lacks `ext` (or one of its `aliases`), `.ext` replaces or follows it.
 * `"Menú del día.PDF"` with ext `pdf` → `"Menu_del_dia.PDF"`; `"foto"` with ext `jpg` → `"foto.jpg"`.
 */
export function normalizeFileName(name: string, ext: string, aliases: readonly string[] = []): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  let clean = base
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/\s/g, '_')
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '');
  const accepted = new Set([ext, ...aliases].map((e) => e.toLowerCase()));
  const dot = clean.lastIndexOf('.');
  const current = dot > 0 ? clean.slice(dot + 1).toLowerCase() : '';
  if (!accepted.has(current)) {
    const stem = dot > 0 && /^[a-z0-9]{1,5}$/i.test(current) ? clean.slice(0, dot) : clean;
    clean = `${stem || 'archivo'}.${ext}`;
  }
  return clean.slice(-150);
}

/** The storage key of a new upload: `{userId}/{timestamp}_{name}` (spec 000 §3). */
export function storageKey(userId: string, fileName: string, now = Date.now()): string {
  return `${userId}/${now}_${fileName}`;
}

/** Local-disk storage under `root` (default `.charla/storage/chatbot-files`). */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  /** The folder that holds the files. */
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
    mkdirSync(this.root, { recursive: true });
  }

  /**
   * Absolute path of a key under the root.
   * @throws Error when the key is invalid or escapes the storage root.
   */
  pathOf(key: string): string {
    assertKey(key);
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new Error(`invalid storage key: ${key}`);
    return path;
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  async put(key: string, data: Uint8Array | Readable, _options?: PutOptions): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.part-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    try {
      if (data instanceof Readable) await pipeline(data, createWriteStream(tmp));
      else await writeFile(tmp, data);
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const s = await stat(this.pathOf(key));
      if (!s.isFile()) return null;
      return {
        size: s.size,
        contentType: contentTypeOf(key),
        // The form @fastify/send used: weak, from size and modification time.
        etag: `W/"${s.size.toString(16)}-${s.mtime.getTime().toString(16)}"`,
        lastModified: s.mtime,
      };
    } catch {
      return null;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    const info = await this.head(key);
    if (!info) return null;
    const stream = createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
    // Removed between stat and open: the same answer as before the stat.
    const opened = await new Promise<boolean>((done) => {
      stream.once('open', () => done(true));
      stream.once('error', () => done(false));
    });
    if (!opened) return null;
    return range ? { ...info, stream, range } : { ...info, stream };
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async *list(): AsyncIterable<{ key: string; size: number }> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      // Half-written files of `put` (`name.part-<pid>-<random>`) are no objects yet.
      if (!entry.isFile() || /\.part-\d+(-[a-z0-9]+)?$/.test(entry.name)) continue;
      const path = join(entry.parentPath, entry.name);
      const key = relative(this.root, path).split(sep).join('/');
      try {
        assertKey(key);
      } catch {
        continue;
      }
      const s = await stat(path).catch(() => null);
      if (s?.isFile()) yield { key, size: s.size };
    }
  }
}

/** The address of a stored file: http(s) addresses as they are, keys under `{base}/files/`. */
export function publicFileUrl(fileUrl: string, baseUrl: string | undefined): string {
  if (/^https?:\/\//i.test(fileUrl)) return fileUrl;
  const path = `/files/${fileUrl.split('/').map(encodeURIComponent).join('/')}`;
  return baseUrl ? `${baseUrl}${path}` : path;
}

/**
 * The inverse of {@link publicFileUrl}: the storage key of a `/files/…` address this server gave
 * (relative, or under `baseUrl`), else null (an address elsewhere, or a malformed escape).
 */
export function storageKeyOfUrl(url: string, baseUrl: string | undefined): string | null {
  const path = baseUrl && url.startsWith(`${baseUrl}/files/`) ? url.slice(baseUrl.length) : url;
  if (!path.startsWith('/files/')) return null;
  try {
    return path.slice('/files/'.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
}
