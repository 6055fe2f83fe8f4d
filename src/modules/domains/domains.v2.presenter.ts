import { v2Resource } from '../../core/http/v2-resource-kit';
import { externalIdOf } from '../../core/ids/external-id';
import type { Domain } from './domain.entity';

/**
 * DomainResource. `access_message_html` is the message /v1 calls access_code_message_html;
 * `require_https` is always true (every domain is served over HTTPS: domain-url.ts); no themes
 * exist on this platform, so the theme relationship is null (docs/decisions/v2-rest.md).
 */
export function presentDomainV2(d: Domain, baseUrl: string) {
  return v2Resource(
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
