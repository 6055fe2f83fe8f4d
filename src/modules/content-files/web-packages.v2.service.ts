import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { ValidationFailed } from '../../core/http/api-error';
import { encodeId } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import { v2SinceKeyset } from '../../core/pagination/v2-updated-since';
import { WebPackageCreateItemV2, WebPackageUpdateItemV2 } from './dto/web-package.v2.dto';
import { WebPackage } from './entities';
import { WebPackagesService } from './web-packages.service';
import { updateLastWins } from '../../core/routes/v2-batch';

/**
 * /v2 web packages over the /v1 service (WebPackagesService: the same URL vetting, the same row in
 * PROCESSING and import job, the same delete rule): the batch item outcomes and the cursor page.
 */
@Injectable()
export class WebPackagesV2Service {
  constructor(
    readonly packages: WebPackagesService,
    @InjectRepository(WebPackage) private readonly repo: Repository<WebPackage>,
  ) {}

  /** By creation, or with filter[updated_since] by last change (core/pagination/v2-updated-since.ts). */
  list(p: Principal, page: PageRequest, since?: Date): Promise<WebPackage[]> {
    const qb = this.repo.createQueryBuilder('w').where('w.organization_id = :org', { org: p.organizationId });
    return v2SinceKeyset(qb, 'w', page, since).getMany();
  }

  /** No within-batch dedupe (two packages from one URL are two packages); a refused content_url fails its item. */
  async createMany(p: Principal, items: ValidItem<WebPackageCreateItemV2>[]): Promise<Map<number, ItemOutcome<WebPackage>>> {
    const created = await this.packages.createMany(
      p,
      items.map((v) => ({ contentUrl: v.item.attributes.content_url, title: v.item.attributes.title })),
    );
    const out = new Map<number, ItemOutcome<WebPackage>>();
    items.forEach((v, i) => {
      const r = created[i];
      if (r instanceof ValidationFailed) {
        const message = r.problems[0]?.message ?? r.detail;
        out.set(v.index, { ok: false, code: 'validation_error', detail: `content_url: ${message}`, pointer: '/attributes/content_url' });
      } else {
        out.set(v.index, { ok: true, id: encodeId('webPackage', r.id), result: r });
      }
    });
    return out;
  }

  /** Titles only; malformed, unknown and other organizations' ids are not_found. A repeated id: later titles win, every item answers the final package. */
  updateMany(p: Principal, items: ValidItem<WebPackageUpdateItemV2>[]): Promise<Map<number, ItemOutcome<WebPackage>>> {
    return updateLastWins(
      items,
      'webPackage',
      'Web package not found.',
      (v) => ({ title: v.item.attributes.title }),
      async (merged) => {
        const rows = await this.packages.setTitles(p, new Map([...merged].map(([id, c]) => [id, c.title])));
        return new Map(rows.map((r) => [r.id, r]));
      },
      (r) => encodeId('webPackage', r.id),
    );
  }
}
