import 'reflect-metadata';
import { Controller, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { IsString } from 'class-validator';
import { SCOPES_KEY } from '../auth/decorators';
import type { ItemOutcome, ValidItem } from '../batch/batch';
import { V2 } from '../http/interfaces';
import { serviceIn } from '../http/service-ref';
import { updateLastWins, V2Batches } from './v2-batch';
import { encodeId } from '../ids/ids';

class Item {
  @IsString() id: string;
}

class ThingsService {
  seen: unknown[] = [];
  async removeMany(p: unknown, items: ValidItem<Item>[], ...extra: unknown[]): Promise<Map<number, ItemOutcome<unknown>>> {
    this.seen.push([p, items.map((i) => i.item.id), ...extra]);
    return new Map(items.map((i) => [i.index, { ok: true, id: i.item.id, deleted: true } as ItemOutcome<unknown>]));
  }
}

@V2()
@V2Batches<ThingsService>({
  service: ThingsService,
  type: 'things',
  scopes: 'things',
  baseUrl: true,
  remove: { call: (s) => s.removeMany, item: Item, dedupeKey: (raw) => raw.id, dedupePointer: '/id' },
})
@Controller('v2/things')
class ThingsController {
  constructor(
    readonly things: ThingsService,
    readonly config: { BATCH_MAX_ITEMS: number; PUBLIC_URL: string },
  ) {}
}

describe('@V2Batches', () => {
  it('declares each batch operation on the controller path with the write scope', () => {
    const proto = ThingsController.prototype as any;
    expect([Reflect.getMetadata(METHOD_METADATA, proto.remove), Reflect.getMetadata(PATH_METADATA, proto.remove), Reflect.getMetadata(SCOPES_KEY, proto.remove)]).toEqual([
      RequestMethod.DELETE,
      '/',
      ['things:write'],
    ]);
    expect(proto.create).toBeUndefined();
  });

  it('runs the batch through the service (with the base URL) and answers its status and body', async () => {
    const things = new ThingsService();
    const ctl = new ThingsController(things, { BATCH_MAX_ITEMS: 3, PUBLIC_URL: 'https://api.example' }) as any;
    const reply = { status: jest.fn() };
    const body = await ctl.remove(
      'P',
      {
        data: [
          { type: 'things', id: 'a' },
          { type: 'things', id: 'a' },
        ],
      },
      {},
      reply,
    );
    expect(reply.status).toHaveBeenCalledWith(207);
    expect(body.summary).toEqual({ total: 2, succeeded: 1, failed: 1 });
    expect(body.data[1].error.code).toBe('duplicate_in_batch');
    expect(things.seen).toEqual([['P', ['a'], 'https://api.example']]);
    await expect(ctl.remove('P', { data: [1, 2, 3, 4] }, {}, reply)).rejects.toThrow('from 1 to 3 items');
  });

  it('finds the service as a part of a service the controller holds (serviceIn)', async () => {
    class Deep {
      readonly things = new ThingsService();
    }
    @V2Batches<ThingsService>({ service: serviceIn(Deep, (d) => d.things), type: 'things', scopes: 'things', remove: { call: (s) => s.removeMany, item: Item } })
    @Controller('v2/deep-things')
    class DeepController {
      readonly deep = new Deep();
      constructor(readonly config: { BATCH_MAX_ITEMS: number }) {}
    }
    const ctl = new DeepController({ BATCH_MAX_ITEMS: 3 }) as any;
    const reply = { status: jest.fn() };
    await ctl.remove('P', { data: [{ type: 'things', id: 'b' }] }, {}, reply);
    expect(reply.status).toHaveBeenCalledWith(200);
    expect(ctl.deep.things.seen).toEqual([['P', ['b']]]);
  });

  it('updateLastWins: undecodable ids and refused items fail alone, the rest merge per id in request order and answer the final object', async () => {
    const a = '0b0e1a3c-64a4-4b9e-8e5a-9f2c8d1e0a01';
    const b = '0b0e1a3c-64a4-4b9e-8e5a-9f2c8d1e0a02';
    const item = (index: number, id: string, attributes: Record<string, unknown>) => ({ index, item: { id, attributes }, raw: { id, attributes } });
    const applied: unknown[] = [];
    const out = await updateLastWins(
      [
        item(0, encodeId('quiz', a), { name: 'x', n: 1 }),
        item(1, 'garbage', { name: 'y' }),
        item(2, encodeId('quiz', a), { name: 'z' }),
        item(3, encodeId('quiz', b), { bad: true }),
        item(4, encodeId('quiz', b), { name: 'w' }),
      ],
      'quiz',
      'Quiz not found.',
      (v) => (v.item.attributes.bad ? { ok: false as const, code: 'validation_error' as const, detail: 'bad', pointer: '/attributes/bad' } : v.item.attributes),
      async (merged) => {
        applied.push(Object.fromEntries(merged));
        // b is gone meanwhile: not returned
        return new Map([[a, { id: encodeId('quiz', a), ...merged.get(a) }]]);
      },
    );
    expect(applied).toEqual([{ [a]: { name: 'z', n: 1 }, [b]: { name: 'w' } }]);
    expect([0, 1, 2, 3, 4].map((i) => out.get(i))).toEqual([
      { ok: true, id: encodeId('quiz', a), result: { id: encodeId('quiz', a), name: 'z', n: 1 } },
      { ok: false, code: 'not_found', detail: 'Quiz not found.', pointer: '/id' },
      { ok: true, id: encodeId('quiz', a), result: { id: encodeId('quiz', a), name: 'z', n: 1 } },
      { ok: false, code: 'validation_error', detail: 'bad', pointer: '/attributes/bad' },
      { ok: false, code: 'not_found', detail: 'Quiz not found.', pointer: '/id' },
    ]);
  });
});
