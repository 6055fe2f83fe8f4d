import 'reflect-metadata';
import { Controller, Delete, Get, HttpCode, Post, Put, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { SCOPES_KEY, Scopes } from '../auth/decorators';
import { V1 } from '../http/interfaces';
import { ScopedRoutes } from './scoped-routes';

const route = ScopedRoutes('things', 'stuff');

/** The same routes written out with Nest's decorators. */
class ByHand {
  @Get(':id')
  @Scopes('things:read', 'stuff:read')
  read() {}

  @Post(':id/ping')
  @HttpCode(200)
  @Scopes('things:write', 'stuff:write')
  ping() {}

  @Delete(':id')
  @HttpCode(204)
  @Scopes('things:write', 'stuff:write')
  remove() {}

  @Put(':id')
  @Scopes('things:write', 'stuff:write')
  update() {}
}

describe('ScopedRoutes', () => {
  @V1()
  @Controller('v1/things')
  class Things {
    @route.get(':id')
    read() {}

    @route.post(':id/ping', 200)
    ping() {}

    @route.delete(':id', 204)
    remove() {}

    @route.putAndPatch(':id')
    update() {}
  }

  it('gives each handler the route, status and scopes the written-out decorators give', () => {
    const ours = Things.prototype as any;
    const theirs = ByHand.prototype as any;
    for (const name of ['read', 'ping', 'remove', 'update']) {
      for (const key of [PATH_METADATA, METHOD_METADATA, HTTP_CODE_METADATA, SCOPES_KEY]) {
        expect([name, key, Reflect.getMetadata(key, ours[name])]).toEqual([name, key, Reflect.getMetadata(key, theirs[name])]);
      }
    }
  });

  it('putAndPatch adds the PATCH twin with the write scopes', () => {
    const twin = (Things.prototype as any).partialUpdate;
    expect(Reflect.getMetadata(METHOD_METADATA, twin)).toBe(RequestMethod.PATCH);
    expect(Reflect.getMetadata(SCOPES_KEY, twin)).toEqual(['things:write', 'stuff:write']);
  });
});
