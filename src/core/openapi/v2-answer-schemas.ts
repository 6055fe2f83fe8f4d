/**
 * The /v2 answer envelopes of one resource schema, for @ApiOkResponse / @ApiResponse of a /v2
 * handler whose answer nothing published describes. (OpenAPI 3.0 `nullable`, as @nestjs/swagger
 * types schemas: the completed document turns it into a `null` type.)
 */
type Schema = Record<string, unknown>;

/** The batch item error codes (core/batch/batch.ts ItemCode). */
const ITEM_CODES = ['not_found', 'validation_error', 'duplicate_in_batch', 'internal_error', 'conflict', 'not_in_domain', 'already_enrolled', 'already_published'];

/**
 * A JSON:API resource object `{type, id, attributes, relationships?, links: {self}}`
 * (core/http/v2-resource-kit.ts v2Resource): every attribute is required (the presenters answer
 * each one, null when it has no value).
 */
export function v2ResourceSchema(spec: { type: string; description: string; attributes: Record<string, Schema>; relationships?: Record<string, Schema>; links?: boolean }): Schema {
  const properties: Record<string, Schema> = {
    type: { type: 'string', enum: [spec.type], description: `Always "${spec.type}".` },
    id: { type: 'string', description: 'Opaque id.' },
    attributes: { type: 'object', required: Object.keys(spec.attributes), properties: spec.attributes },
  };
  const required = ['type', 'id', 'attributes'];
  if (spec.relationships) {
    properties.relationships = { type: 'object', required: Object.keys(spec.relationships), properties: spec.relationships };
    required.push('relationships');
  }
  if (spec.links !== false) {
    properties.links = { type: 'object', required: ['self'], properties: { self: { type: 'string', format: 'uri', description: "The resource's own address." } } };
    required.push('links');
  }
  return { type: 'object', description: spec.description, required, properties };
}

/** A to-one relationship `{data: {type, id}}` to a resource of `type`. */
export const v2RelationshipSchema = (type: string, description: string): Schema => ({
  type: 'object',
  description,
  required: ['data'],
  properties: { data: { type: 'object', required: ['type', 'id'], properties: { type: { type: 'string', enum: [type] }, id: { type: 'string' } } } },
});

/** A single-resource document `{data}`. */
export const v2DocumentSchema = (resource: Schema): Schema => ({ type: 'object', required: ['data'], properties: { data: resource } });

/** A cursor page `{data, links, meta, has_more, next_cursor}` (core/pagination/cursor-page.ts ListDocument). */
export const v2PageSchema = (resource: Schema): Schema => ({
  type: 'object',
  required: ['data', 'links', 'meta', 'has_more', 'next_cursor'],
  properties: {
    data: { type: 'array', items: resource, description: 'The resources on this page, in cursor order.' },
    links: {
      type: 'object',
      required: ['self', 'next', 'prev'],
      properties: {
        self: { type: 'string', format: 'uri' },
        next: { type: 'string', format: 'uri', nullable: true, description: 'The next page; null on the last page.' },
        prev: { type: 'string', format: 'uri', nullable: true, description: 'Always null (forward-only cursors).' },
      },
    },
    meta: { type: 'object', required: ['page_size'], properties: { page_size: { type: 'integer' } } },
    has_more: { type: 'boolean', description: 'Whether more pages follow.' },
    next_cursor: { type: 'string', nullable: true, description: 'The `page[cursor]` of the next page; null on the last page.' },
  },
});

/**
 * A batch answer `{data: [item results in request order], summary}` (core/batch/batch.ts runBatch),
 * the same for 200 (every item succeeded) and 207 (some failed); a succeeded item carries `resource`.
 */
export const v2BatchSchema = (resource: Schema): Schema => ({
  type: 'object',
  required: ['data', 'summary'],
  properties: {
    data: {
      type: 'array',
      description: 'Per-item results, in request order.',
      items: {
        oneOf: [
          {
            type: 'object',
            description: 'A processed item.',
            required: ['status', 'id', 'result'],
            properties: { status: { type: 'string', enum: ['succeeded'] }, id: { type: 'string', description: 'The opaque id of the resource.' }, result: resource },
          },
          {
            type: 'object',
            description: 'A failed item.',
            required: ['status', 'id', 'error'],
            properties: {
              status: { type: 'string', enum: ['failed'] },
              id: { type: 'string', nullable: true, description: 'Always null.' },
              error: {
                type: 'object',
                required: ['code', 'detail', 'source'],
                properties: {
                  code: { type: 'string', enum: ITEM_CODES },
                  detail: { type: 'string' },
                  source: { type: 'object', required: ['pointer'], properties: { pointer: { type: 'string', description: 'JSON pointer of the failing member in the request body.' } } },
                },
              },
            },
          },
        ],
      },
    },
    summary: {
      type: 'object',
      required: ['total', 'succeeded', 'failed'],
      properties: { total: { type: 'integer', minimum: 0 }, succeeded: { type: 'integer', minimum: 0 }, failed: { type: 'integer', minimum: 0 } },
    },
  },
});
