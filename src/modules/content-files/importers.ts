import { Injectable, Logger, Type } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { mkdtemp, open as openFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FindOptionsWhere, Repository } from 'typeorm';
import { AppConfig } from '../../core/config/config';
import { OutboundError, outboundDownload } from '../../core/net/guarded-http';
import { FileStorage } from '../../core/storage/storage';
import { contentTypeOf, extensionFor } from '../files/mime';
import { assetPrefix } from './assets.service';
import { Asset, AssetType, packageFilesPrefix, packageZipKey, WebPackage } from './entities';
import { inspectManifest, MANIFEST_MAX_BYTES, pickManifest } from './manifest';
import { assetFileName, keyPath } from './storage-names';
import { PackageRejected, SafeZip } from './zip-inspect';

/** A failure worth another attempt (network trouble); everything else fails the import at once. */
export class TransientImportError extends Error {}

/** The human-readable reason of a refused or failed download. */
export function downloadFailure(err: OutboundError): string {
  switch (err.reason) {
    case 'blocked_address':
      return `The content_url is not allowed: ${err.message}.`;
    case 'bad_url':
      return `The content_url is not valid: ${err.message}.`;
    case 'too_large':
      return `The file is too large: ${err.message}.`;
    case 'too_many_redirects':
      return `The download was refused: ${err.message}.`;
    case 'timeout':
      return `The download timed out: ${err.message}.`;
    default:
      return `The download failed: ${err.message}.`;
  }
}

async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A row an import settles: PROCESSING until then. */
interface ImportedRow {
  id: string;
  organizationId: string;
}

/**
 * One import of a PROCESSING row (an asset, a web package): `work` fetches into a temporary
 * directory, stores what it got under `prefix` and answers the columns of the READY row. The row
 * turns READY only while it is still PROCESSING (deleted or settled meanwhile: what was stored is
 * removed, 'skipped'). A failure removes what was stored and settles the row FAILED with its
 * reason (a refusal's or a transient failure's message; `unknownFailure`, logged, for anything
 * else), except a transient failure before the last attempt, which is thrown for a retry.
 */
async function settleImport<E extends ImportedRow>(
  row: E,
  repo: Repository<E>,
  storage: FileStorage,
  run: { prefix: string; tempPrefix: string; lastAttempt: boolean; unknownFailure: string; logUnknown: (err: unknown) => void },
  work: (dir: string) => Promise<Record<string, unknown>>,
): Promise<'READY' | 'FAILED' | 'skipped'> {
  const { id, organizationId } = row;
  try {
    return await withTempDir(run.tempPrefix, async (dir) => {
      const ready = await work(dir);
      const res = await repo
        .createQueryBuilder()
        .update(repo.target)
        .set({ state: 'READY', ...ready, failureReason: null } as never)
        .where('id = :id AND organization_id = :org AND state = :state', { id, org: organizationId, state: 'PROCESSING' })
        .execute();
      if (!res.affected) {
        // deleted (or settled) while downloading: do not leave the files behind
        await storage.deletePrefix(run.prefix);
        return 'skipped' as const;
      }
      return 'READY' as const;
    });
  } catch (err) {
    if (err instanceof TransientImportError && !run.lastAttempt) throw err;
    const known = err instanceof PackageRejected || err instanceof TransientImportError;
    if (!known) run.logUnknown(err);
    await storage.deletePrefix(run.prefix).catch(() => undefined);
    await repo.update({ id, organizationId, state: 'PROCESSING' } as never, { state: 'FAILED', failureReason: known ? err.message : run.unknownFailure } as never);
    return 'FAILED';
  }
}

/**
 * The base of an importer of `entity`'s rows: its logger (named after the importer), the rows'
 * repository, the configuration and the file storage, and the row an import works on.
 */
function Importer<E extends ImportedRow & { state: string }>(entity: Type<E>) {
  abstract class RowImporter {
    protected readonly logger = new Logger(this.constructor.name);

    constructor(
      @InjectRepository(entity) protected readonly repo: Repository<E>,
      protected readonly config: AppConfig,
      protected readonly storage: FileStorage,
    ) {}

    /** The organization's row `id` while it is PROCESSING; else null (nothing to import). */
    protected async processing(organizationId: string, id: string): Promise<E | null> {
      const row = await this.repo.findOne({ where: { id, organizationId } as FindOptionsWhere<E> });
      return row && row.state === 'PROCESSING' ? row : null;
    }
  }
  return RowImporter;
}

async function download(config: AppConfig, url: string, dest: string, maxBytes: number) {
  try {
    return await outboundDownload(url, dest, {
      timeoutMs: config.CONTENT_DOWNLOAD_TIMEOUT_SECONDS * 1000,
      maxBytes,
      maxRedirects: 5,
      allowPrivate: config.ALLOW_PRIVATE_URLS,
    });
  } catch (err) {
    if (err instanceof OutboundError) {
      // a 4xx answer (but 408 / 429) will not get better by asking again
      const status = /^the server answered (\d{3})$/.exec(err.message)?.[1];
      const permanent = status !== undefined && status.startsWith('4') && status !== '408' && status !== '429';
      if ((err.reason === 'connection' || err.reason === 'timeout') && !permanent) throw new TransientImportError(downloadFailure(err));
      throw new PackageRejected(downloadFailure(err));
    }
    throw err;
  }
}

export function assetTypeOf(contentType: string): AssetType {
  const t = contentType.split(';')[0].trim().toLowerCase();
  if (t.startsWith('video/')) return 'VIDEO_BOTR';
  if (t.startsWith('audio/')) return 'AUDIO_BOTR';
  if (t === 'application/pdf') return 'PDF';
  if (t === 'text/html') return 'HTML';
  return 'FILE';
}

async function sniff(path: string): Promise<string | null> {
  const fh = await openFile(path, 'r');
  try {
    const buf = Buffer.alloc(8);
    const { bytesRead } = await fh.read(buf, 0, 8, 0);
    if (bytesRead >= 5 && buf.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
    return null;
  } finally {
    await fh.close();
  }
}

/** Downloads an asset's content_url (guarded, capped) and re-hosts it in storage. */
@Injectable()
export class AssetImporter extends Importer(Asset) {
  /** Runs one import; `lastAttempt` turns a transient failure into FAILED instead of a retry. */
  async run(organizationId: string, assetId: string, lastAttempt: boolean): Promise<'READY' | 'FAILED' | 'skipped'> {
    const asset = await this.processing(organizationId, assetId);
    if (!asset?.sourceUrl) return 'skipped';
    const prefix = assetPrefix(organizationId, asset.id);
    const run = {
      prefix,
      tempPrefix: 'cp-asset-',
      lastAttempt,
      unknownFailure: 'The file could not be stored.',
      logUnknown: (err: unknown) => this.logger.error({ err, assetId }, 'asset import failed'),
    };
    return settleImport(asset, this.repo, this.storage, run, async (dir) => {
      const dest = join(dir, 'download');
      const got = await download(this.config, asset.sourceUrl!, dest, this.config.ASSET_MAX_BYTES);
      let contentType = (got.contentType ?? '').split(';')[0].trim().toLowerCase();
      if (!contentType || contentType === 'application/octet-stream' || contentType === 'binary/octet-stream') {
        contentType = (await sniff(dest)) ?? contentTypeOf(new URL(got.url).pathname).split(';')[0];
      }
      const key = `${prefix}/${assetFileName(got.url, extensionFor(contentType))}`;
      await this.storage.putFile(key, dest, contentType);
      return { type: assetTypeOf(contentType), storageKey: key, contentType, sizeBytes: String(got.bytes) };
    });
  }
}

/**
 * Downloads a web package's zip (guarded, capped), checks it (magic bytes, entry names, no
 * symlinks, entry count, bytes actually expanded, compression ratio), reads its manifest (kind,
 * version, title, launch file), stores the original zip and the unpacked files under the
 * package's prefix, and settles the row READY or FAILED.
 */
@Injectable()
export class WebPackageImporter extends Importer(WebPackage) {
  async run(organizationId: string, webPackageId: string, lastAttempt: boolean): Promise<'READY' | 'FAILED' | 'skipped'> {
    const pkg = await this.processing(organizationId, webPackageId);
    if (!pkg) return 'skipped';
    const run = {
      prefix: pkg.storagePrefix,
      tempPrefix: 'cp-wpk-',
      lastAttempt,
      unknownFailure: 'The package could not be stored.',
      logUnknown: (err: unknown) => this.logger.error({ err, webPackageId }, 'web package import failed'),
    };
    return settleImport(pkg, this.repo, this.storage, run, async (dir) => {
      const dest = join(dir, 'package.zip');
      const got = await download(this.config, pkg.sourceUrl, dest, this.config.WEB_PACKAGE_MAX_BYTES);
      const result = await this.unpack(dest, pkg.storagePrefix);
      return {
        type: result.info.type,
        standardVersion: result.info.version,
        title: result.info.title ?? pkg.title,
        launchPath: result.launch,
        launchParameters: result.info.parameters ?? null,
        launchData: result.info.launchData ?? null,
        sizeBytes: String(got.bytes),
        expandedBytes: String(result.expandedBytes),
        fileCount: result.fileCount,
      };
    });
  }

  /** Check and unpack a local zip into storage under `prefix`; exported for the benchmark. */
  async unpack(zipPath: string, prefix: string) {
    const zip = await SafeZip.open(zipPath, {
      maxEntries: this.config.WEB_PACKAGE_MAX_ENTRIES,
      maxExpandedBytes: this.config.WEB_PACKAGE_MAX_EXPANDED_BYTES,
      maxRatio: this.config.WEB_PACKAGE_MAX_RATIO,
    });
    try {
      const manifest = pickManifest(zip.files);
      if (!manifest) throw new PackageRejected('The package has no imsmanifest.xml, cmi5.xml or tincan.xml (not a SCORM, cmi5 or xAPI package).');
      const info = inspectManifest(manifest.name, await zip.read(manifest, MANIFEST_MAX_BYTES));
      const base = manifest.name.includes('/') ? manifest.name.slice(0, manifest.name.lastIndexOf('/') + 1) : '';
      const filesPrefix = packageFilesPrefix(prefix);
      for (const f of zip.files) {
        await this.storage.putStream(`${filesPrefix}/${keyPath(f.name)}`, await zip.stream(f), contentTypeOf(f.name).split(';')[0]);
      }
      await this.storage.putFile(packageZipKey(prefix), zipPath, 'application/zip');
      const launch = info.launch && !/^[a-z][a-z0-9+.-]*:/i.test(info.launch) ? `${base}${info.launch}`.slice(0, 2048) : info.launch;
      return { info, launch, expandedBytes: zip.expandedBytes, fileCount: zip.files.length };
    } finally {
      zip.close();
    }
  }
}
