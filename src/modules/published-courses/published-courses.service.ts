import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { PublishedCourse } from './published-course.entity';

/**
 * Published courses. The /v1 catalog work adds create/update/unpublish here; other modules use
 * this service (never the repository) to resolve published-course ids within an organization.
 */
@Injectable()
export class PublishedCoursesService {
  constructor(@InjectRepository(PublishedCourse) private readonly repo: Repository<PublishedCourse>) {}

  /** The subset of `ids` (uuids) that are live published courses of the organization. */
  async existingIds(organizationId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.repo.find({ select: { id: true }, where: { organizationId, id: In([...new Set(ids)]), unpublishedAt: IsNull() } });
    return new Set(rows.map((r) => r.id));
  }
}
