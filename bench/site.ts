/**
 * The public pages' weight and lab speed (issue 16 benchmark): for `/`, `/en/`, `/facebots` and the
 * demo IALanding, loaded cold in headless Chromium (Debian's) on a throttled phone profile like
 * Lighthouse's mobile one (412 × 823 px, 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU
 * slowed 4×): the JavaScript fetched on first load (gzip -9 of each script), the bytes on the wire,
 * the largest contentful paint and the total blocking time (long tasks' time over 50 ms, from the
 * first paint until the page is quiet). Median of three loads each. `charla serve` runs as
 * `npm start` runs it (the bundle), on PGlite with the demo seeded.
 *
 * Goals: LCP < 1.5 s and TBT < 100 ms on that profile; JS for `/` ≤ 60 KB gzip.
 * Alone: `BENCH_ONLY=site node bin/run-ts.js bench/site.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';
import { freePort, spawnNode, waitHealthy } from './procs.ts';

/** Issue 16's goals. */
export const SITE_GOALS = { lcpMs: 1500, tbtMs: 100, homeJsKb: 60 } as const;

/** Lighthouse's mobile throttling (simulated "Slow 4G" and a mid-range phone's CPU). */
const PROFILE = { latencyMs: 150, downBps: (1.6 * 1024 * 1024) / 8, upBps: (750 * 1024) / 8, cpu: 4 };
const PAGES = ['/', '/en/', '/facebots', '/ialanding/ialanding-el-pato-pepe'];
const RUNS = 3;

interface Load {
  jsGzip: number;
  transfer: number;
  lcpMs: number;
  tbtMs: number;
}

async function loadOnce(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PROFILE.latencyMs,
    downloadThroughput: PROFILE.downBps,
    uploadThroughput: PROFILE.upBps,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpu });
  let transfer = 0;
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
    transfer += e.encodedDataLength;
  });
  const scripts: Promise<number>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script')
      scripts.push(
        res.body().then(
          (b) => gzipSync(b, { level: 9 }).length,
          () => 0,
        ),
      );
  });
  // Runs in the page (a string: this file is type-checked without the DOM's types).
  await page.addInitScript(`
    window.__lcp = 0; window.__tbt = 0; window.__fcp = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__lcp = Math.max(window.__lcp, e.startTime);
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__fcp = e.startTime;
    }).observe({ type: 'paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.startTime >= window.__fcp) window.__tbt += Math.max(0, e.duration - 50);
    }).observe({ type: 'longtask', buffered: true });
  `);
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  // Quiet: no request for 1 s (the app's data calls), then the paint entries are final.
  await page.waitForLoadState('networkidle', { timeout: 60_000 }).catch(() => {});
  await page.waitForTimeout(1000);
  const { lcp, tbt } = await page.evaluate<{ lcp: number; tbt: number }>(
    '({ lcp: window.__lcp, tbt: window.__tbt })',
  );
  const jsGzip = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
  await context.close();
  return { jsGzip, transfer, lcpMs: lcp, tbtMs: tbt };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Runs the section; resolves with the printed lines and whether something broke. */
export async function siteBench(): Promise<{ text: string; failed: boolean }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-bench-site-'));
  const env = {
    CHARLA_DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
  };
  const run = async (args: string[]) => {
    const child = spawnNode(`charla ${args[0]}`, ['bin/charla.js', ...args], env);
    const code = await new Promise<number | null>((r) => child.proc.once('exit', r));
    if (code !== 0) throw new Error(`charla ${args.join(' ')} exited with ${code}\n${child.output()}`);
  };
  await run(['migrate']);
  await run(['seed', '--demo']);
  const port = await freePort();
  const server = spawnNode(
    'charla serve',
    ['bin/charla.js', 'serve', '--port', String(port), '--host', '127.0.0.1'],
    env,
  );
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const lines = [
    '',
    `Public pages, cold load in Chromium on a throttled phone (${PROFILE.latencyMs} ms RTT, 1.6 Mbit/s, CPU ${PROFILE.cpu}× slower; median of ${RUNS})`,
    `  ${'page'.padEnd(36)} ${'JS gzip'.padStart(9)} ${'on the wire'.padStart(12)} ${'LCP'.padStart(8)} ${'TBT'.padStart(7)}`,
  ];
  let failed = false;
  try {
    await waitHealthy(`${base}/healthz`, server, 60_000);
    for (const path of PAGES) {
      const loads: Load[] = [];
      for (let i = 0; i < RUNS; i++) loads.push(await loadOnce(browser, base + path));
      const js = median(loads.map((l) => l.jsGzip)) / 1024;
      const wire = median(loads.map((l) => l.transfer)) / 1024;
      const lcp = median(loads.map((l) => l.lcpMs));
      const tbt = median(loads.map((l) => l.tbtMs));
      const ok =
        lcp < SITE_GOALS.lcpMs && tbt < SITE_GOALS.tbtMs && (path !== '/' || js <= SITE_GOALS.homeJsKb);
      lines.push(
        `  ${path.padEnd(36)} ${`${js.toFixed(1)} KB`.padStart(9)} ${`${wire.toFixed(1)} KB`.padStart(12)} ${`${Math.round(lcp)} ms`.padStart(8)} ${`${Math.round(tbt)} ms`.padStart(7)}  ${ok ? '✓' : '✗'}`,
      );
    }
    lines.push(
      `  goals: LCP < ${SITE_GOALS.lcpMs} ms, TBT < ${SITE_GOALS.tbtMs} ms; JS for / ≤ ${SITE_GOALS.homeJsKb} KB gzip`,
      '',
    );
  } catch (err) {
    failed = true;
    lines.push(`  FAILED — ${(err as Error).stack ?? err}`, '');
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { text: lines.join('\n'), failed };
}

if (process.env.BENCH_ONLY === 'site') {
  const { text, failed } = await siteBench();
  process.stdout.write(text);
  process.exit(failed ? 1 : 0);
}
