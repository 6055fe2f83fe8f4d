import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { Principal } from '../../core/auth/principal';
import { ValidationFailed } from '../../core/http/api-error';
import { encodeId } from '../../core/ids/ids';
import { OrgRowsService } from '../../core/pagination/org-rows';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { namedPage } from './named-page';
import { Tag } from './entities';
import { isUniqueViolation } from '../../core/database/sql';
import { slugOf } from '../../core/http/slug-kit';

export const presentTag = (t: Tag) => ({ id: encodeId('tag', t.id), name: t.name, slug: t.slug });

const duplicate = () => new ValidationFailed([{ field: 'name', message: 'tag with this name already exists.' }], 400);

/** Lowercase letters, digits and dashes; accents folded; `tag` when nothing is left. */
export const slugify = (name: string): string => slugOf(name, 240, 'tag');

/** /v1 tags: names unique within the organization (case-insensitive), slugs derived and unique. */
@Injectable()
export class TagsService extends OrgRowsService<Tag> {
  constructor(@InjectRepository(Tag) repo: Repository<Tag>) {
    super(repo, 'tag');
  }

  /** With `updatedSince`: the tags changed at or after it, by last change (tags_org_updated_idx). */
  override list(p: Principal, page: V1PageRequest, updatedSince?: Date): Promise<{ rows: Tag[]; count: number }> {
    return namedPage(this.repo, p.organizationId, page, updatedSince);
  }

  async create(p: Principal, name: string): Promise<Tag> {
    return this.write(p, this.repo.create({ organizationId: p.organizationId, name }));
  }

  /** A rename derives a new slug from the new name. */
  async update(p: Principal, id: string, name: string | undefined): Promise<Tag> {
    const row = await this.get(p, id);
    if (name === undefined || name === row.name) return row;
    row.name = name;
    return this.write(p, row);
  }

  async delete(p: Principal, id: string): Promise<void> {
    const row = await this.get(p, id);
    await this.repo.delete({ id: row.id, organizationId: p.organizationId });
  }

  /** Checks the name, picks a free slug (`python`, `python-2`, ...) and saves; retries a lost slug race. */
  private async write(p: Principal, row: Tag): Promise<Tag> {
    for (let attempt = 0; ; attempt++) {
      const nameTaken = this.repo.createQueryBuilder('t').where('t.organization_id = :org AND lower(t.name) = lower(:name)', { org: p.organizationId, name: row.name });
      if (row.id) nameTaken.andWhere('t.id <> :id', { id: row.id });
      if (await nameTaken.getExists()) throw duplicate();
      row.slug = await this.freeSlug(p.organizationId, slugify(row.name), row.id);
      try {
        if (!row.id) return await this.repo.save(row);
        // by id AND organization (the organization-scoping audit): TypeORM's save() would update by id alone
        const r = await this.repo.createQueryBuilder().update().set({ name: row.name, slug: row.slug }).where({ id: row.id, organizationId: p.organizationId }).returning(['updated_at']).execute();
        if (r.raw?.[0]?.updated_at) row.updatedAt = r.raw[0].updated_at;
        return row;
      } catch (err) {
        if (isUniqueViolation(err, 'tags_org_name_uq')) throw duplicate();
        if (isUniqueViolation(err, 'tags_org_slug_uq') && attempt < 3) continue;
        throw err;
      }
    }
  }

  private async freeSlug(organizationId: string, base: string, exceptId?: string): Promise<string> {
    const rows = await scoped(this.repo, organizationId).query<{ slug: string }[]>(
      `SELECT slug FROM tags WHERE organization_id = $org AND (slug = $1 OR slug LIKE $2) AND ($3::uuid IS NULL OR id <> $3::uuid)`,
      [base, `${base.replace(/[\\%_]/g, '\\$&')}-%`, exceptId ?? null],
    );
    const taken = new Set(rows.map((r) => r.slug));
    if (!taken.has(base)) return base;
    for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
  }
}
