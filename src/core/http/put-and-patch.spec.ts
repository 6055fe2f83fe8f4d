import 'reflect-metadata';
import { Body, Controller, HttpCode, Param, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { SCOPES_KEY, Scopes } from '../auth/decorators';
import { V1 } from './interfaces';
import { PutAndPatch } from './put-and-patch';

class Dto {
  name?: string;
}

describe('@PutAndPatch', () => {
  @V1()
  @Controller('v1/things')
  class Things {
    @PutAndPatch(':thing_id')
    @HttpCode(200)
    @Scopes('things:write')
    async updateThing(@Param('thing_id') id: string, @Body() dto: Dto) {
      return { id, dto, self: this };
    }
  }

  it('keeps the method as the PUT handler and adds a PATCH twin partial<Name> with the same path, metadata and parameters', () => {
    const proto = Things.prototype as any;
    expect(Reflect.getMetadata(METHOD_METADATA, proto.updateThing)).toBe(RequestMethod.PUT);
    expect(Reflect.getMetadata(METHOD_METADATA, proto.partialUpdateThing)).toBe(RequestMethod.PATCH);
    for (const key of [PATH_METADATA, HTTP_CODE_METADATA, SCOPES_KEY]) {
      expect(Reflect.getMetadata(key, proto.partialUpdateThing)).toEqual(Reflect.getMetadata(key, proto.updateThing));
    }
    expect(Reflect.getMetadata(ROUTE_ARGS_METADATA, Things, 'partialUpdateThing')).toEqual(Reflect.getMetadata(ROUTE_ARGS_METADATA, Things, 'updateThing'));
    expect(Reflect.getMetadata('design:paramtypes', proto, 'partialUpdateThing')).toEqual([String, Dto]);
    expect(Reflect.getMetadata('route:patch-twin', proto.partialUpdateThing)).toBeUndefined();
  });

  it('the twin calls the handler on the same instance', async () => {
    const things = new Things() as any;
    const dto = { name: 'x' };
    await expect(things.partialUpdateThing('t1', dto)).resolves.toEqual({ id: 't1', dto, self: things });
  });

  it('refuses a class that already has the twin name', () => {
    expect(() => {
      @V1()
      @Controller('v1/clash')
      class Clash {
        @PutAndPatch(':id')
        update() {}
        partialUpdate() {}
      }
      return Clash;
    }).toThrow('Clash.partialUpdate exists');
  });
});
