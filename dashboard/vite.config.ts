/**
 * The dashboard's build (DESIGN.md: React 19, Vite 8, TanStack Router file routes, Tailwind CSS 4),
 * into dist/dashboard, which `charla serve` serves with a history fallback. `npm run dev` serves it
 * with hot reload and proxies the API to a running `charla serve` on :8787.
 */
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

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
  ],
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8787', '/files': 'http://127.0.0.1:8787' },
  },
});
