/**
 * The registered feature plugins (DESIGN.md: registration is explicit). A new plugin is one folder
 * under plugins/ and one line here.
 *
 * This is also where one plugin's service reaches another (issue 25 §5): a plugin never imports
 * another plugin's server code (test/architecture.test.ts); it declares the port it needs and is
 * built here with the other plugin's service (the audio effects for voice, conversations and broadcasts, the
 * Facebots directory for the site), besides naming that plugin in its `dependencies`.
 */
import type { FeaturePlugin } from '../engine/registry/index.ts';
import { audioEffects, audioEffectsService } from './audio-effects/index.ts';
import { billing } from './billing/index.ts';
import { createBroadcastsPlugin } from './broadcasts/index.ts';
import { createConversationsPlugin } from './conversations/index.ts';
import { directoryService, facebots } from './facebots/index.ts';
import { notifications } from './notifications/index.ts';
import { reservations } from './reservations/index.ts';
import { createSitePlugin } from './site/index.ts';
import { createVoicePlugin } from './voice/index.ts';
import { webSearch } from './web-search/index.ts';

export const plugins: ReadonlyArray<FeaturePlugin> = [
  billing,
  reservations,
  // Before conversations: a voice note is transcribed even while the owner has taken over.
  createVoicePlugin({ effects: audioEffectsService }),
  createConversationsPlugin({ effects: audioEffectsService }),
  // After conversations: a chat the owner took over is silenced before it (issue 27).
  notifications,
  audioEffects,
  createBroadcastsPlugin({ effects: audioEffectsService }),
  webSearch,
  facebots,
  createSitePlugin({ directory: directoryService }),
];
