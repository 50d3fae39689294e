/**
 * The embedded database's lock (PGlite runs in one process): `<dataDir>/pgdata/charla.lock` names
 * the process that holds the data dir, so a second `charla` refuses to open it (DataDirBusyError)
 * while the first lives, and takes it over when the holder is gone, a zombie, or its pid now
 * belongs to another program (/proc: start time, boot id, command line).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** Thrown when another live process holds the embedded database. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by another Charla process (pid ${pid}). ` +
        'Stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.',
    );
    this.name = 'DataDirBusyError';
  }
}

/**
 * Who holds a data dir's lock file (`<dataDir>/pgdata/charla.lock`, JSON). Charla before issue 24
 * wrote the bare pid; such a lock is still read ({@link readLock}).
 */
export interface LockHolder {
  pid: number;
  /** Linux: the boot the holder runs in (`/proc/sys/kernel/random/boot_id`). */
  boot?: string;
  /** Linux: the holder's start time, clock ticks after boot (`/proc/<pid>/stat`, field 22). */
  start?: string;
  /** A random id of this opening: `close` removes the lock only while it is still its own. */
  instance?: string;
}

/** Fields of `/proc/<pid>/stat` that tell whether a pid is still the same live process (Linux). */
interface ProcStat {
  /** `R`, `S`, `D`, `T`, `t`, `Z` (zombie), `X`/`x` (dead), … (proc(5)). */
  state: string;
  /** Field 22, `starttime`: clock ticks after boot. */
  start: string;
}

/**
 * `/proc/<pid>/stat`'s state and start time; null when the file does not exist (no such process,
 * or no procfs: not Linux). The command name (field 2) may hold spaces and parentheses, so fields
 * are counted from its last `)`.
 */
function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', start: fields[19] ?? '' };
}

/** The current boot's id (Linux), or undefined. */
function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** True where `/proc` describes processes (Linux). */
const HAS_PROCFS = existsSync('/proc/self/stat');

/** This process as a lock holder. */
function thisHolder(): LockHolder {
  const boot = bootId();
  const start = procStat(process.pid)?.start;
  return { pid: process.pid, ...(boot ? { boot } : {}), ...(start ? { start } : {}), instance: randomUUID() };
}

/** A file's text, or null when it cannot be read (gone). */
function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The holder a lock file names, or null when it names none (unreadable, empty or garbled). */
export function readLock(file: string): LockHolder | null {
  const text = readText(file)?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return { pid: Number(text) }; // an older Charla's lock: the pid alone
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (!Number.isInteger(parsed.pid) || (parsed.pid as number) <= 0) return null;
    return {
      pid: parsed.pid as number,
      ...(typeof parsed.boot === 'string' ? { boot: parsed.boot } : {}),
      ...(typeof parsed.start === 'string' ? { start: parsed.start } : {}),
      ...(typeof parsed.instance === 'string' ? { instance: parsed.instance } : {}),
    };
  } catch {
    return null;
  }
}

/** A command line that runs Charla: Node (or a Node-compatible runtime) or something named charla. */
function runsCharla(pid: number): boolean {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return true; // not ours to read (another user's process): as alive as kill(pid, 0) says
  }
  if (argv.length === 0) return false; // a kernel thread, or a process on its way out
  return (
    /^(node|nodejs|bun|deno)(\d|$)|charla/i.test(basename(argv[0]!)) || argv.some((a) => /charla/i.test(a))
  );
}

/**
 * True when the process a lock names still runs and is the one that wrote it, so the data dir is
 * in use (issue 24 §8). On Linux, from `/proc/<pid>/stat`: no such process, a zombie (`Z`: it exited
 * and its parent has not reaped it) or a dead one (`X`) holds nothing; a lock that records the
 * holder's boot and start time holds only while the pid still has them (a pid reused by another
 * program after a crash does not); a bare-pid lock of an older Charla holds only while the pid runs
 * Node or something named charla (`/proc/<pid>/cmdline`). Elsewhere `kill(pid, 0)`: the pid exists.
 */
export function holderAlive(holder: LockHolder): boolean {
  if (HAS_PROCFS) {
    const stat = procStat(holder.pid);
    if (!stat || stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
    if (holder.boot !== undefined && holder.boot !== bootId()) return false;
    if (holder.start !== undefined) return holder.start === stat.start;
    return runsCharla(holder.pid);
  }
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is a single-process database: two processes writing one data dir corrupt it. A lock
 * file naming the holder ({@link LockHolder}: pid, and on Linux its boot and start time) keeps a
 * second `charla` command out; a stale lock (see {@link holderAlive}: a dead pid, a zombie, a pid
 * reused by another program) is taken over. The file is created exclusively (`wx`), so of two
 * processes taking over one stale lock at once, one gets it and the other is told it is busy.
 * @returns the function that removes the lock (only while it is still this opening's).
 * @throws DataDirBusyError when a live process holds the lock.
 */
export function lockDataDir(dir: string): () => void {
  const lock = join(dir, 'charla.lock');
  const me = thisHolder();
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, JSON.stringify(me), { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw err;
    }
    const text = readText(lock);
    if (text === null) continue; // removed meanwhile: try again
    const holder = readLock(lock);
    if (holder && holder.pid !== process.pid && holderAlive(holder))
      throw new DataDirBusyError(dir, holder.pid);
    // Stale. Removed only if unchanged since read: a process that took it over meanwhile keeps it.
    if (readText(lock) === text) rmSync(lock, { force: true });
  }
  return () => {
    try {
      if (readLock(lock)?.instance === me.instance) rmSync(lock);
    } catch {
      // already gone
    }
  };
}

/**
 * Returns the pid of the live process holding the embedded database in `dataDir` (see
 * {@link holderAlive}), or null.
 */
export function dataDirHolder(dataDir: string): number | null {
  const holder = readLock(join(dataDir, 'pgdata', 'charla.lock'));
  return holder && holder.pid !== process.pid && holderAlive(holder) ? holder.pid : null;
}
