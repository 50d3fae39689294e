/**
 * The texts a public IALanding needs, for its server render (ialanding-ssr.tsx) and its island
 * (ialanding-island.tsx): the `landing`, `web`, `chat` and `offline` parts of the dashboard's
 * dictionary in the bot's language, with Spanish filling any key the language lacks (the app's
 * fallback, i18n/index.ts). The page carries them as JSON, so the island needs no dictionary of its
 * own and both sides translate with the same i18next options.
 */
import i18next, { type TFunction } from 'i18next';

/** The dictionary's top-level parts the IALanding's components read. */
export const LANDING_NAMESPACES = ['landing', 'web', 'chat', 'offline'] as const;

/** A dictionary (or a part of one): nested objects of strings. */
export type Texts = { [key: string]: string | Texts };

/** `over` laid on `base`, key by key (nested objects merged). */
function merged(base: Texts, over: Texts): Texts {
  const out: Texts = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = out[key];
    out[key] = typeof value === 'object' && typeof under === 'object' ? merged(under, value) : value;
  }
  return out;
}

/**
 * The IALanding's part of a language's dictionary, with Spanish under it.
 * @param dictionary the language's full dictionary (locales/<lang>.json).
 * @param spanish the Spanish dictionary (locales/es.json).
 */
export function landingTexts(dictionary: Texts, spanish: Texts): Texts {
  const out: Texts = {};
  for (const ns of LANDING_NAMESPACES) {
    const es = spanish[ns];
    const own = dictionary[ns];
    const part = merged(typeof es === 'object' ? es : {}, typeof own === 'object' ? own : {});
    out[ns] = part;
  }
  return out;
}

/**
 * A translator over `texts` in `lang`, with the app's options (no HTML escaping: React escapes).
 * Synchronous: the texts are given, nothing loads.
 */
export function landingTranslator(lang: string, texts: Texts): TFunction {
  const instance = i18next.createInstance();
  void instance.init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation: texts } },
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return instance.getFixedT(lang);
}
