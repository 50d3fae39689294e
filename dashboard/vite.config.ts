/**
 * The dashboard's build (DESIGN.md: React 19, Vite 8, TanStack Router file routes, Tailwind CSS 4),
 * into dist/dashboard, which `charla serve` serves with a history fallback. `npm run dev` serves it
 * with hot reload and proxies the API to a running `charla serve` on :8787.
 */
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * sonner (the toasts) adds its CSS to the page as a `<style>` element when it loads, which the
 * dashboard's Content-Security-Policy (`style-src 'self'`, engine/http/csp.ts `DASHBOARD_CSP`, issue 24
 * §9) refuses: the toasts would show unstyled. This build moves that exact CSS into the build's
 * stylesheets instead (a CSS module the transformed sonner imports), so the page needs neither
 * `'unsafe-inline'` nor a hash. The dev server (`npm run dev`) pre-bundles sonner untouched and sends
 * no policy, so there sonner injects its style as before.
 * @throws Error at build time when sonner stops injecting its CSS in the form read here.
 */
function sonnerStylesheet(): Plugin {
  const ID = 'virtual:sonner.css';
  const RESOLVED = `\0${ID}`;
  let css: string | undefined;
  return {
    name: 'charla:sonner-stylesheet',
    enforce: 'pre',
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load: (id) => (id === RESOLVED ? (css ?? '') : undefined),
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.mjs$/.test(id)) return undefined;
      const call = code.match(/\b__insertCSS\(("(?:[^"\\]|\\.)*")\);?/);
      if (!call?.[1])
        throw new Error(
          'sonner no longer calls __insertCSS("…"): update sonnerStylesheet in dashboard/vite.config.ts',
        );
      css = JSON.parse(call[1]) as string;
      return { code: code.replace(call[0], `import ${JSON.stringify(ID)};`), map: null };
    },
  };
}

export default defineConfig({
  root,
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: `${root}src/routes`,
      generatedRouteTree: `${root}src/routeTree.gen.ts`,
    }),
    react(),
    tailwindcss(),
    sonnerStylesheet(),
  ],
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // The packages every screen runs on (React, the router, the query cache, i18next) as one chunk:
    // one compressed stream instead of a dozen small shared chunks and their import lists (issue 25:
    // /login's first JavaScript 146 KB gzip instead of 151, /main 193 instead of 208; bench/dashboard.ts).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'runtime',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](react-router|router-core|history|store|react-store|query-core|react-query)|i18next|react-i18next|use-sync-external-store)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8787', '/files': 'http://127.0.0.1:8787' },
  },
});
