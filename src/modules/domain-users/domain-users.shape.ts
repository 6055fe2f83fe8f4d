import { Type, type Static } from '@sinclair/typebox';
import { DateTime, declaredV1, nullable, PublicId, StringEnum } from '../../core/openapi/declared-shape';

/**
 * The /v1 shapes the domain-users services present themselves (invites, signup fields, manager
 * access), declared once (core/openapi/declared-shape.ts) where a service may import them
 * (docs/decisions/module-graph.md: a service never imports a presenter).
 */

/**
 * The published DomainUserInvite. `token` and `invite_url` carry the secret, which is kept only as a
 * hash: they are filled in the create answer and are empty strings on reads.
 */
export const DomainUserInviteSchema = declaredV1(
  'DomainUserInvite',
  Type.Object({ id: PublicId(), token: Type.String(), sent_at: nullable(DateTime()), used_at: nullable(DateTime()), invite_url: Type.String() }),
);
export type DomainUserInviteV1 = Static<typeof DomainUserInviteSchema>;

/** SignupFieldTypeEnum of the published document (the column's CHECK allows these). */
export const SIGNUP_FIELD_TYPES = ['TEXT', 'PICKLIST', 'CHECKBOX'] as const;

/** The published SignupField (read by the list, answered by the extension writes). */
export const SignupFieldSchema = declaredV1(
  'SignupField',
  Type.Object({
    id: PublicId(),
    type: StringEnum(SIGNUP_FIELD_TYPES),
    label: Type.String(),
    help_text: Type.String(),
    regex_validator: Type.String(),
    regex_validator_error_text: Type.String(),
    required: Type.Boolean(),
    active: Type.Boolean(),
    order: Type.Integer(),
    options: Type.Array(Type.Object({ id: PublicId(), value: Type.String() })),
  }),
);
export type SignupFieldV1 = Static<typeof SignupFieldSchema>;

const IdLists = Type.Object({ course_ids: Type.Array(PublicId()), path_ids: Type.Array(PublicId()), license_ids: Type.Array(PublicId()) });

/**
 * The published ManagerAccess: `manager_access` is left out for a member without manager access
 * (optional, not nullable); `invalid_ids` names the ids of the request that were not applied.
 */
export const ManagerAccessSchema = declaredV1(
  'ManagerAccess',
  Type.Object({
    user: Type.Object({ id: PublicId(), email: Type.String({ format: 'email' }), first_name: Type.String(), last_name: Type.String() }),
    manager_access: Type.Optional(
      Type.Object({
        group_id: nullable(PublicId()),
        can_create_users: nullable(Type.Boolean()),
        course_access_level: Type.String(),
        course_ids: Type.Array(PublicId()),
        path_access_level: Type.String(),
        path_ids: Type.Array(PublicId()),
        license_ids: Type.Array(PublicId()),
      }),
    ),
    invalid_ids: IdLists,
  }),
);
export type ManagerAccessV1 = Static<typeof ManagerAccessSchema>;
