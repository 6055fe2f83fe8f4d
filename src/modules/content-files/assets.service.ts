import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { ApiError, ValidationFailed } from '../../core/http/api-error';
import { FileStorage } from '../../core/storage/storage';
import { AssetRequest } from './dto/asset.dto';
import { Asset } from './entities';
import { assetImportJob, ImportJobs } from './import-jobs';
import { nameFromUrl, vetContentUrl } from './url-check';
import { OrgRowsService } from '../../core/pagination/org-rows';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { filePage } from './file-lists';
import { scoped } from '../../core/database/scoped';

@Injectable()
export class AssetsService extends OrgRowsService<Asset> {
  constructor(
    @InjectRepository(Asset) repo: Repository<Asset>,
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly storage: FileStorage,
    private readonly imports: ImportJobs,
  ) {
    super(repo, 'asset');
  }

  /** /v1 list: oldest first, or with updated_since by last change (file-lists.ts). */
  override list(p: Principal, page: V1PageRequest): Promise<{ rows: Asset[]; count: number }> {
    return filePage(this.repo, p.organizationId, page);
  }

  /**
   * From content_url: the row is PROCESSING and the worker downloads and re-hosts the file. From
   * asset.embed_link_url alone: nothing to fetch, the asset is READY (type HTML) at once.
   */
  async create(p: Principal, dto: AssetRequest): Promise<Asset> {
    const meta = dto.asset ?? {};
    const problems: { field: string; pointer: string; message: string }[] = [];
    let embed: string | null = null;
    if (meta.embed_link_url !== undefined) {
      if (!isHttpUrl(meta.embed_link_url)) problems.push({ field: 'asset.embed_link_url', pointer: '/asset/embed_link_url', message: 'Enter a valid URL.' });
      else embed = meta.embed_link_url;
    } else if (dto.content_url === undefined) {
      problems.push({ field: 'asset.embed_link_url', pointer: '/asset/embed_link_url', message: 'This field is required when content_url is absent.' });
    }
    if (problems.length) throw new ValidationFailed(problems, 400);
    const source = dto.content_url !== undefined ? await vetContentUrl('content_url', dto.content_url, this.config.ALLOW_PRIVATE_URLS) : null;

    const asset = await this.repo.save(
      this.repo.create({
        organizationId: p.organizationId,
        name: meta.name ?? nameFromUrl((source ?? embed)!),
        type: source ? null : 'HTML',
        sourceUrl: source,
        embedLinkUrl: embed,
        aspectRatio: meta.aspect_ratio ?? '16:9',
        syncCompletion: meta.sync_completion ?? false,
        state: source ? 'PROCESSING' : 'READY',
        failureReason: null,
        storageKey: null,
        contentType: null,
        sizeBytes: null,
      }),
    );
    // the row is the truth: when Redis does not take the job in time (outage), the answer is the
    // same PROCESSING asset and the worker's sweeper queues the import later
    if (source) await this.imports.enqueue(assetImportJob(p.organizationId, asset.id));
    return asset;
  }

  /**
   * PATCH /v2/assets/{id}: the writable metadata (name, aspect_ratio, sync_completion); only the
   * members sent change. 404 for an id that is not the organization's.
   */
  async update(p: Principal, publicId: string, changes: { name?: string; aspect_ratio?: '16:9' | '4:3'; sync_completion?: boolean }): Promise<Asset> {
    const asset = await this.get(p, publicId);
    const set: Partial<Asset> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.aspect_ratio !== undefined) set.aspectRatio = changes.aspect_ratio;
    if (changes.sync_completion !== undefined) set.syncCompletion = changes.sync_completion;
    if (!Object.keys(set).length) return asset;
    await this.repo.update({ id: asset.id, organizationId: p.organizationId }, set);
    return this.get(p, publicId);
  }

  /** Permanently delete an asset (and its stored file) unless a lesson or a content item uses it (400 on /v1, 409 on /v2). */
  async delete(p: Principal, publicId: string, inUseStatus: 400 | 409 = 400): Promise<void> {
    const asset = await this.get(p, publicId);
    const [used] = await scoped(this.ds, p.organizationId).query<{ used: boolean }[]>(
      // lessons belong to the lessons module; a narrow read of who points at this asset
      `SELECT EXISTS (
         SELECT 1 FROM lessons
          WHERE organization_id = $org AND deleted_at IS NULL
            AND (content_asset_id = $1 OR content_items @> jsonb_build_array(jsonb_build_object('asset_id', $1::text)))
       ) AS used`,
      [asset.id],
    );
    if (used.used) throw new ApiError(inUseStatus, 'This asset is used by one or more lessons and cannot be deleted.');
    await this.repo.delete({ id: asset.id, organizationId: p.organizationId });
    await this.storage.deletePrefix(assetPrefix(p.organizationId, asset.id));
  }
}

export const assetPrefix = (orgId: string, assetId: string) => `org/${orgId}/assets/${assetId}`;

function isHttpUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}
