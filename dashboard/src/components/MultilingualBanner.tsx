/**
 * The multilingual banner (spec 000 §1; spec 001 §9 "Banner rotates every 7 s with a 500 ms fade"):
 * it says the platform is friendly and multilingual, one of the bot's languages at a time.
 * Issue 29 "Language": the banner speaks the interface language — what rotates is the language it
 * names (Spanish, English, French, German, Italian, Russian, Hindi, in the owner's words), never
 * sentences in languages the owner did not choose. Under `prefers-reduced-motion` it stays still.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec 001 §9. */
export const BANNER_INTERVAL_MS = 7000;
export const BANNER_FADE_MS = 500;

/** The languages the banner names in turn: the bots' languages, Spanish first. */
export const BANNER_LANGUAGES = ['es', 'en', 'fr', 'de', 'it', 'ru', 'hi'] as const;

/** The rotating banner. */
export function MultilingualBanner() {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    let fade: ReturnType<typeof setTimeout> | undefined;
    const timer = setInterval(() => {
      setVisible(false);
      fade = setTimeout(() => {
        setIndex((i) => (i + 1) % BANNER_LANGUAGES.length);
        setVisible(true);
      }, BANNER_FADE_MS);
    }, BANNER_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      if (fade) clearTimeout(fade);
    };
  }, []);
  const named = BANNER_LANGUAGES[index] ?? BANNER_LANGUAGES[0];
  return (
    <p
      className="rounded-xl bg-brand-50 px-4 py-2 text-center text-sm font-medium text-brand-800 transition-opacity"
      style={{ opacity: visible ? 1 : 0, transitionDuration: `${BANNER_FADE_MS}ms` }}
      data-language={named}
      data-testid="multilingual-banner"
    >
      {t('banner.text', { language: t(`banner.languages.${named}`) })}
    </p>
  );
}
