import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { fieldError, invalidPk, parseTimestamp } from '../../core/http/v1-rules';
import { decodeId, IdType } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { isUniqueViolation, rowsOf } from '../../core/database/sql';
import type { AddRemove, TrainingCreditCodeCreateDto, TrainingCreditCodePatchDto } from './dto/training-credits.dto';
import { OrgWhere, sqlRowOr404, v1SqlPage } from '../../core/pagination/v1-sql-page';
import { scoped } from '../../core/database/scoped';
import type { CreditCodeRow } from './training-credit-codes.store';

export type { CreditCodeRow } from './training-credit-codes.store';

export interface CreditCodeView extends CreditCodeRow {
  /** on read, create and update (not in lists) */
  group_ids?: string[];
  offer_ids?: string[];
  /** on update: the links the request added and removed (uuids), answered as the published `{add, remove}` */
  applied?: Record<LinkName, { add: string[]; remove: string[] }>;
}

const COLS = `id, code, credits_total, credits_used, expiration_date, expire_content, tracking_identifier, available_to_all_students, available_for_all_offers`;
const CODE_TAKEN = 'A training credit code with this code already exists.';

/** The two link tables of a code: its student groups and its offers. */
const LINKS = {
  student_groups: { table: 'training_credit_code_groups', column: 'group_id', parent: 'groups', idType: 'group' as IdType, extra: '' },
  offers: { table: 'training_credit_code_offers', column: 'offer_id', parent: 'offers', idType: 'offer' as IdType, extra: '' },
} as const;
type LinkName = keyof typeof LINKS;

/**
 * Training credit codes (/v1/training-credit-codes; docs/decisions/commerce-limits.md): a balance
 * of `credits_total` credits (one credit pays one unit of the offer's currency) spent at checkout
 * (checkout-limits.ts) by the students of its groups on its offers, unless available to all.
 */
@Injectable()
export class TrainingCreditsService {
  constructor(private readonly ds: DataSource) {}

  private code(m: EntityManager, p: Principal, id: string, lock = false): Promise<CreditCodeRow> {
    return sqlRowOr404(m, COLS, 'training_credit_codes', 'trainingCreditCode', p.organizationId, id, lock);
  }

  private async view(m: EntityManager, p: Principal, row: CreditCodeRow): Promise<CreditCodeView> {
    const [links] = await scoped(m, p.organizationId).query<{ group_ids: string[]; offer_ids: string[] }[]>(
      `SELECT ARRAY(SELECT group_id FROM training_credit_code_groups WHERE organization_id = $org AND code_id = $1 ORDER BY created_at, group_id) AS group_ids,
              ARRAY(SELECT offer_id FROM training_credit_code_offers WHERE organization_id = $org AND code_id = $1 ORDER BY created_at, offer_id) AS offer_ids`,
      [row.id],
    );
    return { ...row, group_ids: links.group_ids, offer_ids: links.offer_ids };
  }

  /** The uuids of these public ids, every one an object of the organization, else a 400 naming the first unknown one. */
  private async resolve(m: EntityManager, p: Principal, link: LinkName, ids: string[]): Promise<string[]> {
    const l = LINKS[link];
    const uuids = [...new Set(ids.map((id) => decodeId(l.idType, id)).filter((x): x is string => !!x))];
    const found: { id: string }[] = uuids.length ? await scoped(m, p.organizationId).query(`SELECT id FROM ${l.parent} WHERE organization_id = $org AND id = ANY($1::uuid[])${l.extra}`, [uuids]) : [];
    const known = new Set(found.map((r) => r.id));
    const missing = ids.find((id) => !known.has(decodeId(l.idType, id) ?? ''));
    if (missing !== undefined) throw invalidPk(link, missing);
    return uuids;
  }

  private async addLinks(m: EntityManager, p: Principal, link: LinkName, codeId: string, uuids: string[]) {
    if (!uuids.length) return;
    const l = LINKS[link];
    await scoped(m, p.organizationId).query(
      `INSERT INTO ${l.table} (organization_id, code_id, ${l.column}, created_at)
       SELECT $org, $1, x, now() + n * interval '1 microsecond' FROM unnest($2::uuid[]) WITH ORDINALITY AS t(x, n) ON CONFLICT DO NOTHING`,
      [codeId, uuids],
    );
  }

  private async linkCount(m: EntityManager, p: Principal, link: LinkName, codeId: string): Promise<number> {
    const [{ n }] = await scoped(m, p.organizationId).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${LINKS[link].table} WHERE organization_id = $org AND code_id = $1`, [codeId]);
    return n;
  }

  async list(p: Principal, page: V1PageRequest, filters: { trackingIdentifier?: string; code?: string }): Promise<{ rows: CreditCodeRow[]; count: number }> {
    const where = new OrgWhere(p.organizationId).equals('tracking_identifier', filters.trackingIdentifier).equals('code', filters.code);
    return v1SqlPage(this.ds, COLS, 'training_credit_codes', where, page);
  }

  async read(p: Principal, id: string): Promise<CreditCodeView> {
    const m = this.ds.manager;
    return this.view(m, p, await this.code(m, p, id));
  }

  /**
   * `student_groups` is required (non-empty) when `available_to_all_students` is false, `offers`
   * when `available_for_all_offers` is false. Each flag defaults to true unless its list is sent.
   */
  async create(p: Principal, dto: TrainingCreditCodeCreateDto): Promise<CreditCodeView> {
    const expiration = parseTimestamp('expiration_date', dto.expiration_date, true);
    const allStudents = dto.available_to_all_students ?? dto.student_groups === undefined;
    const allOffers = dto.available_for_all_offers ?? dto.offers === undefined;
    if (!allStudents && !dto.student_groups?.length) throw fieldError('student_groups', 'This field is required when available_to_all_students is false.');
    if (!allOffers && !dto.offers?.length) throw fieldError('offers', 'This field is required when available_for_all_offers is false.');
    try {
      return await this.ds.transaction(async (m) => {
        const groups = await this.resolve(m, p, 'student_groups', dto.student_groups ?? []);
        const offers = await this.resolve(m, p, 'offers', dto.offers ?? []);
        const [row]: CreditCodeRow[] = await scoped(m, p.organizationId).query(
          `INSERT INTO training_credit_codes (organization_id, code, credits_total, expiration_date, expire_content, tracking_identifier, available_to_all_students, available_for_all_offers)
           VALUES ($org, $1, $2, $3, $4, $5, $6, $7) RETURNING ${COLS}`,
          [dto.training_credit_code, dto.credits_total, expiration ?? null, dto.expire_content ?? false, dto.tracking_identifier ?? '', allStudents, allOffers],
        );
        await this.addLinks(m, p, 'student_groups', row.id, groups);
        await this.addLinks(m, p, 'offers', row.id, offers);
        return this.view(m, p, row);
      });
    } catch (e) {
      if (isUniqueViolation(e, 'training_credit_codes_org_code_uq')) throw fieldError('training_credit_code', CODE_TAKEN);
      throw e;
    }
  }

  /** Adds first, then removes, for each link; `credits_total` never below the credits already used (checked under the code's row lock). */
  private async applyLinks(m: EntityManager, p: Principal, link: LinkName, codeId: string, change: AddRemove | undefined): Promise<{ add: string[]; remove: string[] }> {
    if (!change) return { add: [], remove: [] };
    const add = await this.resolve(m, p, link, change.add ?? []);
    await this.addLinks(m, p, link, codeId, add);
    const l = LINKS[link];
    const remove = (change.remove ?? []).map((id) => decodeId(l.idType, id)).filter((x): x is string => !!x);
    if (remove.length) await scoped(m, p.organizationId).query(`DELETE FROM ${l.table} WHERE organization_id = $org AND code_id = $1 AND ${l.column} = ANY($2::uuid[])`, [codeId, remove]);
    return { add, remove };
  }

  async update(p: Principal, id: string, dto: TrainingCreditCodePatchDto): Promise<CreditCodeView> {
    const expiration = parseTimestamp('expiration_date', dto.expiration_date, true);
    return this.ds.transaction(async (m) => {
      const code = await this.code(m, p, id, true);
      if (dto.credits_total !== undefined && dto.credits_total < code.credits_used) {
        throw fieldError('credits_total', `Ensure this value is greater than or equal to the ${code.credits_used} credits already used.`);
      }
      const applied = {
        student_groups: await this.applyLinks(m, p, 'student_groups', code.id, dto.student_groups),
        offers: await this.applyLinks(m, p, 'offers', code.id, dto.offers),
      };
      const [row]: CreditCodeRow[] = rowsOf(
        await scoped(m, p.organizationId).query<unknown>(
          `UPDATE training_credit_codes SET
             credits_total = COALESCE($2, credits_total),
             expiration_date = CASE WHEN $3 THEN $4::timestamptz ELSE expiration_date END,
             expire_content = COALESCE($5, expire_content), tracking_identifier = COALESCE($6, tracking_identifier),
             available_to_all_students = COALESCE($7, available_to_all_students), available_for_all_offers = COALESCE($8, available_for_all_offers),
             updated_at = now()
           WHERE organization_id = $org AND id = $1 RETURNING ${COLS}`,
          [
            code.id,
            dto.credits_total ?? null,
            expiration !== undefined,
            expiration ?? null,
            dto.expire_content ?? null,
            dto.tracking_identifier ?? null,
            dto.available_to_all_students ?? null,
            dto.available_for_all_offers ?? null,
          ],
        ),
      );
      // the required-when rules hold on the result (the transaction rolls everything back otherwise)
      if (!row.available_to_all_students && !(await this.linkCount(m, p, 'student_groups', row.id))) {
        throw fieldError('student_groups', 'At least one student group is required when available_to_all_students is false.');
      }
      if (!row.available_for_all_offers && !(await this.linkCount(m, p, 'offers', row.id))) {
        throw fieldError('offers', 'At least one offer is required when available_for_all_offers is false.');
      }
      return { ...(await this.view(m, p, row)), applied };
    });
  }
}
