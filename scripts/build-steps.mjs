/**
 * The steps the build scripts (dashboard.mjs, site.mjs, widget.mjs) share: swapping a finished
 * build in, rebuilding only when stale, and running when called as `node scripts/<name>.mjs`.
 */
import { renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Replaces `dir` with the finished build in `temp` (a rename, then the earlier build removed). */
export function swapIn(temp, dir) {
  const old = `${dir}.old-${process.pid}`;
  try {
    renameSync(dir, old);
  } catch {
    // No earlier build.
  }
  renameSync(temp, dir);
  rmSync(old, { recursive: true, force: true });
}

/** Runs `build` (after `onBuild`) when `isStale()`; returns whether a build ran. */
export async function rebuildIfStale(isStale, build, onBuild = () => {}) {
  if (!isStale()) return false;
  onBuild();
  await build();
  return true;
}

/** True when the script at `url` (its `import.meta.url`) is the one `node` was started with. */
export function isMain(url) {
  return process.argv[1] === fileURLToPath(url);
}
