/** The newest modification time under a path, for the builds' "is it stale?" checks. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The latest `mtimeMs` of a file, or of every file under a folder (recursively), skipping entries
 * whose name is in `skip` (e.g. node_modules, a generated file).
 */
export function newest(path, skip = []) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (skip.includes(entry.name)) continue;
    max = Math.max(max, newest(join(path, entry.name), skip));
  }
  return max;
}
