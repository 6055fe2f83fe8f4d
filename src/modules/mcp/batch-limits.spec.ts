import { checkBatch, messageItems, requestProtocolVersion } from './batch-limits';

const call = (n: number) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_students', arguments: { data: Array(n).fill({}), tags: ['a'] } } });

describe('JSON-RPC batch rules of /mcp', () => {
  it('the version: the header, else an initialize request, else 2025-03-26', () => {
    expect(requestProtocolVersion('2025-06-18', [])).toBe('2025-06-18');
    expect(requestProtocolVersion(undefined, [{ method: 'initialize', params: { protocolVersion: '2025-11-25' } }])).toBe('2025-11-25');
    expect(requestProtocolVersion(undefined, [{ method: 'ping' }])).toBe('2025-03-26');
  });

  it('items: the longest array argument of a tools/call, at least 1', () => {
    expect(messageItems(call(100))).toBe(100);
    expect(messageItems(call(0))).toBe(1);
    expect(messageItems({ method: 'tools/list' })).toBe(1);
    expect(messageItems(null)).toBe(1);
  });

  it('refuses batches where the version has none, caps them where it has', () => {
    expect(checkBatch(call(100), '2025-06-18', 100)).toBeNull();
    for (const v of ['2025-06-18', '2025-11-25', '2024-11-05']) expect(checkBatch([call(1)], v, 100)?.body.error.code).toBe(-32600);
    // a version the SDK does not know: its own 400 answers it
    expect(checkBatch([call(1)], '1999-01-01', 100)).toBeNull();
    expect(checkBatch([call(50), call(50)], '2025-03-26', 100)).toBeNull();
    expect(checkBatch([call(50), call(51)], undefined, 100)?.status).toBe(400);
    expect(checkBatch([call(500)], '2025-03-26', 100)).toBeNull();
    expect(checkBatch(Array(21).fill({ jsonrpc: '2.0', id: 1, method: 'ping' }), '2025-03-26', 100)?.status).toBe(400);
  });
});
