import { encodeId } from '../../core/ids/ids';
import type { Domain } from './domain.entity';

/** The v1 Domain: `private` is derived from `access` (deprecated upstream, kept for old clients). */
export function presentDomainV1(d: Domain) {
  return {
    id: encodeId('domain', d.id),
    name: d.name,
    catalog_title: d.catalogTitle,
    private: d.access !== 'PUBLIC',
    access: d.access,
    access_code_message_html: d.accessCodeMessageHtml,
    marketing_message: d.marketingMessage,
  };
}
