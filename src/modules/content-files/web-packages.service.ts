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
import { OrgRowsService } from '../../core/database/org-rows';

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

  /** Answers at once with state PROCESSING; the worker fetches, checks and unpacks the zip. */
  async create(p: Principal, dto: WebPackageRequest): Promise<WebPackage> {
    const source = await vetContentUrl('content_url', dto.content_url, this.config.ALLOW_PRIVATE_URLS);
    const id = newUuid();
    const meta = dto.web_package;
    // insert, not save: save() with the id set first looks the id up (in every organization)
    const pkg = this.repo.create({
      id,
      organizationId: p.organizationId,
      title: meta.title,
      type: null,
      standardVersion: null,
      redirectOnCompletion: meta.redirect_on_completion ?? true,
      syncCompletion: meta.sync_on_completion ?? meta.sync_completion ?? false,
      state: 'PROCESSING',
      failureReason: null,
      sourceUrl: source,
      storagePrefix: webPackagePrefix(p.organizationId, id),
      launchPath: null,
      sizeBytes: null,
      expandedBytes: null,
      fileCount: null,
    });
    await this.repo.insert(pkg);
    // the row is the truth: when Redis does not take the job in time (outage), the answer is the
    // same PROCESSING package and the worker's sweeper queues the import later
    await this.imports.enqueue(webPackageImportJob(p.organizationId, pkg.id));
    return pkg;
  }

  /** Delete a package and its stored files; refused (400) while a lesson uses it. */
  async delete(p: Principal, publicId: string): Promise<void> {
    const pkg = await this.get(p, publicId);
    const [used] = await this.ds.query(
      // lessons belong to the lessons module; a narrow read of who points at this package
      `SELECT EXISTS (SELECT 1 FROM lessons WHERE organization_id = $1 AND content_web_package_id = $2 AND deleted_at IS NULL) AS used`,
      [p.organizationId, pkg.id],
    );
    if (used.used) throw new ApiError(400, 'This web package is used by one or more lessons and cannot be deleted.');
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
