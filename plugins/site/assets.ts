/**
 * The public site's assets and the shape of a listed bot on its pages: the inlined CSS and the built
 * script's name, the folder of site media, and a directory row as the pages show it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allowInline } from '../../engine/http/csp.ts';
import { publicDescription } from '../../engine/ranking/index.ts';
import { languageCode } from '../../engine/schemas.ts';
import type { DirectoryListing } from '../facebots/api.ts';
import type { ListedBot } from './pages/BotPage.tsx';
import type { SiteAssets } from './render.tsx';
import { SITE_CSS } from './styles.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** The repository's folder of site media (pictures, demo video) made for the home page. */
export function mediaDir(distDir: string): string {
  // From sources: plugins/site → ../../assets/site; from the bundle (dist/charla.mjs) the same
  // folder sits beside dist/.
  const fromSource = join(here, '..', '..', 'assets', 'site');
  return existsSync(fromSource) ? fromSource : join(distDir, '..', 'assets', 'site');
}

/**
 * The inlined CSS (its hash allowed in the pages' Content-Security-Policy, engine/http/csp.ts) and
 * the built site script's name (dist/site/manifest.json).
 */
export function loadAssets(distDir: string): SiteAssets {
  const css = allowInline('style', SITE_CSS.replace(/\n\s*/g, ''));
  let script: string | undefined;
  try {
    const manifest = JSON.parse(readFileSync(join(distDir, 'site', 'manifest.json'), 'utf8')) as {
      site?: string;
    };
    if (manifest.site) script = `/site/${manifest.site}`;
  } catch {
    // Not built: the pages still work, without the assistant and the query-keeping language switch.
  }
  return { css, script };
}

/** A directory row as the pages show it. */
export function listedBot(row: DirectoryListing): ListedBot {
  const botLang = languageCode(row.idioma);
  return {
    id: row.id,
    name: row.business_name,
    username: row.telegram_username?.replace(/^@/, '') ?? null,
    description: publicDescription(
      { public_description: row.public_description ?? '', business_description: row.business_description },
      botLang,
    ).slice(0, 600),
    category: row.category,
    language: botLang,
    responses: Number(row.responses_count),
    likes: Number(row.likes_count),
    ialandingSlug: row.ialanding_slug ?? null,
  };
}
