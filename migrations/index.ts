/**
 * The static list of Charla's migrations (DESIGN.md: no folder scanning). Names are
 * `YYYYMMDDHHmm_snake_case` and are never renamed; add new ones at the end.
 */
import type { Migration } from 'kysely/migration';
import * as initial from './202611211200_initial.ts';
import * as ownerAccounts from './202611211300_owner_accounts.ts';
import * as channelUpdates from './202611220000_channel_updates.ts';
import * as inboxClaims from './202611221200_inbox_claims.ts';
import * as publicDescription from './202611230000_public_description.ts';
import * as ialandingSlugRedirects from './202611230100_ialanding_slug_redirects.ts';
import * as widgetSeen from './202611231200_widget_seen.ts';
import * as outgoingMessages from './202611231300_outgoing_messages.ts';
import * as whatsapp from './202611241000_whatsapp.ts';
import * as rateLimits from './202611251200_rate_limits.ts';
import * as turnKeyPerFollower from './202611251300_turn_key_per_follower.ts';
import * as hashedSessionTokens from './202611251400_hashed_session_tokens.ts';
import * as leases from './202611260600_leases.ts';
import * as nodes from './202611260700_nodes.ts';
import * as channelHandoffs from './202611260800_channel_handoffs.ts';
import * as ownerOperator from './202611260900_owner_operator.ts';
import * as whatsappTemplates from './202611271600_whatsapp_templates.ts';
import * as visitorPush from './202611281200_visitor_push.ts';
import * as filePassages from './202611291200_file_passages.ts';
import * as publishedBots from './202611291310_published_bots.ts';
import * as businessCategories from './202611291320_business_categories.ts';
import * as passagesGin from './202611291330_passages_gin.ts';
import * as passageEmbeddings from './202611291340_passage_embeddings.ts';
import * as documentFiles from './202611291400_document_files.ts';
import * as passageChars from './202611301000_passage_chars.ts';
import * as passagesBotGin from './202611301010_passages_bot_gin.ts';

export const migrations: Record<string, Migration> = {
  '202611211200_initial': initial,
  '202611211300_owner_accounts': ownerAccounts,
  '202611220000_channel_updates': channelUpdates,
  '202611221200_inbox_claims': inboxClaims,
  '202611230000_public_description': publicDescription,
  '202611230100_ialanding_slug_redirects': ialandingSlugRedirects,
  '202611231200_widget_seen': widgetSeen,
  '202611231300_outgoing_messages': outgoingMessages,
  '202611241000_whatsapp': whatsapp,
  '202611251200_rate_limits': rateLimits,
  '202611251300_turn_key_per_follower': turnKeyPerFollower,
  '202611251400_hashed_session_tokens': hashedSessionTokens,
  '202611260600_leases': leases,
  '202611260700_nodes': nodes,
  '202611260800_channel_handoffs': channelHandoffs,
  '202611260900_owner_operator': ownerOperator,
  '202611271600_whatsapp_templates': whatsappTemplates,
  '202611281200_visitor_push': visitorPush,
  '202611291200_file_passages': filePassages,
  '202611291310_published_bots': publishedBots,
  '202611291320_business_categories': businessCategories,
  '202611291330_passages_gin': passagesGin,
  '202611291340_passage_embeddings': passageEmbeddings,
  '202611291400_document_files': documentFiles,
  '202611301000_passage_chars': passageChars,
  '202611301010_passages_bot_gin': passagesBotGin,
};
