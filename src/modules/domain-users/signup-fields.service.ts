import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { DomainUsersService, FIELD_APPLIES, SignupValue } from './domain-users.service';
import { assignBySignupFields } from '../groups/auto-assignment';
import { scoped } from '../../core/database/scoped';
import type { SignupFieldRow } from './signup-fields.store';
import type { SignupFieldV1 } from './domain-users.shape';

const fieldError = (field: string, message: string) => new ValidationFailed([{ field, message }], 400);

export interface FieldRow {
  id: string;
  type: string;
  label: string;
  options: { id?: string; value: string }[];
}

/** The published SignupField (SignupFieldSchema) of a row (`options` from its jsonb array of `{id, value}`). */
export function presentSignupField(
  r: Pick<SignupFieldRow, 'id' | 'type' | 'label' | 'help_text' | 'regex_validator' | 'regex_validator_error_text' | 'required' | 'active' | 'order' | 'options'>,
): SignupFieldV1 {
  return {
    id: encodeId('signupField', r.id),
    type: r.type as SignupFieldV1['type'],
    label: r.label,
    help_text: r.help_text,
    regex_validator: r.regex_validator,
    regex_validator_error_text: r.regex_validator_error_text,
    required: r.required,
    active: r.active,
    order: r.order,
    options: (Array.isArray(r.options) ? r.options : []).map((o: any) => ({ id: String(o.id ?? ''), value: String(o.value ?? '') })),
  };
}

/**
 * Signup fields (defined by the organization, for all its domains when domain_id is null or for
 * one domain) and each user's values for them. Values are per user and field (one row,
 * upserted); the API reaches them through a domain the user is a member of.
 */
@Injectable()
export class SignupFieldsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly domainUsers: DomainUsersService,
  ) {}

  /**
   * The fields that apply to the domain (its own and the organization-wide ones), in their order. With
   * `updatedSince` (/v1 `updated_since`), the ones changed at or after it, by last change, on
   * signup_fields_org_updated_idx.
   */
  async listFields(p: Principal, domain: Domain, page: V1PageRequest, updatedSince?: Date) {
    const db = scoped(this.ds, p.organizationId);
    const params: unknown[] = [domain.id];
    let where = `organization_id = $org AND ${FIELD_APPLIES('signup_fields', '$1')}`;
    if (updatedSince) where += ` AND updated_at >= $${params.push(updatedSince)}`;
    const order = updatedSince ? 'updated_at, id' : '"order", created_at, id';
    const [c] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM signup_fields WHERE ${where}`, params);
    const rows = await db.query<SignupFieldRow[]>(`SELECT * FROM signup_fields WHERE ${where} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    return { rows: rows.map(presentSignupField), count: c.n };
  }

  /**
   * A member's values of the fields that apply to the domain, in the fields' order. With
   * `updatedSince` (/v1 `updated_since`), the values changed at or after it, by last change, on
   * signup_field_values_org_user_updated_idx (a change of the field's label shows on the fields' list).
   */
  async listValues(p: Principal, domain: Domain, userPublicId: string, page: V1PageRequest, updatedSince?: Date): Promise<{ rows: SignupValue[]; count: number }> {
    const du = await this.domainUsers.get(p, domain, userPublicId);
    const db = scoped(this.ds, p.organizationId);
    const params: unknown[] = [du.user_id, domain.id];
    const since = updatedSince ? ` AND v.updated_at >= $${params.push(updatedSince)}` : '';
    const from = `signup_field_values v JOIN signup_fields sf ON sf.id = v.signup_field_id
      WHERE v.user_id = $1 AND v.organization_id = $org AND sf.organization_id = $org AND ${FIELD_APPLIES('sf', '$2')}${since}`;
    const order = updatedSince ? 'v.updated_at, v.id' : 'sf."order", sf.created_at, sf.id';
    const [c] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${from}`, params);
    const rows = await db.query<SignupValue[]>(`SELECT v.user_id, sf.id AS field_id, sf.label, v.value FROM ${from} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    return { rows, count: c.n };
  }

  async getValue(p: Principal, domain: Domain, userPublicId: string, fieldPublicId: string): Promise<SignupValue> {
    const du = await this.domainUsers.get(p, domain, userPublicId);
    const fieldId = decodeId('signupField', fieldPublicId);
    if (!fieldId) throw notFound();
    const [row] = await scoped(this.ds, p.organizationId).query<SignupValue[]>(
      `SELECT v.user_id, sf.id AS field_id, sf.label, v.value FROM signup_field_values v JOIN signup_fields sf ON sf.id = v.signup_field_id
       WHERE v.user_id = $1 AND sf.id = $2 AND v.organization_id = $org AND sf.organization_id = $org AND ${FIELD_APPLIES('sf', '$3')}`,
      [du.user_id, fieldId, domain.id],
    );
    if (!row) throw notFound();
    return row;
  }

  /** The fields named by public ids that apply to the domain; an unknown one is a 400 on `field`. */
  private async resolveFields(p: Principal, domain: Domain, publicIds: string[], field: string): Promise<Map<string, FieldRow>> {
    const uuids = publicIds.map((id) => decodeId('signupField', id));
    const known = uuids.filter((u): u is string => !!u);
    const rows: FieldRow[] = known.length
      ? await scoped(this.ds, p.organizationId).query(
          `SELECT id, type, label, options FROM signup_fields WHERE id = ANY($1::uuid[]) AND organization_id = $org AND ${FIELD_APPLIES('signup_fields', '$2')}`,
          [known, domain.id],
        )
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out = new Map<string, FieldRow>();
    publicIds.forEach((pub, i) => {
      const row = uuids[i] ? byId.get(uuids[i]!) : undefined;
      if (!row) throw fieldError(field, `Invalid signup field id "${pub}" - object does not exist.`);
      out.set(pub, row);
    });
    return out;
  }

  /** The value rule of a field (a PICKLIST value must be one of its options): throws a 400 on `field`. Both interfaces. */
  checkValue(f: FieldRow, value: string, field: string) {
    if (f.type === 'PICKLIST' && Array.isArray(f.options) && f.options.length && !f.options.some((o) => o.value === value)) {
      throw fieldError(field, `"${value}" is not a valid choice for "${f.label}".`);
    }
  }

  /**
   * Insert or update values (one statement; both interfaces), then the groups whose enforced
   * sign-up-field rule the user now matches take them in (groups/auto-assignment), in one
   * transaction; returns only the rows that were new or changed.
   */
  async upsert(p: Principal, userId: string, items: { field: FieldRow; value: string }[]): Promise<SignupValue[]> {
    if (!items.length) return [];
    const rows: { signup_field_id: string; value: string }[] = await this.ds.transaction(async (m) => {
      const written = await scoped(m, p.organizationId).query<{ signup_field_id: string; value: string }[]>(
        `INSERT INTO signup_field_values (organization_id, user_id, signup_field_id, value)
         SELECT $org, $1, f, v FROM unnest($2::uuid[], $3::text[]) AS x(f, v)
         ON CONFLICT (user_id, signup_field_id) DO UPDATE SET value = EXCLUDED.value, updated_at = date_trunc('milliseconds', now())
           WHERE signup_field_values.value IS DISTINCT FROM EXCLUDED.value
         RETURNING signup_field_id, value`,
        [userId, items.map((i) => i.field.id), items.map((i) => i.value)],
      );
      await assignBySignupFields(m, p.organizationId, [userId]);
      return written;
    });
    const labels = new Map(items.map((i) => [i.field.id, i.field.label]));
    return rows.map((r) => ({ user_id: userId, field_id: r.signup_field_id, label: labels.get(r.signup_field_id) ?? '', value: r.value }));
  }

  /** POST users/{user_id}/signup-fields: creates or updates one value; answers the value. */
  async setValue(p: Principal, domain: Domain, userPublicId: string, fieldPublicId: string, value: string): Promise<SignupValue> {
    const du = await this.domainUsers.get(p, domain, userPublicId);
    const fields = await this.resolveFields(p, domain, [fieldPublicId], 'signup_field');
    const field = fields.get(fieldPublicId)!;
    this.checkValue(field, value, 'value');
    await this.upsert(p, du.user_id, [{ field, value }]);
    return { user_id: du.user_id, field_id: field.id, label: field.label, value };
  }

  /** POST users/{user_id}/signup-fields-bulk: the values that were new or changed. */
  async bulk(p: Principal, domain: Domain, userPublicId: string, items: { id: string; value: string }[]): Promise<SignupValue[]> {
    const du = await this.domainUsers.get(p, domain, userPublicId);
    const seen = new Set<string>();
    for (const it of items) {
      if (seen.has(it.id)) throw fieldError('signup_fields', `Signup field "${it.id}" appears more than once.`);
      seen.add(it.id);
    }
    const fields = await this.resolveFields(
      p,
      domain,
      items.map((i) => i.id),
      'signup_fields',
    );
    const resolved = items.map((i) => {
      const field = fields.get(i.id)!;
      this.checkValue(field, i.value, 'signup_fields');
      return { field, value: i.value };
    });
    return this.upsert(p, du.user_id, resolved);
  }
}
