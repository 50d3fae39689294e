/**
 * Issue 10 §8: IALanding slugs fold accents and ñ to ASCII before the spec's rule ("Cerámica Ana"
 * → `ialanding-ceramica-ana`, no longer `ialanding-cer-mica-ana`), and a slug a landing had before
 * keeps working: `ialanding_slug_redirects` maps it to the landing, whose page redirects there.
 *
 * This migration creates the table and renames the landings whose slug came from the old rule
 * (their business name's old slug, possibly with a `-2`… suffix) and differs under the new one,
 * keeping each old slug as a redirect. Both rules are frozen here as they were when it was written
 * (a migration imports no live engine code: issue 25 §3), so a database migrated later gets the
 * same slugs as one migrated then.
 */
import { type Kysely, sql } from 'kysely';
import { runScript } from './sql.ts';

/** Latin letters NFD does not decompose, spelled in ASCII (engine/matching `foldToAscii`, 2026-11-23). */
const ASCII_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  þ: 'th',
  ı: 'i',
};

/**
 * Issue 10 §8's rule as of this migration (engine/store/queries/ialandings.ts `ialandingSlug`,
 * 2026-11-23): lowercase, accents removed (NFD), the letters above spelled in ASCII, then every
 * character outside a-z0-9 becomes `-`.
 */
function foldedSlug(name: string): string {
  const folded = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđþı]/g, (c) => ASCII_LETTERS[c] ?? c);
  return `ialanding-${folded.replace(/[^a-z0-9]/g, '-')}`;
}

/** The spec's rule before issue 10: every character outside a-z0-9 (accented letters too) becomes `-`. */
function legacySlug(name: string): string {
  return `ialanding-${name.toLowerCase().replace(/[^a-z0-9]/g, '-')}`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE ialanding_slug_redirects (
      old_slug text PRIMARY KEY,
      ialanding_id text NOT NULL REFERENCES ialandings(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX ialanding_slug_redirects_landing ON ialanding_slug_redirects (ialanding_id);
  `,
  );
  await refoldLegacySlugs(db);
}

/**
 * Renames the landings whose slug came from the old rule and differs under the folded one,
 * keeping each old slug as a redirect; returns how many were renamed. A landing whose slug the
 * owner's business no longer gives (a renamed business not re-entered) is left as it is.
 */
export async function refoldLegacySlugs(db: Kysely<unknown>): Promise<number> {
  const { rows } = await sql<{ id: string; slug: string; business_name: string }>`
    SELECT id, slug, business_name FROM ialandings ORDER BY created_at, id`.execute(db);
  const taken = new Set(rows.map((r) => r.slug));
  let renamed = 0;
  for (const row of rows) {
    const legacy = legacySlug(row.business_name);
    const suffix =
      row.slug === legacy ? '' : row.slug.startsWith(`${legacy}-`) ? row.slug.slice(legacy.length) : null;
    if (suffix === null || !/^(-\d+)?$/.test(suffix)) continue;
    const base = foldedSlug(row.business_name);
    if (base === legacy) continue;
    let slug = `${base}${suffix}`;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.delete(row.slug);
    taken.add(slug);
    await sql`UPDATE ialandings SET slug = ${slug} WHERE id = ${row.id}`.execute(db);
    await sql`INSERT INTO ialanding_slug_redirects (old_slug, ialanding_id) VALUES (${row.slug}, ${row.id})
      ON CONFLICT (old_slug) DO UPDATE SET ialanding_id = EXCLUDED.ialanding_id`.execute(db);
    renamed++;
  }
  return renamed;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE ialanding_slug_redirects;');
}
