/** (OpenAPI 3.0 `nullable`, as @nestjs/swagger types schemas: the completed document turns it into a `null` type.) */
/** The /v1 page envelope `{count, next, previous, results}` of `item` (core/pagination/v1-page.ts), for @ApiOkResponse. */
export const v1PageSchema = (item: object) => ({
  type: 'object',
  required: ['count', 'next', 'previous', 'results'],
  properties: {
    count: { type: 'integer' },
    next: { type: 'string', format: 'uri', nullable: true },
    previous: { type: 'string', format: 'uri', nullable: true },
    results: { type: 'array', items: item },
  },
});
