import { AsyncLocalStorage, AsyncResource, executionAsyncId } from 'node:async_hooks';
import './async-resource-bind';

describe('AsyncResource.prototype.bind (core/runtime/async-resource-bind.ts)', () => {
  it("runs the function in the resource's async scope, with the caller's this or thisArg, the arguments and the length", () => {
    const als = new AsyncLocalStorage<string>();
    const resource = als.run('inside', () => new AsyncResource('test'));
    const seen: unknown[] = [];
    const fn = function (this: unknown, a: number, b: number) {
      seen.push([this, a, b, executionAsyncId() === resource.asyncId(), als.getStore()]);
      return a + b;
    };
    const bound = resource.bind(fn);
    expect(bound.length).toBe(2);
    expect(bound.call('T', 1, 2)).toBe(3);
    const withThis = (resource.bind as (f: typeof fn, thisArg: unknown) => typeof fn)(fn, 'fixed');
    expect(withThis.call('ignored', 3, 4)).toBe(7);
    expect(seen).toEqual([
      ['T', 1, 2, true, 'inside'],
      ['fixed', 3, 4, true, 'inside'],
    ]);
    expect(() => resource.bind(42 as never)).toThrow(/must be of type function/);
  });

  it('keeps asyncResource on the bound function without the DEP0172 warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const resource = new AsyncResource('test');
      const bound = resource.bind(() => 1) as (() => number) & { asyncResource: AsyncResource };
      expect(bound.asyncResource).toBe(resource);
      // a plain property: Node 20's own bind defines it as util.deprecate accessors (the per-call cost)
      const descriptor = Object.getOwnPropertyDescriptor(bound, 'asyncResource');
      expect(descriptor).toMatchObject({ value: resource, enumerable: true });
      expect(descriptor?.get).toBeUndefined();
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => /asyncResource/.test(w.message))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
