/**
 * `charla seed --demo`: the demo owner and the demo bot El Pato Pepe (a Spanish restaurant) with
 * three real files shipped in assets/demo/: the menu PDF, a photo of the place and an OGG audio
 * greeting. Running it again changes nothing.
 */
import { readFile } from 'node:fs/promises';
import { upsertOwnerWithPassword } from '../engine/auth/owners.ts';
import { addFile } from '../engine/files.ts';
import { newCharlaKey } from '../engine/secrets.ts';
import type { Chatbot, ChatbotFile } from '../engine/store/database.ts';
import {
  findOwnedChatbotByName,
  insertChatbot,
  updateOwnedChatbot,
} from '../engine/store/queries/chatbots.ts';
import { listFiles } from '../engine/store/queries/files.ts';
import { ensureIalanding } from '../engine/store/queries/ialandings.ts';
import { findOwnerByEmail, insertProfileIfMissing } from '../engine/store/queries/owners.ts';
import { defaultConfig, type ReservationConfig } from '../plugins/reservations/config.ts';
import { findConfig, reservationsDb, saveConfig } from '../plugins/reservations/queries.ts';
import type { CharlaApp } from './app.ts';

/** The demo owner's e-mail and password (README). */
export const DEMO_EMAIL = 'demo@charla.local';
export const DEMO_PASSWORD = 'pato-pepe-demo';
export const DEMO_BOT_NAME = 'El Pato Pepe';

/** The demo bot's fields. */
export const DEMO_BOT = {
  business_name: DEMO_BOT_NAME,
  business_description:
    'Restaurante familiar de cocina española en la Calle del Estanque 12, Madrid. Nuestro plato estrella es el arroz con pato, y también hacemos pato confitado, merluza a la gallega y paella de verduras. Abrimos de martes a domingo, de 13:00 a 16:30 y de 20:00 a 23:30; los lunes cerramos. Se puede reservar mesa por este chat. Hay opciones vegetarianas.',
  chatbot_style: 'divertido',
  expectations:
    'Que los clientes conozcan la carta, sepan los horarios y reserven mesa. Responde con simpatía, en pocas frases, e invita a reservar.',
  idioma: 'Español',
  category: 'Restaurante y Comida',
  timezone: 'Europe/Madrid',
} as const;

/**
 * The demo's reservation calendar (issue 12, "Done when"): El Pato Pepe's hours from its description,
 * Tuesday to Sunday 13:00–16:30 and 20:00–23:30 (a break between), closed on Monday; hour-long
 * slots; name, phone and number of people asked; reminders 24 h and 2 h before; one table per slot.
 */
export function demoReservationConfig(): ReservationConfig {
  const open = { enabled: true, start: '13:00', end: '23:30', break_start: '16:30', break_end: '20:00' };
  return {
    ...defaultConfig(),
    working_hours: {
      monday: { ...open, enabled: false },
      tuesday: open,
      wednesday: open,
      thursday: open,
      friday: open,
      saturday: open,
      sunday: open,
    },
    require_name: true,
    require_phone: true,
    require_group_size: true,
    max_party_size: 12,
  };
}

/** The demo files: asset name, keywords, context. */
export const DEMO_FILES = [
  {
    asset: 'carta-el-pato-pepe.pdf',
    keyword: 'menu,carta,precios',
    context: 'La carta completa de El Pato Pepe: entrantes, principales, postres y precios.',
  },
  {
    asset: 'local-el-pato-pepe.jpg',
    keyword: 'foto,local',
    context: 'Foto de la fachada del restaurante en la Calle del Estanque 12.',
  },
  {
    asset: 'saludo-el-pato-pepe.ogg',
    keyword: 'audio,saludo',
    context: 'Audio de bienvenida del restaurante.',
  },
] as const;

export { newCharlaKey } from '../engine/secrets.ts';

/** What {@link seedDemo} did. */
export interface SeedOutcome {
  ownerId: string;
  bot: Chatbot;
  files: ChatbotFile[];
  created: { owner: boolean; bot: boolean; files: number };
}

/**
 * Creates whatever of the demo is missing.
 * @param onStep progress callback (one line per step).
 */
export async function seedDemo(
  app: CharlaApp,
  onStep: (line: string) => void = () => {},
): Promise<SeedOutcome> {
  const db = app.store.db;
  onStep(`demo owner ${DEMO_EMAIL}`);
  const known = await findOwnerByEmail(db, DEMO_EMAIL);
  if (!known) await upsertOwnerWithPassword(app.auth, DEMO_EMAIL, DEMO_PASSWORD);
  const ownerCreated = !known;
  const owner = known ?? (await findOwnerByEmail(db, DEMO_EMAIL))!;
  // The demo owner's channels run without days running out (Telegram, the widget, the IALanding):
  // a premium plan counts as paid (spec 001 §4). An existing profile is left as it is.
  await insertProfileIfMissing(db, { user_id: owner.id, plan: 'premium', expires_at: null });
  let bot = await findOwnedChatbotByName(db, owner.id, DEMO_BOT_NAME);
  const botCreated = !bot;
  onStep(`demo bot ${DEMO_BOT_NAME}`);
  bot ??= await insertChatbot(db, {
    user_id: owner.id,
    ...DEMO_BOT,
    charla_key: newCharlaKey(),
    web_enabled: true,
    // Issue 29: bots start unpublished; the demo is a showcase, published in Facebots from the start.
    published_at: new Date(),
  });
  const existing = await listFiles(db, bot.id);
  let added = 0;
  for (const f of DEMO_FILES) {
    if (existing.some((e) => e.keyword === f.keyword)) continue;
    onStep(`demo file ${f.asset}`);
    const data = await readFile(new URL(`../assets/demo/${f.asset}`, import.meta.url));
    await addFile(db, app.storage, {
      ownerId: owner.id,
      chatbotId: bot.id,
      originalName: f.asset,
      data,
      keyword: f.keyword,
      context: f.context,
    });
    added++;
  }
  await ensureIalanding(db, bot);
  // Reservations on, with the restaurant's hours, the first time (an owner's later changes stay).
  const reservations = reservationsDb(db);
  if (!(await findConfig(reservations, bot.id))) {
    onStep('demo reservations calendar');
    await saveConfig(reservations, bot.id, demoReservationConfig(), new Date());
    bot = (await updateOwnedChatbot(db, owner.id, bot.id, { enable_reservations: true })) ?? bot;
  }
  app.engine.cache.invalidate(bot.id);
  return {
    ownerId: owner.id,
    bot,
    files: await listFiles(db, bot.id),
    created: { owner: ownerCreated, bot: botCreated, files: added },
  };
}

/** The demo bot's id when the demo was seeded, else undefined. */
export async function findDemoBotId(app: CharlaApp): Promise<string | undefined> {
  const owner = await findOwnerByEmail(app.store.db, DEMO_EMAIL);
  return owner ? (await findOwnedChatbotByName(app.store.db, owner.id, DEMO_BOT_NAME))?.id : undefined;
}
