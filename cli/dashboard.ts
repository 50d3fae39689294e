/**
 * Keeps the built dashboard and web widget current for `charla start` (scripts/dashboard.mjs and
 * scripts/widget.mjs rebuild them when a source is newer than dist/dashboard or dist/widget). Vite
 * and esbuild are development dependencies: on an install without them, the existing builds are
 * served as they are.
 */
export async function ensureDashboardBuilt(onBuild: () => void): Promise<void> {
  const script = new URL('../scripts/dashboard.mjs', import.meta.url);
  const { dashboardIsStale, buildDashboard } = (await import(script.href)) as {
    dashboardIsStale: () => boolean;
    buildDashboard: () => Promise<void>;
  };
  if (!dashboardIsStale()) return;
  onBuild();
  await buildDashboard();
}

/** Rebuilds the embeddable widget (dist/widget) when a widget source is newer. */
export async function ensureWidgetBuilt(onBuild: () => void): Promise<void> {
  const script = new URL('../scripts/widget.mjs', import.meta.url);
  const { widgetIsStale, buildWidget } = (await import(script.href)) as {
    widgetIsStale: () => boolean;
    buildWidget: () => Promise<void>;
  };
  if (!widgetIsStale()) return;
  onBuild();
  await buildWidget();
}

/** Rebuilds the public site's script (dist/site) when a site client source is newer. */
export async function ensureSiteBuilt(onBuild: () => void): Promise<void> {
  const script = new URL('../scripts/site.mjs', import.meta.url);
  const { siteIsStale, buildSite } = (await import(script.href)) as {
    siteIsStale: () => boolean;
    buildSite: () => Promise<void>;
  };
  if (!siteIsStale()) return;
  onBuild();
  await buildSite();
}
