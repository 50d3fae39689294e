/**
 * The Node versions Charla declares are the ones its dependencies accept (issue 10: `npm install`
 * warned EBADENGINE because packages wanted Node 22 while package.json says `>=20.19`). Every
 * package of package-lock.json, dependencies and dev dependencies alike (`npm ci` installs and checks
 * both), must accept the oldest Node that `engines.node` allows, except the one package listed in
 * KNOWN below with the reason it still runs there; README "Quick start" says the same.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const read = (name: string) => JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), 'utf8'));

/**
 * Packages whose `engines` asks for more than Charla declares, and why they run on it anyway (the
 * whole suite passes on Node 20). Nothing else may join without a line here and in the README.
 */
const KNOWN: Record<string, string> = {
  // DESIGN.md chooses Kysely 0.29 (its own PGliteDialect, kysely/migration); 0.28, the last to
  // declare Node 20, has neither. 0.29 is ESM only and uses nothing newer than Node 20's APIs.
  kysely: '>=22.0.0',
};

describe('Node engines', () => {
  const pkg = read('package.json') as { engines: { node: string } };
  const lock = read('package-lock.json') as {
    packages: Record<string, { version?: string; engines?: Record<string, string> | string[] }>;
  };
  const oldest = semver.minVersion(pkg.engines.node)!;

  it('declares Node 20.19 or newer', () => {
    expect(pkg.engines.node).toBe('>=20.19');
    expect(oldest.version).toBe('20.19.0');
  });

  it('installs no package that refuses the oldest declared Node, besides the known one', () => {
    const refusing: string[] = [];
    const known: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path || Array.isArray(entry.engines) || !entry.engines?.node) continue;
      const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      if (semver.satisfies(oldest, entry.engines.node, { includePrerelease: true })) continue;
      if (KNOWN[name] === entry.engines.node) known.push(name);
      else refusing.push(`${name}@${entry.version} wants node ${entry.engines.node}`);
    }
    expect(refusing).toEqual([]);
    expect(known).toEqual(['kysely']);
  });
});
