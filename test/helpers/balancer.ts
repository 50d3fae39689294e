/**
 * A TCP load balancer on 127.0.0.1 in front of several Charla nodes (issue 26 §2: several nodes
 * behind one address, the deployment's `PUBLIC_URL`): each new connection goes to the next node in
 * turn, or to the `preferred` one when set; a node that refuses the connection (stopped, crashed)
 * is skipped and the next one tried, as a balancer's passive health check does. A connection stays
 * with the node it was given (HTTP keep-alive), so a node that closes it sends the client to
 * another one on its next connection.
 */
import { createServer, type Server, Socket } from 'node:net';

/** A running balancer. */
export interface Balancer {
  /** Its address, e.g. http://127.0.0.1:40123. */
  url: string;
  /** Replaces the nodes' ports (in turn order). */
  setTargets(ports: number[]): void;
  /**
   * Sends new connections to this port first (the others only when it refuses); null: in turn.
   * Ends the open connections, so the clients' next requests follow the new rule (call it idle).
   */
  prefer(port: number | null): void;
  close(): Promise<void>;
}

/** Starts a balancer over the nodes listening on `ports` (127.0.0.1). */
export async function startBalancer(ports: number[]): Promise<Balancer> {
  let targets = [...ports];
  let preferred: number | null = null;
  let turn = 0;
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  };
  /** The order in which to try the nodes for one new connection. */
  const order = (): number[] => {
    if (preferred !== null) return [preferred, ...targets.filter((p) => p !== preferred)];
    const start = turn++ % Math.max(1, targets.length);
    return [...targets.slice(start), ...targets.slice(0, start)];
  };
  const server: Server = createServer((client) => {
    track(client);
    client.pause();
    const tryNext = (candidates: number[]) => {
      const port = candidates[0];
      if (port === undefined) {
        client.resetAndDestroy();
        return;
      }
      const upstream = new Socket();
      let connected = false;
      upstream.once('error', () => {
        if (!connected) tryNext(candidates.slice(1));
      });
      upstream.connect(port, '127.0.0.1', () => {
        connected = true;
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.resume();
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('close', end);
        upstream.on('close', end);
      });
    };
    tryNext(order());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('balancer: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    setTargets(next) {
      targets = [...next];
    },
    prefer(port) {
      preferred = port;
      for (const s of [...sockets]) s.destroy();
    },
    async close() {
      for (const s of [...sockets]) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
