/**
 * The public IALanding's server render, built by scripts/site.mjs into dist/site/ialanding-ssr.mjs
 * (Node, its packages left to node_modules) and loaded by the web adapter
 * (adapters/web/ialanding-page.ts) on the first landing it serves. The page is the same component
 * tree the island (ialanding-island.tsx) hydrates and the app's route shows, so the three never
 * differ. The contract, {@link IalandingSsr}, is restated on the adapter's side, which is type-checked
 * without the DOM.
 */
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { IalandingErrorPanel, Landing } from './components/IalandingPage.tsx';
import de from './i18n/locales/de.json';
import en from './i18n/locales/en.json';
import es from './i18n/locales/es.json';
import fr from './i18n/locales/fr.json';
import hi from './i18n/locales/hi.json';
import it from './i18n/locales/it.json';
import ru from './i18n/locales/ru.json';
import { landingTexts, landingTranslator, type Texts } from './lib/landing-texts.ts';
import type { Ialanding, IalandingError } from './lib/web-chat.ts';

const DICTIONARIES: Record<string, Texts> = { es, en, fr, de, it, ru, hi };

/** The IALanding's texts in `lang` (Spanish for a language the app does not have). */
function textsOf(lang: string): Texts {
  return landingTexts(DICTIONARIES[lang] ?? es, es);
}

/**
 * The landing's markup for `<div id="root">`, the texts the island needs (they go in the page's
 * `#ialanding-data` with the landing) and the page's title ("<business> · Asistente IA" in the bot's
 * language, as the page sets it in the app).
 */
export function renderLanding(landing: Ialanding): { html: string; texts: Texts; title: string } {
  const texts = textsOf(landing.lang);
  const t = landingTranslator(landing.lang, texts);
  const html = renderToString(<Landing data={landing} lang={landing.lang} t={t} />);
  return { html, texts, title: `${landing.business_name} · ${t('web.chat.assistant')}` };
}

/** The error panel (spec 001 §8 texts) for a landing that cannot show, in `lang`; static, no island. */
export function renderLandingError(reason: IalandingError, lang: string): string {
  return renderToStaticMarkup(
    <IalandingErrorPanel reason={reason} t={landingTranslator(lang, textsOf(lang))} />,
  );
}

/** The module's shape, as the adapter loads it. */
export interface IalandingSsr {
  renderLanding: typeof renderLanding;
  renderLandingError: typeof renderLandingError;
}
