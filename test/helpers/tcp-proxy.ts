/**
 * A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL in test/connection-loss.test.ts), to
 * cut the network between Charla and its database the ways real networks fail (issue 24 §1):
 *
 * - `open`: bytes flow both ways;
 * - `refuse`: every open connection is reset and new ones are reset as soon as they arrive (a
 *   database host that went away, a failover in progress);
 * - `blackhole`: every open connection is reset and new ones are accepted but never answered (a
 *   firewall dropping packets, a half-dead load balancer): only a client's own timeout ends them.
 *
 * `cut(mode)` switches to `refuse` or `blackhole`; `restore()` goes back to `open`.
 */
import { createServer, type Server, Socket } from 'node:net';

/** How the proxy treats connections. */
export type ProxyMode = 'open' | 'refuse' | 'blackhole';

/** A running proxy. */
export interface TcpProxy {
  /** The port it listens on (127.0.0.1). */
  port: number;
  /** Resets every connection and treats new ones as `mode` says. */
  cut(mode: Exclude<ProxyMode, 'open'>): void;
  /** Lets connections through again (those cut stay cut). */
  restore(): void;
  /** Connections accepted so far (tests check that the app really goes through the proxy). */
  accepted(): number;
  /**
   * The local ports of the proxy's open connections to the target: PostgreSQL shows them as
   * `client_port` in `pg_stat_activity`, which picks out exactly the backends behind this proxy.
   */
  upstreamPorts(): number[];
  close(): Promise<void>;
}

/** Starts a proxy to `target` (host and port) on a free port of 127.0.0.1. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'open';
  let accepted = 0;
  const sockets = new Set<Socket>();
  const upstreams = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {}); // a reset is what this proxy is for
  };
  const server: Server = createServer((client) => {
    accepted++;
    track(client);
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    if (mode === 'blackhole') return; // held open, never answered
    const upstream = new Socket();
    track(upstream);
    upstreams.add(upstream);
    upstream.on('close', () => upstreams.delete(upstream));
    upstream.connect(target.port, target.host);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy: no port');
  const resetAll = () => {
    for (const s of [...sockets]) {
      if (!s.destroyed) s.resetAndDestroy();
    }
  };
  return {
    port: address.port,
    cut(next) {
      mode = next;
      resetAll();
    },
    restore() {
      mode = 'open';
    },
    accepted: () => accepted,
    upstreamPorts: () => [...upstreams].map((s) => s.localPort).filter((p): p is number => p !== undefined),
    async close() {
      mode = 'refuse';
      resetAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
