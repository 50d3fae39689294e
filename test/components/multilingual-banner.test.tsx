// @vitest-environment happy-dom
/**
 * The dashboard's multilingual banner (spec 000 §1; spec 001 §9 "Banner rotates every 7 s with a
 * 500 ms fade"): it starts in Spanish, fades out over 500 ms after 7 s and comes back in English,
 * then French, German, Italian, Russian and Spanish again; each sentence is marked with its language.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BANNER_FADE_MS,
  BANNER_INTERVAL_MS,
  BANNER_TEXTS,
  MultilingualBanner,
} from '../../dashboard/src/components/MultilingualBanner.tsx';

describe('the multilingual banner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('rotates through es, en, fr, de, it and ru every 7 s with a 500 ms fade', () => {
    expect([BANNER_INTERVAL_MS, BANNER_FADE_MS]).toEqual([7000, 500]);
    render(<MultilingualBanner />);
    const banner = screen.getByTestId('multilingual-banner');
    expect(BANNER_TEXTS.map((b) => b.lang)).toEqual(['es', 'en', 'fr', 'de', 'it', 'ru']);
    expect(banner.getAttribute('lang')).toBe('es');
    expect(banner.textContent).toBe(BANNER_TEXTS[0].text);
    act(() => {
      vi.advanceTimersByTime(BANNER_INTERVAL_MS - 1);
    });
    expect(banner.style.opacity).toBe('1');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    // Fading out: still the Spanish sentence, invisible.
    expect(banner.style.opacity).toBe('0');
    expect(banner.getAttribute('lang')).toBe('es');
    act(() => {
      vi.advanceTimersByTime(BANNER_FADE_MS);
    });
    expect(banner.style.opacity).toBe('1');
    expect(banner.getAttribute('lang')).toBe('en');
    expect(banner.textContent).toBe(BANNER_TEXTS[1].text);
    const seen = ['es', 'en'];
    for (let i = 0; i < 5; i++) {
      act(() => {
        vi.advanceTimersByTime(BANNER_INTERVAL_MS);
      });
      seen.push(banner.getAttribute('lang') ?? '');
    }
    expect(seen).toEqual(['es', 'en', 'fr', 'de', 'it', 'ru', 'es']);
  });
});
