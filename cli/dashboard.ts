/**
 * Keeps the built dashboard and web widget current for `charla start` (scripts/dashboard.mjs and
 * scripts/widget.mjs rebuild them when a source is newer than dist/dashboard or dist/widget). Vite
 * and esbuild are development dependencies: on an install without them, the existing builds are
 * served as they are.
 */

/** Calls the `ensure` export of scripts/<script>, which rebuilds (after `onBuild`) when stale. */
async function ensureBuilt(script: string, ensure: string, onBuild: () => void): Promise<void> {
  const url = new URL(`../scripts/${script}`, import.meta.url);
  const build = (await import(url.href)) as Record<string, (onBuild: () => void) => Promise<boolean>>;
  await build[ensure]!(onBuild);
}

/** Rebuilds the dashboard (dist/dashboard) when a dashboard source is newer. */
export async function ensureDashboardBuilt(onBuild: () => void): Promise<void> {
  await ensureBuilt('dashboard.mjs', 'ensureDashboard', onBuild);
}

/** Rebuilds the embeddable widget (dist/widget) when a widget source is newer. */
export async function ensureWidgetBuilt(onBuild: () => void): Promise<void> {
  await ensureBuilt('widget.mjs', 'ensureWidget', onBuild);
}

/** Rebuilds the public site's script (dist/site) when a site client source is newer. */
export async function ensureSiteBuilt(onBuild: () => void): Promise<void> {
  await ensureBuilt('site.mjs', 'ensureSite', onBuild);
}
