/**
 * The registered channel adapters (DESIGN.md: registration is explicit). A new adapter is one
 * folder under adapters/ and one line here; see docs/adapters.md.
 */
import type { ChannelAdapter } from '../engine/registry/index.ts';

export const adapters: ReadonlyArray<ChannelAdapter<never>> = [];
