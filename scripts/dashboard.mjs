/**
 * Builds the React dashboard (dashboard/) into dist/dashboard with Vite. `npm install` runs it
 * (the `prepare` script) and `charla start` calls {@link ensureDashboard}, which rebuilds only when
 * a dashboard source is newer than the build, so `npm install && npm start` always serves the
 * current screens. `node scripts/dashboard.mjs` builds unconditionally.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DASHBOARD_INDEX = join(root, 'dist', 'dashboard', 'index.html');
const SOURCES = [
  join(root, 'dashboard'),
  join(root, 'engine', 'schemas.ts'),
  join(root, 'widget', 'snippet.ts'),
];

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'routeTree.gen.ts') continue;
    max = Math.max(max, newest(join(path, entry.name)));
  }
  return max;
}

/** True when dist/dashboard is missing or older than a dashboard source. */
export function dashboardIsStale() {
  try {
    return statSync(DASHBOARD_INDEX).mtimeMs < Math.max(...SOURCES.map(newest));
  } catch {
    return true;
  }
}

/** Runs `vite build` for the dashboard. */
export async function buildDashboard() {
  const { build } = await import('vite');
  await build({ configFile: join(root, 'dashboard', 'vite.config.ts'), logLevel: 'warn' });
}

/** Rebuilds when stale; returns whether a build ran. */
export async function ensureDashboard() {
  if (!dashboardIsStale()) return false;
  await buildDashboard();
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildDashboard();
  process.stdout.write(`built ${DASHBOARD_INDEX}\n`);
}
