import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { declaredV1, PublicId, StringEnum } from '../../core/openapi/declared-shape';
import type { Domain } from './domain.entity';

/**
 * The published /v1 Domain, declared once (core/openapi/declared-shape.ts): `private` is derived
 * from `access` (deprecated upstream, kept for old clients).
 */
export const DomainV1Schema = declaredV1(
  'Domain',
  Type.Object({
    id: PublicId(),
    name: Type.String(),
    catalog_title: Type.String(),
    private: Type.Boolean(),
    access: StringEnum(['PUBLIC', 'PRIVATE', 'PRIVATE_CODE']),
    access_code_message_html: Type.String(),
    marketing_message: Type.String(),
  }),
);

export function presentDomainV1(d: Domain): Static<typeof DomainV1Schema> {
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
