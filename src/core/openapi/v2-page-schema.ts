/**
 * The /v2 cursor page document `{data, links, meta, has_more, next_cursor}` of `item`
 * (core/pagination/cursor-page.ts `pageDocument`), for @ApiOkResponse.
 */
export const v2PageSchema = (item: object) => ({
  type: 'object',
  required: ['data', 'links', 'meta', 'has_more', 'next_cursor'],
  properties: {
    data: { type: 'array', items: item, description: 'The resources on this page, in cursor order' },
    links: {
      type: 'object',
      required: ['self', 'next', 'prev'],
      properties: {
        self: { type: 'string', format: 'uri' },
        next: { type: 'string', format: 'uri', nullable: true },
        prev: { type: 'string', format: 'uri', nullable: true },
      },
    },
    meta: { type: 'object', required: ['page_size'], properties: { page_size: { type: 'integer' } } },
    has_more: { type: 'boolean', description: 'Whether more pages follow' },
    next_cursor: { type: 'string', nullable: true, description: 'The `page[cursor]` of the next page; null on the last page' },
  },
});

/** The /v2 single-resource document `{data}` of `item`. */
export const v2DocumentSchema = (item: object) => ({ type: 'object', required: ['data'], properties: { data: item } });
