import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkUrl, OutboundError, outboundDownload, outboundRequest } from './guarded-http';

/** A real local HTTP server on 127.0.0.1; loopback is only reachable with allowPrivate. */
function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    }),
  );
}

const base = { timeoutMs: 2000, maxBytes: 1024, allowPrivate: true };

describe('guarded outbound HTTP', () => {
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://169.254.169.254/latest/meta-data',
    'http://10.1.2.3/',
    'http://[fd00::1]/',
  ])('refuses %s unless private URLs are allowed', (url) => {
    expect(() => checkUrl(url, false)).toThrow(OutboundError);
    expect(() => checkUrl(url, true)).not.toThrow();
  });

  it('refuses non-http schemes and credentials', () => {
    expect(() => checkUrl('file:///etc/passwd', true)).toThrow('only http and https');
    expect(() => checkUrl('ftp://example.com/', true)).toThrow(OutboundError);
    expect(() => checkUrl('http://u:p@example.com/', true)).toThrow('credentials');
  });

  it('refuses a DNS name that resolves to loopback at connect time', async () => {
    const s = await serve((_q, r) => r.end('hi'));
    const port = new URL(s.url).port;
    await expect(outboundRequest(`http://localhost:${port}/`, { ...base, allowPrivate: false })).rejects.toMatchObject({ reason: 'blocked_address' });
    await s.close();
  });

  it('reads a response, does not follow redirects by default, and checks every hop when it does', async () => {
    const s = await serve((q, r) => {
      if (q.url === '/redirect') {
        r.writeHead(302, { location: '/final' }).end();
        return;
      }
      if (q.url === '/to-file') {
        r.writeHead(302, { location: 'file:///etc/passwd' }).end();
        return;
      }
      r.end('final');
    });
    const first = await outboundRequest(`${s.url}/redirect`, base);
    expect(first.status).toBe(302);
    const followed = await outboundRequest(`${s.url}/redirect`, { ...base, maxRedirects: 3 });
    expect(followed.body.toString()).toBe('final');
    await expect(outboundRequest(`${s.url}/to-file`, { ...base, maxRedirects: 3 })).rejects.toMatchObject({ reason: 'bad_url' });
    // a hop that leaves http(s) is refused even when private addresses are allowed
    await s.close();
  });

  it('caps the size and the time', async () => {
    const s = await serve((q, r) => {
      if (q.url === '/big') r.end('x'.repeat(5000));
      else {
        const timer = setTimeout(() => r.end('late'), 1500);
        r.on('close', () => clearTimeout(timer));
      }
    });
    await expect(outboundRequest(`${s.url}/big`, base)).rejects.toMatchObject({ reason: 'too_large' });
    await expect(outboundRequest(`${s.url}/slow`, { ...base, timeoutMs: 300 })).rejects.toMatchObject({ reason: 'timeout' });
    const dir = mkdtempSync(join(tmpdir(), 'dl-'));
    await expect(outboundDownload(`${s.url}/big`, join(dir, 'f'), base)).rejects.toMatchObject({ reason: 'too_large' });
    const ok = await outboundDownload(`${s.url}/big`, join(dir, 'g'), { ...base, maxBytes: 10_000 });
    expect(ok.bytes).toBe(5000);
    expect(readFileSync(join(dir, 'g'), 'utf8')).toHaveLength(5000);
    await s.close();
  });

  it('reuses connections (keep-alive) and never holds the process open with idle ones', async () => {
    let connections = 0;
    const server = http.createServer((_q, r) => r.end('ok'));
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    for (let i = 0; i < 3; i++) expect((await outboundRequest(url, base)).body.toString()).toBe('ok');
    expect(connections).toBe(1);
    await new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  });
});
