/**
 * The public site's languages and paths (spec 001 §2 route table, §4 Home page and language, §9
 * Languages): Spanish at `/`, the others under `/en/ /fr/ /de/ /it/ /hi/` and `/ru/` (its dictionary
 * exists; the spec leaves its path unsaid, so it gets the same shape as the others).
 */
import { CUSTOM_PLAN, MONTHLY_PLAN } from '../../billing/api.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { hi } from './hi.ts';
import { it } from './it.ts';
import { ru } from './ru.ts';
import type { SiteContent } from './types.ts';

export type { FaqItem, LegalPage, SampleBot, SiteContent } from './types.ts';

/** The site's languages, Spanish (the default, at `/`) first. */
export const SITE_LANGUAGES = ['es', 'en', 'fr', 'de', 'it', 'hi', 'ru'] as const;
export type SiteLanguage = (typeof SITE_LANGUAGES)[number];

/** Each language's texts. */
export const CONTENT: Record<SiteLanguage, SiteContent> = { es, en, fr, de, it, hi, ru };

/** The legal pages (spec 001 §2: `/legal/tos`, `/legal/privacy`, `/legal/security`). */
export const LEGAL_PAGES = ['tos', 'privacy', 'security'] as const;
export type LegalPageId = (typeof LEGAL_PAGES)[number];

/** True for a language code the site serves. */
export function isSiteLanguage(value: string | undefined): value is SiteLanguage {
  return (SITE_LANGUAGES as readonly string[]).includes(value ?? '');
}

/**
 * The path of a page in a language: `''` (home) → `/` or `/en/`; `legal/tos` → `/legal/tos` or
 * `/en/legal/tos`.
 */
export function localePath(lang: SiteLanguage, page: string): string {
  const prefix = lang === 'es' ? '' : `/${lang}`;
  return page ? `${prefix}/${page}` : `${prefix}/`;
}

/**
 * The language of a path from its first segment (spec 001 §4), and the rest of the path:
 * `/en/legal/tos` → `{lang: 'en', page: 'legal/tos'}`; `/` → `{lang: 'es', page: ''}`.
 */
export function parseLocalePath(path: string): { lang: SiteLanguage; page: string } {
  const parts = path.split('/').filter(Boolean);
  const first = parts[0];
  if (isSiteLanguage(first) && first !== 'es') return { lang: first, page: parts.slice(1).join('/') };
  return { lang: 'es', page: parts.join('/') };
}

/** A price in EUR cents as the language writes it (`0,90 €`, `€0.90`). */
export function formatPrice(lang: SiteLanguage, cents: number): string {
  return new Intl.NumberFormat(CONTENT[lang].locale.replace('_', '-'), {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
  }).format(cents / 100);
}

/** The values the texts' `{placeholders}` take: the billing plans' real figures and the trial length. */
export function placeholders(lang: SiteLanguage, trialDays: number): Record<string, string> {
  return {
    trialDays: String(trialDays),
    dayPrice: formatPrice(lang, CUSTOM_PLAN.dayCents),
    monthlyPrice: formatPrice(lang, MONTHLY_PLAN.amountCents),
    perDay: formatPrice(lang, Math.round(MONTHLY_PLAN.amountCents / MONTHLY_PLAN.days)),
    days: String(MONTHLY_PLAN.days),
    minDays: String(CUSTOM_PLAN.minDays),
    maxDays: String(CUSTOM_PLAN.maxDays),
  };
}

/** Fills `{name}` placeholders; an unknown one stays as written. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** The slug of a directory card (spec 001 §2), shared with the Facebots plugin. */
export { botSlug } from '../../facebots/api.ts';
