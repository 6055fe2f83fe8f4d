import { Injectable } from '@nestjs/common';
import { assignBySignupFields } from '../groups/auto-assignment';
import { InjectDataSource } from '@nestjs/typeorm';
import { Type, type Static } from '@sinclair/typebox';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import { declaredV2, ToOne, V2UnlinkedRelatedResourceSchema } from '../../core/openapi/declared-shape';
import { SignupFieldValueItemV2 } from './dto/signup-field-value.v2.dto';
import { FieldRow, SignupFieldsService } from './signup-fields.service';

/** One captured value as /v2 reads it (signup_field_values joined with its field's label). */
export interface SignupFieldValueV2Row {
  id: string;
  user_id: string;
  signup_field_id: string;
  label: string;
  value: string;
  created_at: Date;
  updated_at: Date;
}

export interface SignupFieldValueFiltersV2 {
  userUuid?: string;
  fieldUuid?: string;
  /** lowercase domain names */
  domains?: string[];
  /**
   * filter[updated_since]: changed at or after, ordered by last change (updated_at, id) with the cursor
   * there, on the `signup_field_values_org[_user|_field]_updated_idx` of the filters given
   */
  updatedSince?: Date;
}

/** SignupFieldValueResource of the published /v2 document, declared once (core/openapi/declared-shape.ts): the type of presentSignupFieldValueV2's result. */
export const SignupFieldValueResourceSchema = declaredV2(
  'SignupFieldValueResource',
  V2UnlinkedRelatedResourceSchema(
    'signup-field-values',
    Type.Object({ label: Type.String({ description: "The signup field's label." }), value: Type.String({ description: "The student's answer." }) }),
    Type.Object({ student: ToOne('students'), 'signup-field': ToOne('signup-fields') }),
    { description: "A student's answer to a signup field (SignupFieldValueResource)." },
  ),
);
export type SignupFieldValueResource = Static<typeof SignupFieldValueResourceSchema>;

/** SignupFieldValueResource. */
export function presentSignupFieldValueV2(r: SignupFieldValueV2Row): SignupFieldValueResource {
  return {
    type: 'signup-field-values',
    id: encodeId('signupFieldValue', r.id),
    attributes: { label: r.label, value: r.value },
    relationships: {
      student: { data: { type: 'students', id: encodeId('student', r.user_id) } },
      'signup-field': { data: { type: 'signup-fields', id: encodeId('signupField', r.signup_field_id) } },
    },
  };
}

const SELECT = `SELECT v.id, v.user_id, v.signup_field_id, sf.label, v.value, v.created_at, v.updated_at
  FROM signup_field_values v JOIN signup_fields sf ON sf.id = v.signup_field_id AND sf.organization_id = v.organization_id`;

/** A field applies to a user when it is organization-wide or on a domain the user is a member of. */
const APPLIES_TO_USER = (f: string, user: string) =>
  `(${f}.domain_id IS NULL OR EXISTS (SELECT 1 FROM domain_users du WHERE du.organization_id = ${f}.organization_id AND du.user_id = ${user} AND du.domain_id = ${f}.domain_id))`;

/**
 * /v2 signup-field values over SignupFieldsService (its value rule checkValue and its upsert, as
 * /v1 uses them): create keys items by SIGNUP FIELD id for one student (top-level student_id),
 * update keys them by VALUE id, read takes the value id (docs/decisions/v2-rest.md).
 */
@Injectable()
export class SignupFieldValuesV2Service {
  constructor(
    private readonly fields: SignupFieldsService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async list(p: Principal, page: PageRequest, f: SignupFieldValueFiltersV2): Promise<(SignupFieldValueV2Row & { createdAt: Date })[]> {
    const params: unknown[] = [];
    const where = ['v.organization_id = $org'];
    if (f.userUuid !== undefined) where.push(`v.user_id = $${params.push(f.userUuid)}::uuid`);
    if (f.fieldUuid !== undefined) where.push(`v.signup_field_id = $${params.push(f.fieldUuid)}::uuid`);
    if (f.domains !== undefined) {
      const n = params.push(f.domains);
      // the field is on one of the named domains, or organization-wide and the student is a member of one of them
      where.push(`EXISTS (SELECT 1 FROM domains d WHERE d.organization_id = $org AND lower(d.name) = ANY($${n}::text[])
        AND (sf.domain_id = d.id OR (sf.domain_id IS NULL AND EXISTS (SELECT 1 FROM domain_users du WHERE du.organization_id = $org AND du.domain_id = d.id AND du.user_id = v.user_id))))`);
    }
    const at = f.updatedSince ? 'v.updated_at' : 'v.created_at';
    if (f.updatedSince) where.push(`v.updated_at >= $${params.push(f.updatedSince)}::timestamptz`);
    if (page.after) where.push(`(${at}, v.id) > ($${params.push(page.after.t)}::timestamptz, $${params.push(page.after.id)}::uuid)`);
    const rows: SignupFieldValueV2Row[] = await scoped(this.ds, p.organizationId).query(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY ${at}, v.id LIMIT ${page.size + 1}`, params);
    return rows.map((r) => Object.assign(r, { createdAt: new Date(r.created_at) }));
  }

  async get(p: Principal, publicId: string): Promise<SignupFieldValueV2Row> {
    const uuid = decodeId('signupFieldValue', publicId);
    const [row] = uuid ? await this.rows(p.organizationId, 'v.id = ANY($1::uuid[])', [[uuid]]) : [];
    if (!row) throw notFound('Signup field value not found.');
    return row;
  }

  private rows(org: string, cond: string, params: unknown[]): Promise<SignupFieldValueV2Row[]> {
    return scoped(this.ds, org).query(`${SELECT} WHERE v.organization_id = $org AND ${cond}`, params);
  }

  /** The student of a create request: a user of the organization with at least one domain membership, else 404 (the whole request). */
  async student(p: Principal, publicId: unknown): Promise<string> {
    const uuid = decodeId('student', publicId);
    const [row] = uuid
      ? await scoped(this.ds, p.organizationId).query<{ id: string }[]>(
          `SELECT u.id FROM users u WHERE u.organization_id = $org AND u.id = $1
              AND EXISTS (SELECT 1 FROM domain_users du WHERE du.organization_id = $org AND du.user_id = u.id)`,
          [uuid],
        )
      : [];
    if (!row) throw notFound('Student not found, or not a member of any domain of this organization.');
    return row.id;
  }

  /** The value's validation_error when the field's rule refuses it (SignupFieldsService.checkValue). */
  /** Each item's field (by the item's decoded id, `uuids`) and value: not_found without a field, the field's refusal of the value, or accepted. */
  private accept<F extends FieldRow>(
    items: ValidItem<SignupFieldValueItemV2>[],
    uuids: (string | null)[],
    byId: Map<string, F>,
    notFound: string,
    out: Map<number, ItemOutcome<SignupFieldValueResource>>,
  ) {
    const accepted: { index: number; field: F; value: string }[] = [];
    items.forEach((v, i) => {
      const field = uuids[i] ? byId.get(uuids[i]!) : undefined;
      if (!field) return void out.set(v.index, { ok: false, code: 'not_found', detail: notFound, pointer: '/id' });
      const refused = this.refusal(field, v.item.attributes.value);
      if (refused) return void out.set(v.index, refused);
      accepted.push({ index: v.index, field, value: v.item.attributes.value });
    });
    return accepted;
  }

  private refusal(field: FieldRow, value: string): ItemOutcome<never> | null {
    try {
      this.fields.checkValue(field, value, 'value');
      return null;
    } catch (e) {
      if (!(e instanceof ValidationFailed)) throw e;
      return { ok: false, code: 'validation_error', detail: `value: ${e.problems[0]?.message ?? e.detail}`, pointer: '/attributes/value' };
    }
  }

  /** Create (upsert) the student's values, items keyed by signup-field id: a field of another organization or not applying to the student's domains is not_found. */
  async createMany(p: Principal, userId: string, items: ValidItem<SignupFieldValueItemV2>[]): Promise<Map<number, ItemOutcome<SignupFieldValueResource>>> {
    const out = new Map<number, ItemOutcome<SignupFieldValueResource>>();
    const uuids = items.map((v) => decodeId('signupField', v.item.id));
    const known = [...new Set(uuids.filter((u): u is string => !!u))];
    const fields: FieldRow[] = known.length
      ? await scoped(this.ds, p.organizationId).query(
          `SELECT sf.id, sf.type, sf.label, sf.options FROM signup_fields sf WHERE sf.organization_id = $org AND sf.id = ANY($1::uuid[]) AND ${APPLIES_TO_USER('sf', '$2::uuid')}`,
          [known, userId],
        )
      : [];
    const accepted = this.accept(items, uuids, new Map(fields.map((f) => [f.id, f])), 'Signup field not found.', out);
    if (!accepted.length) return out;
    await this.fields.upsert(p, userId, accepted);
    const rows = await this.rows(p.organizationId, 'v.user_id = $1 AND v.signup_field_id = ANY($2::uuid[])', [userId, accepted.map((a) => a.field.id)]);
    const byField = new Map(rows.map((r) => [r.signup_field_id, presentSignupFieldValueV2(r)]));
    for (const a of accepted) {
      const res = byField.get(a.field.id);
      if (res) out.set(a.index, { ok: true, id: res.id, result: res });
    }
    return out;
  }

  /** Update values by value id (one UPDATE ... FROM VALUES); unknown, malformed or foreign ids are not_found. */
  async updateMany(p: Principal, items: ValidItem<SignupFieldValueItemV2>[]): Promise<Map<number, ItemOutcome<SignupFieldValueResource>>> {
    const out = new Map<number, ItemOutcome<SignupFieldValueResource>>();
    const uuids = items.map((v) => decodeId('signupFieldValue', v.item.id));
    const known = [...new Set(uuids.filter((u): u is string => !!u))];
    const current: (FieldRow & { value_id: string })[] = known.length
      ? await scoped(this.ds, p.organizationId).query(
          `SELECT v.id AS value_id, sf.id, sf.type, sf.label, sf.options FROM signup_field_values v
             JOIN signup_fields sf ON sf.id = v.signup_field_id AND sf.organization_id = v.organization_id
            WHERE v.organization_id = $org AND v.id = ANY($1::uuid[])`,
          [known],
        )
      : [];
    const accepted = this.accept(items, uuids, new Map(current.map((c) => [c.value_id, c])), 'Signup field value not found.', out).map((a) => ({
      index: a.index,
      id: a.field.value_id,
      value: a.value,
    }));
    if (!accepted.length) return out;
    const params: unknown[] = [];
    const tuples = accepted.map((a) => `($${params.push(a.id)}::uuid, $${params.push(a.value)}::text)`);
    // the values and the groups whose enforced sign-up-field rule their students now match (groups/auto-assignment), in one transaction
    const result = await this.ds.transaction(async (m) => {
      const written = await scoped(m, p.organizationId).query<unknown>(
        `UPDATE signup_field_values AS s SET value = v.value, updated_at = date_trunc('milliseconds', now())
           FROM (VALUES ${tuples.join(', ')}) AS v(id, value)
          WHERE s.id = v.id AND s.organization_id = $org RETURNING s.id, s.user_id`,
        params,
      );
      await assignBySignupFields(m, p.organizationId, [...new Set(rowsOf<{ user_id: string }>(written).map((r) => r.user_id))]);
      return written;
    });
    const updated = rowsOf<{ id: string }>(result).map((r) => r.id);
    const rows = await this.rows(p.organizationId, 'v.id = ANY($1::uuid[])', [updated]);
    const byId = new Map(rows.map((r) => [r.id, presentSignupFieldValueV2(r)]));
    for (const a of accepted) {
      const res = byId.get(a.id);
      out.set(a.index, res ? { ok: true, id: res.id, result: res } : { ok: false, code: 'not_found', detail: 'Signup field value not found.', pointer: '/id' });
    }
    return out;
  }
}
