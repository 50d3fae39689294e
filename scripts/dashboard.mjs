/**
 * Builds the React dashboard (dashboard/) into dist/dashboard with Vite. `npm install` runs it
 * (the `prepare` script) and `charla start` calls {@link ensureDashboard}, which rebuilds only when
 * a dashboard source is newer than the build, so `npm install && npm start` always serves the
 * current screens. `node scripts/dashboard.mjs` builds unconditionally.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain, rebuildIfStale } from './build-steps.mjs';
import { newest } from './newest.mjs';
import { precompress } from './precompress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DASHBOARD_INDEX = join(root, 'dist', 'dashboard', 'index.html');
const SOURCES = [
  join(root, 'dashboard'),
  join(root, 'engine', 'schemas.ts'),
  join(root, 'widget', 'snippet.ts'),
];

/** True when dist/dashboard is missing or older than a dashboard source. */
export function dashboardIsStale() {
  try {
    return (
      statSync(DASHBOARD_INDEX).mtimeMs <
      Math.max(...SOURCES.map((p) => newest(p, ['node_modules', 'routeTree.gen.ts'])))
    );
  } catch {
    return true;
  }
}

/**
 * The dashboard's page paths from the generated route tree (`fullPaths`), e.g. `/configure`,
 * `/ialanding/$slug`: the server redirects a page path matching none of them (nor a server page) to
 * `/` (spec 001 §2) instead of answering the app's "not found" screen.
 */
export function appRoutes() {
  const tree = readFileSync(join(root, 'dashboard', 'src', 'routeTree.gen.ts'), 'utf8');
  const block =
    tree.match(/fullPaths:([^;{}]*?)\n\s*fileRoutesByTo/s)?.[1] ??
    tree.match(/fullPaths:([\s\S]*?)fileRoutesByTo/)?.[1] ??
    '';
  return [...new Set([...block.matchAll(/'([^']+)'/g)].map((m) => m[1]))];
}

/**
 * Runs `vite build` for the dashboard, then writes dist/dashboard/routes.json ({@link appRoutes}) and
 * the compressed copies of its assets (scripts/precompress.mjs).
 */
export async function buildDashboard() {
  const { build } = await import('vite');
  await build({ configFile: join(root, 'dashboard', 'vite.config.ts'), logLevel: 'warn' });
  writeFileSync(join(dirname(DASHBOARD_INDEX), 'routes.json'), `${JSON.stringify(appRoutes())}\n`);
  precompress(join(dirname(DASHBOARD_INDEX), 'assets'));
}

/** Rebuilds when stale (calling `onBuild` first); returns whether a build ran. */
export function ensureDashboard(onBuild = () => {}) {
  return rebuildIfStale(dashboardIsStale, buildDashboard, onBuild);
}

if (isMain(import.meta.url)) {
  await buildDashboard();
  process.stdout.write(`built ${DASHBOARD_INDEX}\n`);
}
