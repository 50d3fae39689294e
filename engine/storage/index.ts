/**
 * File storage for bot files (DESIGN.md: local disk by default behind a small interface, S3-like
 * later). Keys have the spec's form `{userId}/{timestamp}_{name}` (spec 000 §3) and are served
 * under `/files/{key}`.
 */
import { mkdirSync } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/** Where bot files live. */
export interface Storage {
  /** Writes bytes under `key` atomically (a reader never sees half a file). */
  put(key: string, data: Uint8Array): Promise<void>;
  /** Removes a key; a missing key is not an error. */
  remove(key: string): Promise<void>;
  /** True when the key exists. */
  exists(key: string): Promise<boolean>;
  /** Absolute path on disk (local storage only), for serving and for tools like ffmpeg. */
  pathOf(key: string): string;
  /** The folder served under `/files/`. */
  readonly root: string;
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
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
    mkdirSync(this.root, { recursive: true });
  }

  /** @throws Error when the key escapes the storage root. */
  pathOf(key: string): string {
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new Error(`invalid storage key: ${key}`);
    return path;
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.part-${process.pid}`;
    await writeFile(tmp, data);
    await rename(tmp, path);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch {
      return false;
    }
  }
}

/** The address of a stored file: http(s) addresses as they are, keys under `{base}/files/`. */
export function publicFileUrl(fileUrl: string, baseUrl: string | undefined): string {
  if (/^https?:\/\//i.test(fileUrl)) return fileUrl;
  const path = `/files/${fileUrl.split('/').map(encodeURIComponent).join('/')}`;
  return baseUrl ? `${baseUrl}${path}` : path;
}
