/**
 * The control port of a fake API running as its own bench process (bench/graph-api.ts,
 * bench/telegram-api.ts): `GET /stats` tallies what the fake was sent (`tally`) and answers the
 * counts as JSON; any other path is 404. Also tallies every 50 ms, so the fake's call list stays short.
 * @returns the control address, `http://127.0.0.1:<port>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function serveStats(stats: object, tally: () => void): Promise<string> {
  setInterval(tally, 50);
  const control = createServer((req, res) => {
    tally();
    if (req.url !== '/stats') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
}
