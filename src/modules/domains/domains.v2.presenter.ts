import { Type, type Static } from '@sinclair/typebox';
import { v2Resource } from '../../core/http/v2-resource-kit';
import { externalIdOf } from '../../core/ids/external-id';
import { DateTime, declaredV2, StringEnum, V2RelatedResourceSchema } from '../../core/openapi/declared-shape';
import type { Domain } from './domain.entity';

/**
 * DomainResource of the published /v2 document, declared once (core/openapi/declared-shape.ts):
 * the type of presentDomainV2's result.
 */
export const DomainResourceSchema = declaredV2(
  'DomainResource',
  V2RelatedResourceSchema(
    'domains',
    Type.Object({
      external_id: Type.String({ description: 'Stable id for cross-system correlation.' }),
      name: Type.String({ description: 'Domain name.' }),
      access: StringEnum(['PUBLIC', 'PRIVATE', 'PRIVATE_CODE'], { description: 'Who may sign up.' }),
      access_message_html: Type.String({ description: 'The message shown on a private domain.' }),
      marketing_message: Type.String({ description: 'Marketing message of the catalog.' }),
      require_https: Type.Boolean({ description: 'Always true: every domain is served over HTTPS.' }),
      created_at: DateTime(),
      modified_at: DateTime(),
    }),
    Type.Object({ theme: Type.Object({ data: Type.Null({ description: 'Always null: no themes on this platform.' }) }) }, { description: 'Related theme linkage.' }),
    { description: 'A domain (DomainResource).' },
  ),
);
export type DomainResourceV2 = Static<typeof DomainResourceSchema>;

/**
 * DomainResource. `access_message_html` is the message /v1 calls access_code_message_html;
 * `require_https` is always true (every domain is served over HTTPS: domain-url.ts); no themes
 * exist on this platform, so the theme relationship is null (docs/decisions/v2-rest.md).
 */
export function presentDomainV2(d: Domain, baseUrl: string): DomainResourceV2 {
  return v2Resource<'domains', DomainResourceV2['attributes'], DomainResourceV2['relationships']>(
    'domains',
    'domain',
    d.id,
    baseUrl,
    {
      external_id: externalIdOf('domain', d.id, null),
      name: d.name,
      access: d.access,
      access_message_html: d.accessCodeMessageHtml,
      marketing_message: d.marketingMessage,
      require_https: true,
      created_at: d.createdAt.toISOString(),
      modified_at: d.updatedAt.toISOString(),
    },
    { theme: { data: null } },
  );
}
