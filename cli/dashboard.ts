/**
 * Keeps the built dashboard current for `charla start` (scripts/dashboard.mjs rebuilds it when a
 * dashboard source is newer than dist/dashboard). Vite is a development dependency: on an install
 * without it, the existing build is served as it is.
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
