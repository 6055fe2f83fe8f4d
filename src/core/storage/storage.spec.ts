import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config';
import { DiskStorage, signedFileUrl, verifyFileSignature } from './storage';

const streamText = async (s: NodeJS.ReadableStream) => {
  let out = '';
  for await (const c of s) out += c.toString();
  return out;
};

describe('disk storage', () => {
  it('stores, reads, stats and deletes by prefix', async () => {
    const st = new DiskStorage(mkdtempSync(join(tmpdir(), 'st-')));
    await st.putBuffer('org/a/file.txt', Buffer.from('hello'));
    expect(await st.stat('org/a/file.txt')).toEqual({ size: 5 });
    expect(await streamText((await st.read('org/a/file.txt'))!)).toBe('hello');
    await st.deletePrefix('org/a');
    expect(await st.read('org/a/file.txt')).toBeNull();
  });

  it('refuses keys that escape the root', async () => {
    const st = new DiskStorage(mkdtempSync(join(tmpdir(), 'st-')));
    await expect(st.putBuffer('../evil', Buffer.from('x'))).rejects.toThrow('invalid storage key');
    await expect(st.putBuffer('a/../../evil', Buffer.from('x'))).rejects.toThrow('invalid storage key');
    await expect(st.putBuffer('/abs', Buffer.from('x'))).rejects.toThrow('invalid storage key');
  });
});

describe('signed file URLs', () => {
  const config = loadConfig({}, { SIGNED_URL_TTL: 3600 });
  it('verify for 3600 s and refuse edits and expiry', () => {
    const url = new URL(signedFileUrl(config, 'org/x/a.bin', 'http://h:8080/', 1_000_000));
    expect(url.origin + url.pathname).toBe('http://h:8080/files/org/x/a.bin');
    const e = url.searchParams.get('expires')!;
    const s = url.searchParams.get('signature')!;
    expect(Number(e)).toBe(1000 + 3600);
    expect(verifyFileSignature(config, 'org/x/a.bin', e, s, 1_000_000)).toBe(true);
    expect(verifyFileSignature(config, 'org/x/b.bin', e, s, 1_000_000)).toBe(false);
    expect(verifyFileSignature(config, 'org/x/a.bin', String(Number(e) + 1), s, 1_000_000)).toBe(false);
    expect(verifyFileSignature(config, 'org/x/a.bin', e, s, (Number(e) + 1) * 1000)).toBe(false);
  });
});
