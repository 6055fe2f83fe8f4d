import { applyDecorators, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { Scopes } from '../auth/decorators';
import { PutAndPatch } from '../http/put-and-patch';

/**
 * The routes of a controller whose reads need `<family>:read` and whose writes need
 * `<family>:write` (any one of the families, when several are given), the rule @V1Resource
 * applies to the operations it declares, for the handlers written out by hand:
 *
 *     const route = ScopedRoutes('webhooks');
 *     @route.get(':webhook_id')            // @Get(':webhook_id') @Scopes('webhooks:read')
 *     @route.post(':webhook_id/ping', 200) // @Post(...) @HttpCode(200) @Scopes('webhooks:write')
 *
 * `status`, when given, replaces Nest's default (200, 201 for POST). Each is the same as the
 * decorators it stands for, so guards, pipes and the OpenAPI document see no difference. A route
 * with another scope (`students:anonymize`) keeps its own @Scopes.
 */
export function ScopedRoutes(...families: string[]) {
  const read = Scopes(...families.map((f) => `${f}:read`));
  const write = Scopes(...families.map((f) => `${f}:write`));
  const withStatus = (status: number | undefined) => (status === undefined ? [] : [HttpCode(status)]);
  return {
    get: (path?: string | string[]) => applyDecorators(Get(path), read),
    post: (path?: string, status?: number) => applyDecorators(Post(path), ...withStatus(status), write),
    put: (path?: string) => applyDecorators(Put(path), write),
    patch: (path?: string) => applyDecorators(Patch(path), write),
    /** PUT and PATCH by one handler (@PutAndPatch: the PATCH twin is `partial<Handler>`) */
    putAndPatch: (path?: string) => applyDecorators(PutAndPatch(path), write),
    delete: (path?: string, status?: number) => applyDecorators(Delete(path), ...withStatus(status), write),
  };
}
