/**
 * The embedded database's data-dir lock (issue 24 §8): PGlite is single-process, so a second
 * Charla must not open a data dir another live Charla holds, but a lock left behind must not keep
 * the owner out of their own data either. A lock naming a zombie (a process that exited and was not
 * reaped), a pid now used by another program, or a Charla killed with SIGKILL is taken over; a lock
 * of a live Charla process is respected (`DataDirBusyError`, and `dataDirHolder` names it).
 * Linux checks /proc; the zombie and reused-pid cases need it and are skipped elsewhere.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../engine/store/connect.ts';
import { DataDirBusyError, dataDirHolder } from '../engine/store/data-dir-lock.ts';
import { testDataDir } from './helpers/db.ts';

const LINUX = existsSync('/proc/self/stat');

/** `/proc/<pid>/stat`'s state letter and start time (field 22). */
function stat(pid: number): { state: string; start: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, start: fields[19]! };
  } catch {
    return null;
  }
}

/** Waits for a child's first stdout line that matches `pattern`. */
function lineOf(child: ChildProcess, pattern: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in: ${out}`)), timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

describe('the embedded database’s lock', () => {
  let dataDir: string;
  const lock = () => join(dataDir, 'pgdata', 'charla.lock');
  const children: ChildProcess[] = [];
  const start = (cmd: string, args: string[]) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    return child;
  };
  /** Opens and closes the store: resolves when the data dir could be taken. */
  const openAndClose = async () => {
    const store = await openStore({ dataDir });
    await store.raw.executeSql('SELECT 1');
    await store.close();
  };

  beforeAll(async () => {
    dataDir = await testDataDir();
  }, 120_000);
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.skipIf(!LINUX)('takes over a lock whose process is a zombie', async () => {
    // `sh` forks a short-lived child, then becomes `sleep`, which never reaps it: a zombie.
    const parent = start('sh', ['-c', '(sleep 0.2) & echo $!; exec sleep 30']);
    const zombie = Number((await lineOf(parent, /^(\d+)\n/m))[1]);
    await expect.poll(() => stat(zombie)?.state, { timeout: 5_000 }).toBe('Z');

    writeFileSync(lock(), String(zombie)); // as Charla wrote it before: the bare pid
    expect(dataDirHolder(dataDir)).toBeNull();
    await openAndClose();
    const z = stat(zombie)!;
    writeFileSync(lock(), JSON.stringify({ pid: zombie, start: z.start }));
    expect(dataDirHolder(dataDir)).toBeNull();
    await openAndClose();
    expect(existsSync(lock())).toBe(false); // closing removes the lock it took
  });

  it.skipIf(!LINUX)('takes over a lock whose pid now belongs to another program', async () => {
    const other = start('sleep', ['30']);
    await expect.poll(() => stat(other.pid!)?.state).toBe('S');
    writeFileSync(lock(), String(other.pid)); // a bare pid, now `sleep`'s: not Charla
    expect(dataDirHolder(dataDir)).toBeNull();
    await openAndClose();
    // A lock recording another start time: the pid was reused since it was written.
    writeFileSync(
      lock(),
      JSON.stringify({ pid: other.pid, start: String(Number(stat(other.pid!)!.start) - 1) }),
    );
    expect(dataDirHolder(dataDir)).toBeNull();
    await openAndClose();
  });

  it('keeps a live Charla’s data dir locked, and frees it once that process is killed', async () => {
    const holder = start(process.execPath, ['bin/run-ts.js', 'test/helpers/lock-holder.ts', dataDir]);
    const pid = Number((await lineOf(holder, /ready (\d+)/))[1]);
    expect(pid).toBe(holder.pid);
    expect(dataDirHolder(dataDir)).toBe(pid);
    const refused = await openStore({ dataDir }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DataDirBusyError);
    expect((refused as DataDirBusyError).pid).toBe(pid);
    // The same process as an older Charla would have written it (a bare pid): still respected.
    const written = readFileSync(lock(), 'utf8');
    writeFileSync(lock(), String(pid));
    expect(dataDirHolder(dataDir)).toBe(pid);
    writeFileSync(lock(), written);

    const exited = new Promise((r) => holder.once('exit', r));
    holder.kill('SIGKILL'); // leaves its lock behind
    await exited;
    expect(existsSync(lock())).toBe(true);
    expect(dataDirHolder(dataDir)).toBeNull();
    await openAndClose();
  }, 120_000);
});
