/**
 * Chooses the file storage (issue 26 §1): the local folder or an S3-compatible bucket. Apart from
 * engine/storage/index.ts (the interface and the local backend) and s3.ts, so neither imports the
 * other's module back.
 */
import { join } from 'node:path';
import type { CharlaConfig } from '../config.ts';
import { LocalStorage, type Storage } from './index.ts';

/**
 * The storage the configuration asks for (issue 26 §1): the bucket of `S3_BUCKET` when set (the
 * AWS SDK is loaded only then), else the local folder `dataDir/storage/chatbot-files`.
 */
export async function openStorage(config: Pick<CharlaConfig, 'dataDir' | 's3'>): Promise<Storage> {
  if (!config.s3) return new LocalStorage(join(config.dataDir, 'storage', 'chatbot-files'));
  const { S3Storage } = await import('./s3.ts');
  return new S3Storage(config.s3);
}
