/**
 * Bot files in an S3-compatible bucket (issue 26 §1): AWS S3, MinIO, Cloudflare R2, Ceph … so that
 * several Charla processes share the same files. Chosen by cli/app.ts when `S3_BUCKET` is set
 * (engine/config.ts `S3_*`). Writes stream through `@aws-sdk/lib-storage`'s `Upload` (a multipart
 * upload for big files: a video is never held whole in memory); an object appears whole or not at
 * all, as S3 commits a put or a multipart upload atomically.
 */
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config.ts';
import {
  assertKey,
  type ByteRange,
  contentTypeOf,
  type ObjectInfo,
  type PutOptions,
  type Storage,
  type StoredObject,
} from './index.ts';

/** True for the S3 answers that mean "no such object" (404 NotFound / NoSuchKey). */
function isNotFound(err: unknown): boolean {
  if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404) return true;
  const name = (err as { name?: string } | null)?.name;
  return name === 'NotFound' || name === 'NoSuchKey';
}

/** Storage in one bucket; keys are the object keys as they are (`{userId}/{timestamp}_{name}`). */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  /** The SDK client (shared with `charla storage migrate`). */
  readonly client: S3Client;
  /** The bucket's name. */
  readonly bucket: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.credentials ? { credentials: config.credentials } : {}),
    });
  }

  async put(key: string, data: Uint8Array | Readable, options?: PutOptions): Promise<void> {
    assertKey(key);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: data,
        ContentType: options?.contentType ?? contentTypeOf(key),
      },
      // 8 MB parts, two at a time: at most ~16 MB of a stream in memory.
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
    });
    await upload.done();
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: out.ContentLength ?? 0,
        contentType: out.ContentType ?? contentTypeOf(key),
        etag: out.ETag ?? '""',
        lastModified: out.LastModified ?? new Date(0),
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    assertKey(key);
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const body = out.Body;
      if (!(body instanceof Readable)) throw new Error('S3 GetObject returned no Node.js stream');
      // The whole size: from `Content-Range: bytes a-b/size` for a range, else the length.
      const total = out.ContentRange ? Number(out.ContentRange.split('/')[1]) : (out.ContentLength ?? 0);
      const info: StoredObject = {
        stream: body,
        size: Number.isFinite(total) ? total : (out.ContentLength ?? 0),
        contentType: out.ContentType ?? contentTypeOf(key),
        etag: out.ETag ?? '""',
        lastModified: out.LastModified ?? new Date(0),
      };
      return range ? { ...info, range } : info;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    assertKey(key);
    // S3 answers 204 for a missing key too.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async *list(): AsyncIterable<{ key: string; size: number }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, ...(token ? { ContinuationToken: token } : {}) }),
      );
      for (const o of page.Contents ?? []) if (o.Key) yield { key: o.Key, size: o.Size ?? 0 };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }
}
