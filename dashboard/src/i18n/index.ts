/**
 * The dashboard's texts through react-i18next in es (default), en, fr, de, it, ru and hi (spec 000 §1,
 * 001 §9). The chosen language is kept under the browser's `app-language` setting. Spanish is bundled;
 * the other languages load on demand. Missing keys fall back to Spanish, then to the key.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { sendInterfaceLanguage } from '../lib/language-header.ts';
import es from './locales/es.json';

/** Interface languages, Spanish first, with their names in their own language. */
export const APP_LANGUAGES = [
  { code: 'es', label: 'Español' },
  { code: 'en', label: 'English' },
  { code: 'fr', label: 'Français' },
  { code: 'de', label: 'Deutsch' },
  { code: 'it', label: 'Italiano' },
  { code: 'ru', label: 'Русский' },
  { code: 'hi', label: 'हिंदी' },
] as const;
export type AppLanguage = (typeof APP_LANGUAGES)[number]['code'];

/** The browser setting (spec 000 §3: "the app-language setting"). */
export const LANGUAGE_KEY = 'app-language';

const loaders = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*.json');

function storedLanguage(): AppLanguage {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(LANGUAGE_KEY);
  return isAppLanguage(stored) ? stored : 'es';
}

/** Whether `code` is one of the interface languages. */
export function isAppLanguage(code: unknown): code is AppLanguage {
  return APP_LANGUAGES.some((l) => l.code === code);
}

/**
 * Loads a language's texts when needed, without switching to it (a page in another language than
 * the interface's, like a public IALanding in its bot's language, reads them with `getFixedT`).
 */
export async function loadLanguage(code: AppLanguage): Promise<void> {
  if (i18n.hasResourceBundle(code, 'translation')) return;
  const load = loaders[`./locales/${code}.json`];
  if (load) i18n.addResourceBundle(code, 'translation', (await load()).default, true, true);
}

/** Loads a language's texts when needed, switches to it and remembers it. */
export async function setLanguage(code: AppLanguage): Promise<void> {
  await loadLanguage(code);
  localStorage.setItem(LANGUAGE_KEY, code);
  document.documentElement.lang = code;
  await i18n.changeLanguage(code);
}

/** Initialises i18next with the stored language (loading it first when it is not Spanish). */
export async function initI18n(): Promise<void> {
  await i18n.use(initReactI18next).init({
    resources: { es: { translation: es } },
    lng: 'es',
    fallbackLng: 'es',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  sendInterfaceLanguage(() => i18n.language);
  const code = storedLanguage();
  if (code !== 'es') await setLanguage(code);
  else document.documentElement.lang = 'es';
}

export { i18n };
