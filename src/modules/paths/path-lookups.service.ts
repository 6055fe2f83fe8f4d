import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';
import { domainBase } from '../domains/domain-url';
import { LearningPath } from './path.entity';
import { PublishedPath } from './published-path.entity';

/** The learner-facing URL of a published path. */
export const pathUrl = (domainName: string, slug: string) => `${domainBase(domainName)}/path/${slug}`;

/**
 * The lookups every paths sub-resource starts from: the domain of a /v1 path, a live published
 * path of it, a live path, item counts. Every query filters on the caller's organization; another
 * organization's ids behave as missing ones.
 */
@Injectable()
export class PathLookups {
  constructor(private readonly domains: DomainsService) {}

  async domain(p: Principal, name: string): Promise<Domain> {
    return this.domains.requireByName(p, name);
  }

  async publishedPath(m: EntityManager, p: Principal, domain: Domain, id: string): Promise<PublishedPath> {
    const uuid = decodeId('publishedPath', id);
    const pp = uuid ? await m.getRepository(PublishedPath).findOne({ where: { id: uuid, organizationId: p.organizationId, domainId: domain.id } }) : null;
    if (!pp || pp.unpublishedAt) throw notFound();
    return pp;
  }

  async path(m: EntityManager, p: Principal, uuid: string): Promise<LearningPath> {
    const path = await m.getRepository(LearningPath).findOne({ where: { id: uuid, organizationId: p.organizationId } });
    if (!path || path.deletedAt) throw notFound();
    return path;
  }

  /** Live items (their published course still published) per path, for a page of paths. */
  async itemCounts(m: EntityManager, organizationId: string, pathIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!pathIds.length) return out;
    const rows = await scoped(m, organizationId).query<{ path_id: string; n: number }[]>(
      `SELECT pi.path_id, count(*)::int AS n FROM path_items pi
         JOIN published_courses pc ON pc.id = pi.published_course_id AND pc.unpublished_at IS NULL
        WHERE pi.organization_id = $org AND pi.path_id = ANY($1::uuid[]) GROUP BY pi.path_id`,
      [[...new Set(pathIds)]],
    );
    for (const r of rows) out.set(r.path_id, r.n);
    return out;
  }

  async pathByPublicId(m: EntityManager, p: Principal, id: string): Promise<LearningPath> {
    const uuid = decodeId('path', id);
    if (!uuid) throw notFound();
    return this.path(m, p, uuid);
  }
}
