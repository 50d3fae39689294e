/**
 * The directory's texts in each language. They are the dashboard's (dashboard/src/i18n/locales,
 * keys `facebots.*` and `configure.categories.*`): one source for the words of the directory and of
 * the bot categories, whichever side shows them.
 */
import de from '../../../dashboard/src/i18n/locales/de.json' with { type: 'json' };
import en from '../../../dashboard/src/i18n/locales/en.json' with { type: 'json' };
import es from '../../../dashboard/src/i18n/locales/es.json' with { type: 'json' };
import fr from '../../../dashboard/src/i18n/locales/fr.json' with { type: 'json' };
import hi from '../../../dashboard/src/i18n/locales/hi.json' with { type: 'json' };
import it from '../../../dashboard/src/i18n/locales/it.json' with { type: 'json' };
import ru from '../../../dashboard/src/i18n/locales/ru.json' with { type: 'json' };
import { CATEGORIES, CATEGORY_LABELS, type Category } from '../../../engine/schemas.ts';
import { CATEGORY_KEYS, type Sort } from '../../facebots/api.ts';
import type { SiteLanguage } from './index.ts';

/** The directory's words in one language. */
export interface DirectoryTexts {
  title: string;
  subtitle: string;
  create: string;
  sortBy: string;
  sorts: Record<Sort, string>;
  category: string;
  allCategories: string;
  empty: string;
  failed: string;
  responses_one: string;
  responses_other: string;
  like: string;
  liked: string;
  share: string;
  copied: string;
  openTelegram: string;
  landing: string;
  more: string;
}

const LOCALES = { es, en, fr, de, it, hi, ru } as const;

/** The directory's texts. */
export function directoryTexts(lang: SiteLanguage): DirectoryTexts {
  return LOCALES[lang].facebots as DirectoryTexts;
}

/** A category's label in a language, with its emoji (the stored value stays the spec's Spanish name). */
export function categoryLabel(lang: SiteLanguage, category: string): string {
  if (!(CATEGORIES as readonly string[]).includes(category)) return category;
  const c = category as Category;
  const names = LOCALES[lang].configure.categories as Record<string, string>;
  return `${CATEGORY_LABELS[c].split(' ')[0]} ${names[CATEGORY_KEYS[c]] ?? c}`;
}

/** "1 respuesta", "1,5 mil respuestas" (the count already in compact form). */
export function responsesText(lang: SiteLanguage, count: number, compact: string): string {
  const t = directoryTexts(lang);
  return (count === 1 ? t.responses_one : t.responses_other).replace('{{n}}', compact);
}
