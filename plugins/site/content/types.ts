/**
 * The marketing site's texts, one dictionary per language (spec 001 §3 "Marketing content": keyed
 * by language with nested keys banner, hero, howItWorks, ialanding, facebots, useCases,
 * reservations, pricing, comparison, faq). Spanish (`es.ts`) is the source; every other language
 * `satisfies SiteContent`, so a missing text is a type error, not a blank on the page.
 *
 * Prices are not written here: the pages take them from the billing plans (plugins/billing/plans.ts)
 * and put them into the `{price}`-style placeholders, so the site shows what checkout charges.
 */

/** A question and its answer (spec 001 §3 FAQ item). */
export interface FaqItem {
  q: string;
  a: string;
}

/** A use-case card (spec 001 §3: title, metric, description). */
export interface UseCase {
  title: string;
  metric: string;
  quote: string;
}

/** A sample directory card (spec 001 §3: name, purpose, language, industry). */
export interface SampleBot {
  name: string;
  purpose: string;
  language: string;
  industry: 'health' | 'education' | 'entertainment';
}

/** A section of a legal page. */
export interface LegalSection {
  h: string;
  p: string[];
}

/** One legal page. */
export interface LegalPage {
  title: string;
  description: string;
  sections: LegalSection[];
}

/** Everything the public site says in one language. */
export interface SiteContent {
  /** `<html lang>` and `og:locale`. */
  locale: string;
  /** The language's own name, for the selector. */
  name: string;
  meta: { title: string; description: string };
  header: { pricing: string; facebots: string; cta: string; language: string; skip: string };
  /** Sticky top banner. */
  banner: string;
  hero: {
    title: string;
    highlight: string;
    subtitle: string;
    login: string;
    directory: string;
    demo: string;
    ticks: [string, string, string];
  };
  carousel: { label: string; slides: [string, string, string, string]; video: string };
  howItWorks: { title: string; steps: [LegalSection, LegalSection, LegalSection]; cta: string };
  ialanding: {
    title: string;
    text: string;
    features: string[];
    examples: [string, string, string];
    cta: string;
  };
  facebots: {
    title: string;
    text: string;
    chips: { all: string; health: string; education: string; entertainment: string };
    filterLabel: string;
    bots: SampleBot[];
    cta: string;
    sample: string;
  };
  useCases: { title: string; cases: UseCase[] };
  reservations: {
    title: string;
    text: string;
    points: string[];
    reminder: string;
    reminderText: string;
    cta: string;
  };
  pricing: {
    title: string;
    text: string;
    trial: string;
    dayPass: { name: string; per: string; text: string; points: string[] };
    monthly: { name: string; badge: string; per: string; text: string; points: string[] };
    cta: string;
    note: string;
  };
  comparison: {
    title: string;
    text: string;
    feature: string;
    rows: { feature: string; charla: string; manychat: string; botpress: string; typebot: string }[];
    note: string;
  };
  faq: { title: string; items: FaqItem[] };
  footer: {
    product: string;
    legal: string;
    contact: string;
    tagline: string;
    links: { home: string; directory: string; pricing: string; demo: string; login: string; source: string };
    tos: string;
    privacy: string;
    security: string;
    contactText: string;
  };
  assistant: {
    open: string;
    title: string;
    placeholder: string;
    send: string;
    minimise: string;
    close: string;
    greeting: string;
    typing: string;
    error: string;
  };
  legal: {
    back: string;
    updated: string;
    operator: string;
    operatorUnset: string;
    tos: LegalPage;
    privacy: LegalPage;
    security: LegalPage;
  };
  bot: {
    example: string;
    exampleText: string;
    responses: string;
    likes: string;
    like: string;
    liked: string;
    share: string;
    copied: string;
    telegram: string;
    landing: string;
    create: string;
    back: string;
    language: string;
    industry: string;
  };
  /** The assistant's instructions for the LLM (the product's facts come from the server). */
  assistantStyle: string;
}
