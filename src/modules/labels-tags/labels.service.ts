import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { Principal } from '../../core/auth/principal';
import { ValidationFailed } from '../../core/http/api-error';
import { encodeId } from '../../core/ids/ids';
import { OrgRowsService } from '../../core/pagination/org-rows';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { namedPage } from './named-page';
import { Label } from './entities';
import { isUniqueViolation } from '../../core/database/sql';

export const presentLabel = (l: Label) => ({ id: encodeId('label', l.id), name: l.name });

const duplicate = () => new ValidationFailed([{ field: 'name', message: 'label with this name already exists.' }], 400);

/** /v1 labels: names unique within the organization, case-insensitively. */
@Injectable()
export class LabelsService extends OrgRowsService<Label> {
  constructor(@InjectRepository(Label) repo: Repository<Label>) {
    super(repo, 'label');
  }

  /** With `updatedSince`: the labels changed at or after it, by last change (labels_org_updated_idx). */
  override list(p: Principal, page: V1PageRequest, updatedSince?: Date): Promise<{ rows: Label[]; count: number }> {
    return namedPage(this.repo, p.organizationId, page, updatedSince);
  }

  async create(p: Principal, name: string): Promise<Label> {
    await this.assertFree(p, name);
    try {
      return await this.repo.save(this.repo.create({ organizationId: p.organizationId, name }));
    } catch (err) {
      if (isUniqueViolation(err, 'labels_org_name_uq')) throw duplicate();
      throw err;
    }
  }

  async update(p: Principal, id: string, name: string | undefined): Promise<Label> {
    const row = await this.get(p, id);
    if (name === undefined || name === row.name) return row;
    await this.assertFree(p, name, row.id);
    row.name = name;
    try {
      // by id AND organization (the organization-scoping audit): TypeORM's save() would update by id alone
      const r = await this.repo.createQueryBuilder().update().set({ name }).where({ id: row.id, organizationId: p.organizationId }).returning(['updated_at']).execute();
      if (r.raw?.[0]?.updated_at) row.updatedAt = r.raw[0].updated_at;
      return row;
    } catch (err) {
      if (isUniqueViolation(err, 'labels_org_name_uq')) throw duplicate();
      throw err;
    }
  }

  /** Removes the label and its course associations. */
  async delete(p: Principal, id: string): Promise<void> {
    const row = await this.get(p, id);
    await this.repo.delete({ id: row.id, organizationId: p.organizationId });
  }

  /**
   * The ids of the labels named `names` (case-insensitive), creating the missing ones, in one
   * statement each way. Used by the course `labels` member.
   */
  async resolveNames(m: EntityManager, organizationId: string, names: string[]): Promise<string[]> {
    const byKey = new Map<string, string>();
    for (const n of names) if (!byKey.has(n.toLowerCase())) byKey.set(n.toLowerCase(), n);
    const distinct = [...byKey.values()];
    if (!distinct.length) return [];
    const db = scoped(m, organizationId);
    await db.query(
      `INSERT INTO labels (organization_id, name) SELECT $org, n FROM unnest($1::text[]) AS n
       ON CONFLICT (organization_id, lower(name)) DO NOTHING`,
      [distinct],
    );
    const rows = await db.query<{ id: string }[]>(`SELECT id FROM labels WHERE organization_id = $org AND lower(name) = ANY($1::text[])`, [distinct.map((n) => n.toLowerCase())]);
    return rows.map((r) => r.id);
  }

  private async assertFree(p: Principal, name: string, exceptId?: string) {
    const qb = this.repo.createQueryBuilder('l').where('l.organization_id = :org AND lower(l.name) = lower(:name)', { org: p.organizationId, name });
    if (exceptId) qb.andWhere('l.id <> :id', { id: exceptId });
    if (await qb.getExists()) throw duplicate();
  }
}
