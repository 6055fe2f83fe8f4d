import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../../core/database/sql';
import type { Principal } from '../../core/auth/principal';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import { DomainsService } from '../domains/domains.service';
import type { SignupFieldCreateDto, SignupFieldPatchDto } from './dto/signup-field.dto';
import { presentSignupField } from './signup-fields.service';
import { scoped } from '../../core/database/scoped';
import type { SignupFieldRow } from './signup-fields.store';

const fieldError = (field: string, message: string) => new ValidationFailed([{ field, message }], 400);

/** A new option id: `sfo` and 22 random base-36 characters (lowercase letters and digits, unguessable). */
const newOptionId = () =>
  'sfo' +
  BigInt('0x' + randomBytes(14).toString('hex'))
    .toString(36)
    .padStart(22, '0')
    .slice(-22);

interface Option {
  id: string;
  value: string;
}

/**
 * Signup fields of a domain written by an administrator (CONVENTIONS §15; the API's POST, PUT,
 * PATCH, DELETE /v1/domains/{domain_name}/signup-fields and the CLI's create-signup-field). This
 * module owns signup_fields. Only the domain's own fields are written here (organization-wide
 * fields, domain_id NULL, are listed under every domain but changed by none of them).
 *
 * Options: only a PICKLIST has them, and it needs at least one; values are unique within the field.
 * An option keeps its id when it is sent with that id or with the value of an existing option, so
 * group sign-up-field rules that name it keep working; other options get a new id.
 */
@Injectable()
export class SignupFieldAdminService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly domains: DomainsService,
  ) {}

  private async field(m: EntityManager, p: Principal, domainId: string, publicId: string, lock = false): Promise<any> {
    const uuid = decodeId('signupField', publicId);
    if (!uuid) throw notFound();
    const [row] = await scoped(m, p.organizationId).query<SignupFieldRow[]>(`SELECT * FROM signup_fields WHERE id = $1 AND domain_id = $2 AND organization_id = $org${lock ? ' FOR UPDATE' : ''}`, [
      uuid,
      domainId,
    ]);
    if (!row) throw notFound();
    return row;
  }

  /** The options to store for `type`, from the sent ones (or the current ones when none are sent). */
  private options(type: string, sent: { id?: string; value: string }[] | undefined, current: Option[]): Option[] {
    if (type !== 'PICKLIST') {
      if (sent && sent.length) throw fieldError('options', `Only PICKLIST fields have options (this field is ${type}).`);
      return [];
    }
    if (sent === undefined) {
      if (!current.length) throw fieldError('options', 'A PICKLIST field needs at least one option.');
      return current;
    }
    if (!sent.length) throw fieldError('options', 'A PICKLIST field needs at least one option.');
    const byId = new Map(current.map((o) => [o.id, o]));
    const byValue = new Map(current.map((o) => [o.value, o]));
    const seen = new Set<string>();
    const usedIds = new Set<string>();
    return sent.map((o, i) => {
      if (seen.has(o.value)) throw fieldError('options', `Option ${i + 1}: the value "${o.value}" appears more than once.`);
      seen.add(o.value);
      let id: string;
      if (o.id !== undefined) {
        if (!byId.has(o.id)) throw fieldError('options', `Option ${i + 1}: invalid option id "${o.id}" - it is not an option of this field.`);
        id = o.id;
      } else {
        id = byValue.get(o.value)?.id ?? newOptionId();
      }
      if (usedIds.has(id)) throw fieldError('options', `Option ${i + 1}: the option id "${id}" appears more than once.`);
      usedIds.add(id);
      return { id, value: o.value };
    });
  }

  private checkRegex(pattern: string | undefined) {
    if (!pattern) return;
    try {
      new RegExp(pattern);
    } catch {
      throw fieldError('regex_validator', 'Enter a valid regular expression.');
    }
  }

  /** POST: a new field of the domain; answers the published SignupField. */
  async create(p: Principal, domainName: string, dto: SignupFieldCreateDto) {
    const domain = await this.domains.requireByName(p, domainName);
    const type = dto.type ?? 'TEXT';
    const options = this.options(type, dto.options, []);
    this.checkRegex(dto.regex_validator);
    const [row] = await scoped(this.ds, p.organizationId).query<SignupFieldRow[]>(
      `INSERT INTO signup_fields (organization_id, domain_id, type, label, help_text, regex_validator, regex_validator_error_text, required, active, "order", options)
       VALUES ($org, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb) RETURNING *`,
      [
        domain.id,
        type,
        dto.label,
        dto.help_text ?? '',
        dto.regex_validator ?? '',
        dto.regex_validator_error_text ?? '',
        dto.required ?? false,
        dto.active ?? true,
        dto.order ?? 0,
        JSON.stringify(options),
      ],
    );
    return presentSignupField(row);
  }

  /** PUT (label required) and PATCH: the members sent change; `options` replaces the options. */
  async update(p: Principal, domainName: string, publicId: string, dto: SignupFieldPatchDto) {
    const domain = await this.domains.requireByName(p, domainName);
    return this.ds.transaction(async (m) => {
      const cur = await this.field(m, p, domain.id, publicId, true);
      const type = dto.type ?? cur.type;
      const options = this.options(type, dto.options, Array.isArray(cur.options) ? cur.options : []);
      this.checkRegex(dto.regex_validator);
      const [row] = rowsOf<SignupFieldRow>(
        await scoped(m, p.organizationId).query<unknown>(
          `UPDATE signup_fields SET type = $2, label = $3, help_text = $4, regex_validator = $5, regex_validator_error_text = $6,
                required = $7, active = $8, "order" = $9, options = $10::jsonb, updated_at = date_trunc('milliseconds', now())
          WHERE id = $1 AND organization_id = $org RETURNING *`,
          [
            cur.id,
            type,
            dto.label ?? cur.label,
            dto.help_text ?? cur.help_text,
            dto.regex_validator ?? cur.regex_validator,
            dto.regex_validator_error_text ?? cur.regex_validator_error_text,
            dto.required ?? cur.required,
            dto.active ?? cur.active,
            dto.order ?? cur.order,
            JSON.stringify(options),
          ],
        ),
      );
      return presentSignupField(row);
    });
  }

  /** DELETE: the field and the users' values for it (cascade). Group rules naming its options stop matching them. */
  async remove(p: Principal, domainName: string, publicId: string): Promise<void> {
    const domain = await this.domains.requireByName(p, domainName);
    const cur = await this.field(this.ds.manager, p, domain.id, publicId);
    await scoped(this.ds, p.organizationId).query(`DELETE FROM signup_fields WHERE id = $1 AND organization_id = $org`, [cur.id]);
  }
}
