/**
 * The registered feature plugins (DESIGN.md: registration is explicit). A new plugin is one folder
 * under plugins/ and one line here.
 */
import type { FeaturePlugin } from '../engine/registry/index.ts';
import { audioEffects } from './audio-effects/index.ts';
import { billing } from './billing/index.ts';
import { broadcasts } from './broadcasts/index.ts';
import { conversations } from './conversations/index.ts';
import { facebots } from './facebots/index.ts';
import { reservations } from './reservations/index.ts';
import { site } from './site/index.ts';
import { voice } from './voice/index.ts';
import { webSearch } from './web-search/index.ts';

export const plugins: ReadonlyArray<FeaturePlugin<never>> = [
  billing,
  reservations,
  // Before conversations: a voice note is transcribed even while the owner has taken over.
  voice,
  conversations,
  audioEffects,
  broadcasts,
  webSearch,
  facebots,
  site,
];
