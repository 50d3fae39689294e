/**
 * The multilingual banner (spec 000 §1; spec 001 §9 "Banner rotates every 7 s with a 500 ms fade"):
 * one sentence, each time in another language (es, en, fr, de, it, ru), saying the platform is
 * friendly and multilingual. Each sentence is in its own language on purpose, so it is not run
 * through i18n; `lang` marks it for screen readers. Under `prefers-reduced-motion` it stays still.
 */
import { useEffect, useState } from 'react';

/** Spec 001 §9. */
export const BANNER_INTERVAL_MS = 7000;
export const BANNER_FADE_MS = 500;

/** The banner's sentences, in the spec's order of languages. */
export const BANNER_TEXTS = [
  { lang: 'es', text: '🌍 Charla es amigable y multilingüe: tu bot habla el idioma de tus seguidores.' },
  { lang: 'en', text: '🌍 Charla is friendly and multilingual: your bot speaks your followers’ language.' },
  { lang: 'fr', text: '🌍 Charla est conviviale et multilingue : votre bot parle la langue de vos abonnés.' },
  {
    lang: 'de',
    text: '🌍 Charla ist freundlich und mehrsprachig: Ihr Bot spricht die Sprache Ihrer Follower.',
  },
  { lang: 'it', text: '🌍 Charla è amichevole e multilingue: il tuo bot parla la lingua dei tuoi follower.' },
  { lang: 'ru', text: '🌍 Charla дружелюбна и многоязычна: ваш бот говорит на языке ваших подписчиков.' },
] as const;

/** The rotating banner. */
export function MultilingualBanner() {
  const [index, setIndex] = useState(0);
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    let fade: ReturnType<typeof setTimeout> | undefined;
    const timer = setInterval(() => {
      setVisible(false);
      fade = setTimeout(() => {
        setIndex((i) => (i + 1) % BANNER_TEXTS.length);
        setVisible(true);
      }, BANNER_FADE_MS);
    }, BANNER_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      if (fade) clearTimeout(fade);
    };
  }, []);
  const current = BANNER_TEXTS[index] ?? BANNER_TEXTS[0];
  return (
    <p
      className="rounded-xl bg-brand-50 px-4 py-2 text-center text-sm font-medium text-brand-800 transition-opacity"
      style={{ opacity: visible ? 1 : 0, transitionDuration: `${BANNER_FADE_MS}ms` }}
      lang={current.lang}
      data-testid="multilingual-banner"
    >
      {current.text}
    </p>
  );
}
