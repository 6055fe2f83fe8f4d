import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { ApiError, ValidationFailed } from '../../core/http/api-error';
import { decodeId, newUuid } from '../../core/ids/ids';
import { FileStorage } from '../../core/storage/storage';
import { WebPackageLessonsRequest, WebPackageRequest } from './dto/web-package.dto';
import { repointWebPackage } from '../lessons/lesson-refs';
import { WebPackage } from './entities';
import { ImportJobs, webPackageImportJob } from './import-jobs';
import { vetContentUrl } from './url-check';
import { OrgRowsService } from '../../core/pagination/org-rows';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { filePage } from './file-lists';
import { scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import { entityFromRow } from '../../core/database/entity-rows';

/** One package to create: its source and the members both interfaces take. */
export interface WebPackageDraft {
  contentUrl: string;
  title: string;
  redirectOnCompletion?: boolean;
  syncCompletion?: boolean;
}

export const webPackagePrefix = (orgId: string, id: string) => `org/${orgId}/web-packages/${id}`;

@Injectable()
export class WebPackagesService extends OrgRowsService<WebPackage> {
  constructor(
    @InjectRepository(WebPackage) repo: Repository<WebPackage>,
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly storage: FileStorage,
    private readonly imports: ImportJobs,
  ) {
    super(repo, 'webPackage');
  }

  /** /v1 list: oldest first, or with updated_since by last change (file-lists.ts). */
  override list(p: Principal, page: V1PageRequest): Promise<{ rows: WebPackage[]; count: number }> {
    return filePage(this.repo, p.organizationId, page);
  }

  /** Answers at once with state PROCESSING; the worker fetches, checks and unpacks the zip. */
  async create(p: Principal, dto: WebPackageRequest): Promise<WebPackage> {
    const meta = dto.web_package;
    const [out] = await this.createMany(p, [
      { contentUrl: dto.content_url, title: meta.title, redirectOnCompletion: meta.redirect_on_completion, syncCompletion: meta.sync_on_completion ?? meta.sync_completion },
    ]);
    if (out instanceof ValidationFailed) throw out;
    return out;
  }

  /**
   * Create packages (/v1 one, /v2 a batch): each content_url is vetted (a refused one is that
   * draft's ValidationFailed on `content_url`), the accepted ones are one multi-row INSERT in state
   * PROCESSING, then one import job each. Results in the order of `drafts`.
   */
  async createMany(p: Principal, drafts: WebPackageDraft[]): Promise<(WebPackage | ValidationFailed)[]> {
    const out: (WebPackage | ValidationFailed)[] = [];
    const accepted: WebPackage[] = [];
    for (const d of drafts) {
      let source: string;
      try {
        source = await vetContentUrl('content_url', d.contentUrl, this.config.ALLOW_PRIVATE_URLS);
      } catch (e) {
        if (!(e instanceof ValidationFailed)) throw e;
        out.push(e);
        continue;
      }
      const id = newUuid();
      const pkg = this.repo.create({
        id,
        organizationId: p.organizationId,
        title: d.title,
        type: null,
        standardVersion: null,
        redirectOnCompletion: d.redirectOnCompletion ?? true,
        syncCompletion: d.syncCompletion ?? false,
        state: 'PROCESSING',
        failureReason: null,
        sourceUrl: source,
        storagePrefix: webPackagePrefix(p.organizationId, id),
        launchPath: null,
        launchParameters: null,
        launchData: null,
        sizeBytes: null,
        expandedBytes: null,
        fileCount: null,
      });
      out.push(pkg);
      accepted.push(pkg);
    }
    if (!accepted.length) return out;
    // insert, not save: save() with the id set first looks the id up (in every organization)
    await this.repo.insert(accepted);
    // the row is the truth: when Redis does not take the job in time (outage), the answer is the
    // same PROCESSING package and the worker's sweeper queues the import later
    await Promise.all(accepted.map((pkg) => this.imports.enqueue(webPackageImportJob(p.organizationId, pkg.id))));
    return out;
  }

  /**
   * Set the titles of the organization's packages (uuid -> title; a uuid listed twice keeps its
   * last title) in one UPDATE ... FROM (VALUES ...); returns the updated rows (unknown ids absent).
   */
  async setTitles(p: Principal, titles: Map<string, string>): Promise<WebPackage[]> {
    if (!titles.size) return [];
    const params: unknown[] = [];
    const tuples = [...titles].map(([id, title]) => {
      params.push(id, title);
      return `($${params.length - 1}::uuid, $${params.length}::text)`;
    });
    const result = await scoped(this.ds, p.organizationId).query<unknown>(
      `UPDATE web_packages AS w SET title = v.title, updated_at = date_trunc('milliseconds', now())
         FROM (VALUES ${tuples.join(', ')}) AS v(id, title)
        WHERE w.id = v.id AND w.organization_id = $org
        RETURNING w.*`,
      params,
    );
    return rowsOf<Record<string, unknown>>(result).map((r) => entityFromRow(this.repo, r));
  }

  /** Delete a package and its stored files; refused while a lesson uses it (400 on /v1; /v2 asks for 409). */
  async delete(p: Principal, publicId: string, inUseStatus: 400 | 409 = 400): Promise<void> {
    const pkg = await this.get(p, publicId);
    const [used] = await scoped(this.ds, p.organizationId).query<{ used: boolean }[]>(
      // lessons belong to the lessons module; a narrow read of who points at this package
      `SELECT EXISTS (SELECT 1 FROM lessons WHERE organization_id = $org AND content_web_package_id = $1 AND deleted_at IS NULL) AS used`,
      [pkg.id],
    );
    if (used.used) throw new ApiError(inUseStatus, 'This web package is used by one or more lessons and cannot be deleted.');
    await this.repo.delete({ id: pkg.id, organizationId: p.organizationId });
    await this.storage.deletePrefix(pkg.storagePrefix);
  }

  /**
   * Put `web_package_id` in place of the addressed package in every lesson of the organization
   * that uses it (lessons.content_web_package_id; content items are not touched). Both packages
   * must be the caller's. Returns how many lessons changed.
   */
  async replaceInLessons(p: Principal, publicId: string, dto: WebPackageLessonsRequest): Promise<number> {
    const from = await this.get(p, publicId);
    const toId = decodeId('webPackage', dto.web_package_id);
    const to = toId ? await this.repo.findOne({ where: { id: toId, organizationId: p.organizationId } }) : null;
    if (!to) {
      throw new ValidationFailed([{ field: 'web_package_id', pointer: '/web_package_id', message: `Invalid pk "${dto.web_package_id}" - object does not exist.` }], 400);
    }
    if (to.state === 'FAILED') {
      throw new ValidationFailed([{ field: 'web_package_id', pointer: '/web_package_id', message: 'This web package failed to process and cannot be used in lessons.' }], 400);
    }
    if (to.id === from.id) return 0;
    // lessons belong to the lessons module: one set-wise, organization-scoped UPDATE there
    return repointWebPackage(this.ds.manager, p.organizationId, from.id, to.id);
  }
}
