/**
 * The dashboard's first module (dashboard/index.html loads it before src/main.tsx): zod's `jitless`
 * mode. Otherwise zod probes whether it may compile parsers with `new Function` when the app's first
 * object schema is made; the dashboard's Content-Security-Policy has no `'unsafe-eval'`
 * (engine/http/csp.ts `DASHBOARD_CSP`, issue 24 §9), so the probe fails, which zod catches, but
 * Chromium still reports it as a policy violation on every page load. Parsing is the same, only
 * without zod's compiled fast path, which the dashboard's small payloads do not need.
 */
import { config } from 'zod';

config({ jitless: true });
