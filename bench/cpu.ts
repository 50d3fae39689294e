/**
 * CPU accounting of `npm run bench` (Linux /proc; figures are undefined elsewhere): the CPU time
 * the server process, the PostgreSQL processes, the fake LLM and the bench itself used during a
 * measurement, and how much the rest of the machine used (other processes share the 2 cores and
 * skew throughput; this makes that visible). CPU ms per message is the steadiest figure of an
 * engine's own cost: it does not change when the machine is busy with something else.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** user + system CPU seconds of a process, or undefined when it is gone or /proc is missing. */
function procCpu(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state is field 3, utime 14, stime 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / TICK;
  } catch {
    return undefined;
  }
}

/**
 * Pids of the PostgreSQL server's own processes (postmaster, WAL writer, checkpointer…) and of
 * the backends connected to `database`; backends of other databases (other work on the machine)
 * are left out. Backends show their database in their title: "postgres: 15/main: user db host(port) …".
 */
function postgresPids(database: string): number[] {
  const client = /\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]|::1?\(\d+\)/;
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() !== 'postgres') return false;
          const title = readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ');
          return !client.test(title) || title.includes(` ${database} `);
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/** Busy CPU seconds of the whole machine (all cores), or undefined without /proc/stat. */
function machineBusy(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    return (user! + nice! + system! + irq! + softirq! + (steal ?? 0)) / TICK;
  } catch {
    return undefined;
  }
}

interface Snapshot {
  at: number;
  server: number | undefined;
  fake: number | undefined;
  postgres: Map<number, number>;
  self: number;
  busy: number | undefined;
}

/** What a window of time cost, in CPU seconds. */
export interface CpuUsage {
  seconds: number;
  server: number | undefined;
  postgres: number | undefined;
  fake: number | undefined;
  bench: number;
  /** Everything else running on the machine meanwhile. */
  other: number | undefined;
}

/** Starts a measurement window over the given processes; `stop()` returns the CPU they used. */
export function cpuWindow(pids: { server: number; fake: number; postgres?: string | undefined }): {
  stop(): CpuUsage;
} {
  const snap = (): Snapshot => {
    const pg = new Map<number, number>();
    if (pids.postgres) {
      for (const pid of postgresPids(pids.postgres)) {
        const t = procCpu(pid);
        if (t !== undefined) pg.set(pid, t);
      }
    }
    const u = process.cpuUsage();
    return {
      at: performance.now(),
      server: procCpu(pids.server),
      fake: procCpu(pids.fake),
      postgres: pg,
      self: (u.user + u.system) / 1e6,
      busy: machineBusy(),
    };
  };
  const a = snap();
  return {
    stop() {
      const b = snap();
      const diff = (x: number | undefined, y: number | undefined) =>
        x === undefined || y === undefined ? undefined : y - x;
      let pg: number | undefined;
      if (pids.postgres) {
        pg = 0;
        for (const [pid, t] of b.postgres) pg += t - (a.postgres.get(pid) ?? 0);
      }
      const server = diff(a.server, b.server);
      const fake = diff(a.fake, b.fake);
      const bench = b.self - a.self;
      const busy = diff(a.busy, b.busy);
      const other =
        busy === undefined ? undefined : Math.max(0, busy - (server ?? 0) - (pg ?? 0) - (fake ?? 0) - bench);
      return { seconds: (b.at - a.at) / 1000, server, postgres: pg, fake, bench, other };
    },
  };
}
