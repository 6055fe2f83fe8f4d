import { scoped, SqlRunner } from '../../core/database/scoped';

/**
 * Automatic group assignment (the published Group's `rule_email_domains` and `sign_up_field_rule`;
 * docs/decisions/group-auto-assignment.md). group_memberships is this module's table; other
 * modules call these functions with their transaction's EntityManager when a user registers on a
 * domain or their signup-field values change. Memberships are only ever added here: a rule never
 * removes a member (an administrator's removal is not undone either, until the user's values or
 * registration change again).
 */

/**
 * A user registering on a domain joins every group of the organization whose
 * `rule_email_domains` holds the domain of their email address (case-insensitive, the part after
 * the last `@`). Anonymized users join nothing. One statement for any number of users; returns the
 * number of memberships created.
 */
export async function assignByEmailDomain(m: SqlRunner, organizationId: string, userIds: string[]): Promise<number> {
  if (!userIds.length) return 0;
  const rows: unknown[] = await scoped(m, organizationId).query(
    `INSERT INTO group_memberships (group_id, user_id, organization_id)
     SELECT g.id, u.id, $org
       FROM users u
       JOIN groups g ON g.organization_id = $org AND lower(split_part(u.email, '@', -1)) = ANY (g.rule_email_domains)
      WHERE u.organization_id = $org AND u.id = ANY($1::uuid[]) AND NOT u.is_anonymized AND u.email LIKE '%@%'
     ON CONFLICT (group_id, user_id) DO NOTHING
     RETURNING 1`,
    [userIds],
  );
  return rows.length;
}

/**
 * Users whose signup-field values match an enforced `sign_up_field_rule` join its group: with
 * `require_match_all` every option the rule names must be matched, otherwise any one. An option is
 * matched when the user's value of the option's field equals the option's value. Rules with
 * `enforce: false` are not applied. One statement for any number of users; returns the number of
 * memberships created.
 */
export async function assignBySignupFields(m: SqlRunner, organizationId: string, userIds: string[]): Promise<number> {
  if (!userIds.length) return 0;
  const rows: unknown[] = await scoped(m, organizationId).query(
    `WITH matched AS (
       SELECT v.user_id, o->>'id' AS option_id
         FROM signup_field_values v
         JOIN signup_fields sf ON sf.id = v.signup_field_id AND sf.organization_id = $org
         CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(sf.options) = 'array' THEN sf.options ELSE '[]'::jsonb END) o
        WHERE v.organization_id = $org AND v.user_id = ANY($1::uuid[]) AND o->>'value' = v.value
     ), rules AS (
       SELECT g.id, (g.sign_up_field_rule->>'require_match_all') = 'true' AS match_all,
              ARRAY(SELECT r->>'id' FROM jsonb_array_elements(g.sign_up_field_rule->'options') r) AS option_ids
         FROM groups g
        WHERE g.organization_id = $org AND (g.sign_up_field_rule->>'enforce') = 'true'
          AND jsonb_typeof(g.sign_up_field_rule->'options') = 'array'
     )
     INSERT INTO group_memberships (group_id, user_id, organization_id)
     SELECT r.id, u.id, $org
       FROM users u
       JOIN rules r ON cardinality(r.option_ids) > 0
      WHERE u.organization_id = $org AND u.id = ANY($1::uuid[]) AND NOT u.is_anonymized
        AND CASE WHEN r.match_all
                 THEN r.option_ids <@ ARRAY(SELECT x.option_id FROM matched x WHERE x.user_id = u.id)
                 ELSE r.option_ids && ARRAY(SELECT x.option_id FROM matched x WHERE x.user_id = u.id) END
     ON CONFLICT (group_id, user_id) DO NOTHING
     RETURNING 1`,
    [userIds],
  );
  return rows.length;
}

/** A user (or users) registering on a domain: the email-domain rules, then the sign-up-field rules (values of organization-wide fields may exist already). */
export async function assignOnRegistration(m: SqlRunner, organizationId: string, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  await assignByEmailDomain(m, organizationId, userIds);
  await assignBySignupFields(m, organizationId, userIds);
}
