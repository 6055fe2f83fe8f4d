import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { ApiError } from '../../core/http/api-error';
import { encodeId } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import { v2SinceKeyset } from '../../core/pagination/v2-updated-since';
import { AssetsService } from './assets.service';
import { AssetCreateItemV2 } from './dto/asset.v2.dto';
import { Asset } from './entities';

/**
 * /v2 assets (the live /v2 addition of CONVENTIONS §17) over the /v1 service: the same rows, URL
 * vetting, import job and delete rule. The list is keyset-paged on assets_org_created_idx.
 */
@Injectable()
export class AssetsV2Service {
  constructor(
    readonly assets: AssetsService,
    @InjectRepository(Asset) private readonly repo: Repository<Asset>,
  ) {}

  /** By creation, or with filter[updated_since] by last change (core/pagination/v2-updated-since.ts). */
  list(p: Principal, page: PageRequest, since?: Date): Promise<Asset[]> {
    const qb = this.repo.createQueryBuilder('a').where('a.organization_id = :org', { org: p.organizationId });
    return v2SinceKeyset(qb, 'a', page, since).getMany();
  }

  /**
   * Each item as POST /v1/assets would create it (content_url re-hosted by the worker, or an
   * embed link READY at once); an item the /v1 rules refuse fails alone with validation_error at its member.
   */
  async createMany(p: Principal, items: ValidItem<AssetCreateItemV2>[]): Promise<Map<number, ItemOutcome<Asset>>> {
    const out = new Map<number, ItemOutcome<Asset>>();
    for (const v of items) {
      const a = v.item.attributes;
      try {
        const asset = await this.assets.create(p, {
          content_url: a.content_url,
          asset: { name: a.name, embed_link_url: a.embed_link_url, aspect_ratio: a.aspect_ratio, sync_completion: a.sync_completion },
        });
        out.set(v.index, { ok: true, id: encodeId('asset', asset.id), result: asset });
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        const problem = err.problems[0];
        const member = problem ? (problem.field.split('.').pop() ?? problem.field) : 'content_url';
        out.set(v.index, { ok: false, code: 'validation_error', detail: `${member}: ${problem?.message ?? err.detail}`, pointer: `/attributes/${member}` });
      }
    }
    return out;
  }
}
