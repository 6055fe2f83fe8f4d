import { IsEmail, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { QueryFailedError } from 'typeorm';
import { ApiError } from '../http/api-error';
import { ItemOutcome, runBatch, ValidItem } from './batch';

class Attrs {
  @IsEmail() email: string;
  @IsOptional() @IsString() name?: string;
}
class Item {
  @IsString() type: string;
  @ValidateNested() @Type(() => Attrs) attributes: Attrs;
}

const spec = {
  itemClass: Item,
  type: 'students',
  maxItems: 3,
  dedupeKey: (r: Record<string, any>) => (typeof r.attributes?.email === 'string' ? r.attributes.email.toLowerCase() : undefined),
  dedupePointer: '/attributes/email',
};
const item = (email: unknown, extra: Record<string, unknown> = {}) => ({ type: 'students', attributes: { email, ...extra } });
const ok = async (items: ValidItem<Item>[]) => new Map<number, ItemOutcome<string>>(items.map((v) => [v.index, { ok: true, id: `id-${v.index}`, result: v.item.attributes.email }]));

describe('runBatch', () => {
  it.each([[null], ['x'], [{}], [{ data: {} }], [{ data: [] }], [{ data: [item('a@ex.com'), item('b@ex.com'), item('c@ex.com'), item('d@ex.com')] }]])(
    'refuses a bad envelope with 400: %j',
    async (body) => {
      await expect(runBatch(body, spec, ok)).rejects.toMatchObject({ status: 400 });
      await expect(runBatch(body, spec, ok)).rejects.toBeInstanceOf(ApiError);
    },
  );

  it('answers 200 with every item in request order when all succeed, handing the valid items over as one set', async () => {
    const calls: number[][] = [];
    const res = await runBatch({ data: [item('a@ex.com'), item('b@ex.com')] }, spec, async (items) => {
      calls.push(items.map((i) => i.index));
      return ok(items);
    });
    expect(calls).toEqual([[0, 1]]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { status: 'succeeded', id: 'id-0', result: 'a@ex.com' },
        { status: 'succeeded', id: 'id-1', result: 'b@ex.com' },
      ],
      summary: { total: 2, succeeded: 2, failed: 0 },
    });
  });

  it('marks later duplicates (first wins), wrong types, non-objects and invalid members, with pointers, and never processes them', async () => {
    const seen: number[] = [];
    const res = await runBatch({ data: [item('A@ex.com'), item('a@EX.com'), 'nope'] }, spec, async (items) => {
      seen.push(...items.map((i) => i.index));
      return ok(items);
    });
    expect(seen).toEqual([0]);
    expect(res.status).toBe(207);
    expect(res.body.data[1]).toEqual({ status: 'failed', id: null, error: { code: 'duplicate_in_batch', detail: expect.any(String), source: { pointer: '/data/1/attributes/email' } } });
    expect(res.body.data[2].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/2' } });
    const more = await runBatch({ data: [{ type: 'courses', attributes: {} }, item('not-an-email'), { type: 'students', attributes: [] }] }, spec, ok);
    expect(more.body.data.map((d) => d.error?.source.pointer)).toEqual(['/data/0/type', '/data/1/attributes/email', '/data/2/attributes']);
    expect(more.body.summary).toEqual({ total: 3, succeeded: 0, failed: 3 });
  });

  it('prefixes the pointers handlers give relative to their item, and reports deletions', async () => {
    const res = await runBatch({ data: [item('a@ex.com'), item('b@ex.com')] }, spec, async (items) => {
      const out = new Map<number, ItemOutcome<string>>();
      out.set(items[0].index, { ok: false, code: 'not_found', detail: 'gone', pointer: '/id' });
      out.set(items[1].index, { ok: true, id: 'x', deleted: true });
      return out;
    });
    expect(res.body.data).toEqual([
      { status: 'failed', id: null, error: { code: 'not_found', detail: 'gone', source: { pointer: '/data/0/id' } } },
      { status: 'deleted', id: 'x' },
    ]);
  });

  it('retries item by item when the set-wise call throws: one bad item fails alone, as internal_error or (bad data) validation_error', async () => {
    const dataError = new QueryFailedError('INSERT', [], Object.assign(new Error('invalid byte sequence'), { code: '22021' }));
    const res = await runBatch({ data: [item('a@ex.com'), item('boom@ex.com'), item('nul@ex.com')] }, spec, async (items) => {
      if (items.some((i) => i.item.attributes.email === 'boom@ex.com') && items.length === 1) throw new Error('unexpected');
      if (items.some((i) => i.item.attributes.email === 'nul@ex.com')) throw dataError;
      if (items.length > 1) throw new Error('set-wise failure');
      return ok(items);
    });
    expect(res.status).toBe(207);
    expect(res.body.data.map((d) => d.status)).toEqual(['succeeded', 'failed', 'failed']);
    expect(res.body.data[1].error?.code).toBe('internal_error');
    expect(res.body.data[2].error?.code).toBe('validation_error');
  });
});
