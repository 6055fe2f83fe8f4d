import 'reflect-metadata';
import { Controller, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { SCOPES_KEY } from '../auth/decorators';
import { V1Page } from '../pagination/v1-page';
import { V1 } from '../http/interfaces';
import { V1Resource } from './v1-resource';

class CreateDto {}
class PutDto {}
class PatchDto {}

const calls: unknown[][] = [];
class ThingsService {
  async listThings(...a: unknown[]) {
    calls.push(['list', ...a]);
    return { rows: [{ n: 1 }, { n: 2 }], count: 7 };
  }
  async addThing(...a: unknown[]) {
    calls.push(['add', ...a]);
    return { view: { n: 3 }, created: false };
  }
  async readThing(...a: unknown[]) {
    calls.push(['read', ...a]);
    return { n: 4 };
  }
  async updateThing(...a: unknown[]) {
    calls.push(['update', ...a]);
    return { n: 5 };
  }
  async deleteThing(...a: unknown[]) {
    calls.push(['delete', ...a]);
  }
}

@V1()
@V1Resource<ThingsService>({
  service: ThingsService,
  at: ':box_id/things',
  id: 'thing_id',
  scopes: 'things',
  present: (r: { n: number }) => ({ shown: r.n }),
  list: { call: (s) => s.listThings, handler: 'list', cap: 100 },
  create: { call: (s) => s.addThing, handler: 'create', upsert: true, body: CreateDto },
  read: { call: (s) => s.readThing, handler: 'read' },
  update: { call: (s) => s.updateThing, handler: 'update', body: PutDto, patchBody: PatchDto },
  remove: { call: (s) => s.deleteThing, handler: 'remove' },
})
@Controller('v1/domains/:domain_name/boxes')
class ThingsController {
  constructor(readonly things: ThingsService) {}
}

const proto = ThingsController.prototype as any;
const meta = (key: string, name: string) => Reflect.getMetadata(key, proto[name]);
/** The route arguments of a handler, by index: [type, data]. */
const args = (name: string) =>
  Object.entries(Reflect.getMetadata(ROUTE_ARGS_METADATA, ThingsController, name) as Record<string, { index: number; data: unknown }>)
    .sort(([, a], [, b]) => a.index - b.index)
    .map(([k, v]) => [k.split(':')[0], v.data]);

describe('@V1Resource', () => {
  it('declares each operation as a handler with its route, scope, status and parameters', () => {
    expect([meta(METHOD_METADATA, 'list'), meta(PATH_METADATA, 'list'), meta(SCOPES_KEY, 'list')]).toEqual([RequestMethod.GET, ':box_id/things', ['things:read']]);
    expect([meta(METHOD_METADATA, 'create'), meta(PATH_METADATA, 'create'), meta(SCOPES_KEY, 'create')]).toEqual([RequestMethod.POST, ':box_id/things', ['things:write']]);
    expect([meta(METHOD_METADATA, 'read'), meta(PATH_METADATA, 'read')]).toEqual([RequestMethod.GET, ':box_id/things/:thing_id']);
    expect([meta(METHOD_METADATA, 'update'), meta(METHOD_METADATA, 'partialUpdate')]).toEqual([RequestMethod.PUT, RequestMethod.PATCH]);
    expect([meta(METHOD_METADATA, 'remove'), meta(HTTP_CODE_METADATA, 'remove'), meta(SCOPES_KEY, 'remove')]).toEqual([RequestMethod.DELETE, 204, ['things:write']]);
    expect(args('read').map(([, d]) => d)).toEqual([undefined, 'domain_name', 'box_id', 'thing_id']);
    expect(Reflect.getMetadata('design:paramtypes', proto, 'update')).toEqual([Object, String, String, String, PutDto]);
    expect(Reflect.getMetadata('design:paramtypes', proto, 'partialUpdate')).toEqual([Object, String, String, String, PatchDto]);
    expect(Reflect.getMetadata('design:paramtypes', proto, 'list')).toEqual([Object, String, String, Object, V1Page]);
    expect(proto.read.name).toBe('read');
  });

  it('calls the service with the caller, the path parameters in URL order and the body or page, and presents the result', async () => {
    const ctl = new ThingsController(new ThingsService()) as any;
    calls.length = 0;
    const page = new V1Page({ page: 1, pageSize: 2, offset: 0 }, 'http://h', '/v1/x');
    expect((await ctl.list('P', 'd', 'b', {}, page)).results).toEqual([{ shown: 1 }, { shown: 2 }]);
    const reply = { status: jest.fn() };
    expect(await ctl.create('P', 'd', 'b', { x: 1 }, reply)).toEqual({ shown: 3 });
    expect(reply.status).toHaveBeenCalledWith(200);
    expect(await ctl.read('P', 'd', 'b', 't')).toEqual({ shown: 4 });
    expect(await ctl.partialUpdate('P', 'd', 'b', 't', { y: 1 })).toEqual({ shown: 5 });
    expect(await ctl.remove('P', 'd', 'b', 't')).toBeUndefined();
    expect(calls).toEqual([
      ['list', 'P', 'd', 'b', page],
      ['add', 'P', 'd', 'b', { x: 1 }],
      ['read', 'P', 'd', 'b', 't'],
      ['update', 'P', 'd', 'b', 't', { y: 1 }],
      ['delete', 'P', 'd', 'b', 't'],
    ]);
  });

  it('with filters, a list takes the query (of its class) before the page and hands the service filters(query) after the page; several scope families are each enough; patch is PATCH only', async () => {
    class ThingQuery {
      name?: string;
    }
    @V1Resource<ThingsService>({
      service: ThingsService,
      id: 'thing_id',
      scopes: ['things', 'boxes'],
      present: (r: { n: number }) => r.n,
      list: { call: (s) => s.listThings, handler: 'list', cap: 100, query: ThingQuery, filters: (q: ThingQuery) => q.name || undefined },
      read: { call: (s) => s.readThing, handler: 'read' },
      patch: { call: (s) => s.updateThing, body: PatchDto },
      remove: { call: (s) => s.deleteThing, handler: 'remove' },
    })
    @Controller('v1/things')
    class FilteredController {
      constructor(readonly things: ThingsService) {}
    }
    const fp = FilteredController.prototype as any;
    expect(Reflect.getMetadata('design:paramtypes', fp, 'list')).toEqual([Object, ThingQuery, V1Page]);
    const kinds = Object.entries(Reflect.getMetadata(ROUTE_ARGS_METADATA, FilteredController, 'list') as Record<string, { index: number }>)
      .sort(([, a], [, b]) => a.index - b.index)
      .map(([k]) => k.split(':')[0]);
    expect(kinds[1]).toBe(String(RouteParamtypes.QUERY));
    expect([Reflect.getMetadata(SCOPES_KEY, fp.read), Reflect.getMetadata(SCOPES_KEY, fp.remove)]).toEqual([
      ['things:read', 'boxes:read'],
      ['things:write', 'boxes:write'],
    ]);
    // patch: PATCH only (no PUT), named as @PutAndPatch names a PATCH twin
    expect([Reflect.getMetadata(METHOD_METADATA, fp.partialUpdateThing), Reflect.getMetadata(PATH_METADATA, fp.partialUpdateThing), fp.updateThing]).toEqual([
      RequestMethod.PATCH,
      ':thing_id',
      undefined,
    ]);
    expect(Reflect.getMetadata('design:paramtypes', fp, 'partialUpdateThing')).toEqual([Object, String, PatchDto]);
    const ctl = new FilteredController(new ThingsService()) as any;
    calls.length = 0;
    const page = new V1Page({ page: 1, pageSize: 2, offset: 0 }, 'http://h', '/v1/x');
    expect((await ctl.list('P', { name: 'x' }, page)).results).toEqual([1, 2]);
    await ctl.list('P', { name: '' }, page);
    expect(await ctl.partialUpdateThing('P', 't', { y: 2 })).toBe(5);
    expect(calls).toEqual([
      ['list', 'P', page, 'x'],
      ['list', 'P', page, undefined],
      ['update', 'P', 't', { y: 2 }],
    ]);
  });

  it('every list takes updated_since: on the page for the service, 400 on a bad value, and 400 when the service does not apply it', async () => {
    const ctl = new ThingsController(new ThingsService()) as any;
    const page = () => new V1Page({ page: 1, pageSize: 2, offset: 0 }, 'http://h', '/v1/x');
    await expect(ctl.list('P', 'd', 'b', { updated_since: 'yesterday' }, page())).rejects.toMatchObject({ status: 400 });
    // ThingsService.list does not read page.updatedSince: the list says so rather than ignore it
    await expect(ctl.list('P', 'd', 'b', { updated_since: '2026-01-01T00:00:00Z' }, page())).rejects.toMatchObject({ status: 400 });
    const applied = page();
    calls.length = 0;
    const service = new ThingsService();
    service.listThings = async (...args: unknown[]) => {
      calls.push(['since', (args[args.length - 1] as V1Page).updatedSince]);
      return { rows: [], count: 0 };
    };
    expect((await (new ThingsController(service) as any).list('P', 'd', 'b', { updated_since: '2026-01-01T00:00:00Z' }, applied)).results).toEqual([]);
    expect(calls).toEqual([['since', new Date('2026-01-01T00:00:00Z')]]);
    expect(Reflect.getMetadata('swagger/apiParameters', proto.list).map((x: { name: string }) => x.name)).toContain('updated_since');
  });

  it('a read with baseUrl takes the request base URL after the path parameters and presents with it', async () => {
    @V1Resource<ThingsService>({
      service: ThingsService,
      id: 'thing_id',
      scopes: 'things',
      present: (r: { n: number }) => ({ plain: r.n }),
      read: { call: (s) => s.readThing, handler: 'read', baseUrl: true, present: (r: { n: number }, _ctl: unknown, base: string) => ({ linked: `${base}/${r.n}` }) },
    })
    @Controller('v1/things')
    class LinkedController {
      constructor(readonly things: ThingsService) {}
    }
    expect(Reflect.getMetadata('design:paramtypes', LinkedController.prototype, 'read')).toEqual([Object, String, String]);
    const kinds = Object.keys(Reflect.getMetadata(ROUTE_ARGS_METADATA, LinkedController, 'read') as object);
    expect(kinds.filter((k) => k.includes('__customRouteArgs__')).length).toBe(2); // the caller and the base URL
    calls.length = 0;
    expect(await (new LinkedController(new ThingsService()) as any).read('P', 't', 'https://x.test')).toEqual({ linked: 'https://x.test/4' });
    expect(calls).toEqual([['read', 'P', 't']]);
  });

  it('needs the controller path (above @Controller) and refuses to replace a handler', () => {
    expect(() => {
      @V1Resource<ThingsService>({ service: ThingsService, id: 'x', scopes: 't', present: (r) => r, read: { call: (s) => s.readThing } })
      class NoPath {}
      return NoPath;
    }).toThrow('put it above @Controller');
    expect(() => {
      @V1Resource<ThingsService>({ service: ThingsService, id: 'x', scopes: 't', present: (r) => r, read: { call: (s) => s.readThing, handler: 'read' } })
      @Controller('v1/x')
      class Clash {
        read() {}
      }
      return Clash;
    }).toThrow('Clash.read exists');
  });
});
