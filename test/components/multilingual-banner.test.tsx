// @vitest-environment happy-dom
/**
 * The dashboard's multilingual banner (spec 000 §1; spec 001 §9 "Banner rotates every 7 s with a
 * 500 ms fade"; issue 29 "Language": it speaks the interface language): in a Spanish dashboard it
 * names Spanish, fades out over 500 ms after 7 s and comes back naming English, then French,
 * German, Italian, Russian, Hindi and Spanish again — every sentence in Spanish. In a Hindi
 * dashboard the same sentence is in Hindi.
 */
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BANNER_FADE_MS,
  BANNER_INTERVAL_MS,
  BANNER_LANGUAGES,
  MultilingualBanner,
} from '../../dashboard/src/components/MultilingualBanner.tsx';
import { i18n, loadLanguage } from '../../dashboard/src/i18n/index.ts';
import { renderApp, spanish } from './harness.tsx';

describe('the multilingual banner', () => {
  beforeEach(async () => {
    await spanish();
    vi.useFakeTimers();
  });
  afterEach(async () => {
    cleanup();
    vi.useRealTimers();
    await i18n.changeLanguage('es');
  });

  it('rotates the language it names every 7 s with a 500 ms fade, always in the interface language', async () => {
    expect([BANNER_INTERVAL_MS, BANNER_FADE_MS]).toEqual([7000, 500]);
    renderApp(<MultilingualBanner />);
    const banner = screen.getByTestId('multilingual-banner');
    expect(BANNER_LANGUAGES).toEqual(['es', 'en', 'fr', 'de', 'it', 'ru', 'hi']);
    expect(banner.textContent).toBe(
      '🌍 Charla es amigable y multilingüe: tu bot contesta en español a quien le escribe en español.',
    );
    act(() => {
      vi.advanceTimersByTime(BANNER_INTERVAL_MS - 1);
    });
    expect(banner.style.opacity).toBe('1');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    // Fading out: still the same sentence, invisible.
    expect(banner.style.opacity).toBe('0');
    expect(banner.dataset.language).toBe('es');
    act(() => {
      vi.advanceTimersByTime(BANNER_FADE_MS);
    });
    expect(banner.style.opacity).toBe('1');
    expect(banner.textContent).toContain('tu bot contesta en inglés a quien le escribe en inglés');
    const seen = ['es', 'en'];
    for (let i = 0; i < 6; i++) {
      act(() => {
        vi.advanceTimersByTime(BANNER_INTERVAL_MS);
      });
      seen.push(banner.dataset.language ?? '');
      expect(banner.textContent).toMatch(/^🌍 Charla es amigable y multilingüe: tu bot contesta en /);
    }
    expect(seen).toEqual(['es', 'en', 'fr', 'de', 'it', 'ru', 'hi', 'es']);
    await act(async () => {
      await loadLanguage('hi');
      await i18n.changeLanguage('hi');
    });
    expect(banner.textContent).toBe(
      '🌍 Charla दोस्ताना और बहुभाषी है: जो आपके बॉट को स्पैनिश में लिखता है, उसे वह स्पैनिश में जवाब देता है।',
    );
  });
});
