/**
 * The JavaScript each dashboard route loads first, gzipped (issue 4's goal: /login ≤ 150 KB,
 * /main ≤ 200 KB). It serves the built dashboard from a throwaway Charla on embedded PGlite, opens
 * each route in Debian's Chromium, and sums the gzip size (level 9) of every script the page fetched
 * until the network was idle.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createApp } from '../cli/app.ts';
import { upsertOwnerWithPassword } from '../engine/auth/owners.ts';
import { loadConfig } from '../engine/config.ts';
import { createLogger } from '../engine/logger.ts';
import { CHROMIUM_PATH, launchChromium } from '../test/helpers/chromium.ts';

const GOALS: Record<string, number> = { '/login': 150, '/main': 200 };

/** Measures and returns the printed lines. */
export async function dashboardSizes(): Promise<string> {
  if (!existsSync(CHROMIUM_PATH)) return `\nDashboard JS: skipped (no Chromium at ${CHROMIUM_PATH})\n`;
  if (!existsSync(new URL('../dist/dashboard/index.html', import.meta.url)))
    return '\nDashboard JS: skipped (not built: npm run build)\n';
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-bench-dash-'));
  const app = await createApp(
    loadConfig({ CHARLA_DATA_DIR: dataDir, CHARLA_SECRET: 'bench-secret-of-at-least-32-chars!!' }),
    {
      log: createLogger({ level: 'silent' }),
    },
  );
  const browser = await launchChromium();
  try {
    await upsertOwnerWithPassword(app.auth, 'bench@example.com', 'bench-password');
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    const lines = ['', 'Dashboard JavaScript loaded first (gzip -9)'];
    const context = await browser.newContext();
    const measure = async (path: string) => {
      const page = await context.newPage();
      const scripts = new Map<string, number>();
      page.on('response', async (res) => {
        if (res.request().resourceType() === 'script')
          scripts.set(res.url(), gzipSync(await res.body(), { level: 9 }).length);
      });
      await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      await page.close();
      const kb = [...scripts.values()].reduce((a, b) => a + b, 0) / 1024;
      const goal = GOALS[path]!;
      lines.push(
        `  ${path.padEnd(8)} ${kb.toFixed(1).padStart(6)} KB in ${scripts.size} files   goal ≤ ${goal} KB ${kb <= goal ? '✓' : '✗'}`,
      );
    };
    await measure('/login');
    const login = await context.newPage();
    await login.goto(`${base}/login`);
    await login.getByLabel('Correo electrónico').fill('bench@example.com');
    await login.getByLabel('Contraseña').fill('bench-password');
    await login.getByRole('button', { name: 'Entrar' }).click();
    await login.waitForURL(`${base}/main`);
    await login.close();
    await measure('/main');
    return `${lines.join('\n')}\n`;
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_ONLY === 'dashboard') {
  process.stdout.write(await dashboardSizes());
}
