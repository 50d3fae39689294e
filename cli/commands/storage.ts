/**
 * `charla storage migrate` (issue 26 §1): copies the bot files of the local store
 * (`<CHARLA_DATA_DIR>/storage/chatbot-files`) into the S3 bucket the `S3_*` variables configure,
 * keeping their keys, so `/files/{key}` addresses and `chatbot_files.file_url` stay valid. It
 * needs no database (it runs while Charla serves) and can run again: a key already in the bucket
 * with the same size is skipped. The local files are left in place.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../engine/config.ts';
import { LocalStorage, type Storage } from '../../engine/storage/index.ts';
import { CliError, EXIT, output, progress } from '../util.ts';

/** What a migration did, by key count. */
export interface MigrationCounts {
  /** Copied into the target. */
  copied: number;
  /** Already in the target with the same size. */
  skipped: number;
  /** Could not be copied (each reported through `onError`). */
  failed: number;
  /** Bytes copied. */
  bytes: number;
}

/**
 * Copies every object of `source` into `target` under the same key, streaming each one; keys the
 * target already holds with the same size are skipped (a second run copies nothing).
 */
export async function migrateStorage(
  source: Storage,
  target: Storage,
  hooks: { onCopied?: (key: string) => void; onError?: (key: string, err: unknown) => void } = {},
): Promise<MigrationCounts> {
  const counts: MigrationCounts = { copied: 0, skipped: 0, failed: 0, bytes: 0 };
  for await (const { key, size } of source.list()) {
    try {
      const there = await target.head(key);
      if (there && there.size === size) {
        counts.skipped++;
        continue;
      }
      const object = await source.get(key);
      if (!object) continue; // removed meanwhile
      await target.put(key, object.stream, { contentType: object.contentType });
      counts.copied++;
      counts.bytes += object.size;
      hooks.onCopied?.(key);
    } catch (err) {
      counts.failed++;
      hooks.onError?.(key, err);
    }
  }
  return counts;
}

/** Registers `charla storage migrate`. */
export function registerStorage(program: Command): void {
  const storage = program.command('storage').description('bot file storage (local disk or S3)');
  storage
    .command('migrate')
    .description(
      'copy the local bot files into the S3 bucket of S3_BUCKET (same keys; files already there with the same size are skipped)',
    )
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const config = loadConfig();
      if (!config.s3)
        throw new CliError('S3_BUCKET is not set: there is no bucket to copy the files into', EXIT.usage);
      const { S3Storage } = await import('../../engine/storage/s3.ts');
      const source = new LocalStorage(join(config.dataDir, 'storage', 'chatbot-files'));
      const target = new S3Storage(config.s3);
      try {
        const counts = await migrateStorage(source, target, {
          onCopied: (key) => progress(`copied ${key}`),
          onError: (key, err) =>
            progress(`could not copy ${key}: ${err instanceof Error ? err.message : String(err)}`),
        });
        output(
          Boolean(opts.json),
          { bucket: config.s3.bucket, ...counts },
          () =>
            `Copied ${counts.copied} file(s) (${counts.bytes} bytes) into ${config.s3?.bucket}; ` +
            `${counts.skipped} already there, ${counts.failed} failed.`,
        );
        if (counts.failed > 0)
          throw new CliError(`${counts.failed} file(s) could not be copied`, EXIT.failure);
      } finally {
        target.close();
      }
    });
}
