/**
 * Issue 29 §"Setting up the bot": categories that fit the businesses the site sells to
 * (engine/schemas.ts CATEGORIES). The spec's "Empresa o Profesional" becomes "Servicios
 * Profesionales" (also the new default) and "Divulgador Científico o Educativo" becomes
 * "Educación"; the spec's other five stay as they are. `down` maps back, and the three new kinds
 * (restaurant, health, beauty) to the spec's "Empresa o Profesional".
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `UPDATE chatbots SET category = 'Servicios Profesionales' WHERE category = 'Empresa o Profesional';
     UPDATE chatbots SET category = 'Educación' WHERE category = 'Divulgador Científico o Educativo';
     ALTER TABLE chatbots ALTER COLUMN category SET DEFAULT 'Servicios Profesionales';`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `UPDATE chatbots SET category = 'Divulgador Científico o Educativo' WHERE category = 'Educación';
     UPDATE chatbots SET category = 'Empresa o Profesional'
       WHERE category IN ('Servicios Profesionales', 'Restaurante y Comida', 'Salud y Clínicas', 'Belleza');
     ALTER TABLE chatbots ALTER COLUMN category SET DEFAULT 'Empresa o Profesional';`,
  );
}
