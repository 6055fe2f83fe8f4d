import type { S3Client } from '@aws-sdk/client-s3';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppConfig } from '../config/config';
import { constantTimeEqual, hmac } from '../crypto/crypto';

/**
 * File storage behind one interface: local disk under STORAGE_DIR by default, S3-compatible
 * storage through the AWS SDK when S3_BUCKET is set. Keys are relative paths such as
 * `org/<uuid>/assets/<uuid>/file.mp4`; they never escape the storage root.
 */
export interface StoredStat {
  size: number;
  contentType?: string;
}

export abstract class FileStorage {
  abstract putStream(key: string, body: Readable, contentType?: string): Promise<void>;
  abstract read(key: string): Promise<Readable | null>;
  abstract stat(key: string): Promise<StoredStat | null>;
  abstract deletePrefix(prefix: string): Promise<void>;

  putFile(key: string, localPath: string, contentType?: string): Promise<void> {
    return this.putStream(key, createReadStream(localPath), contentType);
  }
  putBuffer(key: string, data: Buffer, contentType?: string): Promise<void> {
    return this.putStream(key, Readable.from([data]), contentType);
  }
}

const KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._ ()+-]+)*$/;

export function assertKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((p) => p === '..' || p === '.')) throw new Error(`invalid storage key: ${key}`);
  return key;
}

export class DiskStorage extends FileStorage {
  private readonly root: string;
  constructor(root: string) {
    super();
    this.root = resolve(root);
  }
  private path(key: string): string {
    const p = resolve(join(this.root, assertKey(key)));
    if (!p.startsWith(this.root + sep)) throw new Error(`invalid storage key: ${key}`);
    return p;
  }
  async putStream(key: string, body: Readable): Promise<void> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    await pipeline(body, createWriteStream(p));
  }
  async read(key: string): Promise<Readable | null> {
    const p = this.path(key);
    try {
      await stat(p);
    } catch {
      return null;
    }
    return createReadStream(p);
  }
  async stat(key: string): Promise<StoredStat | null> {
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { size: s.size } : null;
    } catch {
      return null;
    }
  }
  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.path(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }
}

/**
 * S3-compatible storage. The AWS SDK (a large load) is required when the first S3Storage is made,
 * i.e. only by processes configured with S3_BUCKET (docs/decisions/tests.md).
 */
export class S3Storage extends FileStorage {
  private readonly sdk: Promise<{ s3: typeof import('@aws-sdk/client-s3'); upload: typeof import('@aws-sdk/lib-storage'); client: S3Client }>;
  constructor(
    private readonly bucket: string,
    config: AppConfig,
  ) {
    super();
    this.sdk = Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(([s3, upload]) => ({
      s3,
      upload,
      client: new s3.S3Client({
        region: config.S3_REGION,
        endpoint: config.S3_ENDPOINT,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
        credentials: config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } : undefined,
      }),
    }));
  }
  async putStream(key: string, body: Readable, contentType?: string): Promise<void> {
    const { upload, client } = await this.sdk;
    await new upload.Upload({ client, params: { Bucket: this.bucket, Key: assertKey(key), Body: body, ContentType: contentType } }).done();
  }
  async read(key: string): Promise<Readable | null> {
    const { s3, client } = await this.sdk;
    try {
      const out = await client.send(new s3.GetObjectCommand({ Bucket: this.bucket, Key: assertKey(key) }));
      return out.Body as Readable;
    } catch (e: any) {
      if (e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404) return null;
      throw e;
    }
  }
  async stat(key: string): Promise<StoredStat | null> {
    const { s3, client } = await this.sdk;
    try {
      const out = await client.send(new s3.HeadObjectCommand({ Bucket: this.bucket, Key: assertKey(key) }));
      return { size: out.ContentLength ?? 0, contentType: out.ContentType };
    } catch (e: any) {
      if (e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404) return null;
      throw e;
    }
  }
  async deletePrefix(prefix: string): Promise<void> {
    const { s3, client } = await this.sdk;
    let token: string | undefined;
    do {
      const list = await client.send(new s3.ListObjectsV2Command({ Bucket: this.bucket, Prefix: assertKey(prefix.replace(/\/+$/, '')) + '/', ContinuationToken: token }));
      const keys = (list.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length) await client.send(new s3.DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys } }));
      token = list.IsTruncated ? list.NextContinuationToken : undefined;
    } while (token);
  }
}

export function createStorage(config: AppConfig): FileStorage {
  return config.S3_BUCKET ? new S3Storage(config.S3_BUCKET, config) : new DiskStorage(config.STORAGE_DIR);
}

/**
 * Signed download URLs: `<base>/files/<key>?expires=<unix s>&signature=<hmac>`, valid for
 * SIGNED_URL_TTL seconds, `base` being the request's base URL (core/http/base-url.ts). The
 * signature covers the key and expiry, not the host. The file route refuses expired or altered ones with 403.
 */
export function signedFileUrl(config: AppConfig, key: string, baseUrl: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + config.SIGNED_URL_TTL;
  const signature = hmac(config.APP_SECRET, `file:${key}:${expires}`);
  const path = key.split('/').map(encodeURIComponent).join('/');
  return `${baseUrl.replace(/\/+$/, '')}/files/${path}?expires=${expires}&signature=${signature}`;
}

export function verifyFileSignature(config: AppConfig, key: string, expires: unknown, signature: unknown, now = Date.now()): boolean {
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string') return false;
  if (Number(expires) * 1000 < now) return false;
  return constantTimeEqual(signature, hmac(config.APP_SECRET, `file:${key}:${expires}`));
}
