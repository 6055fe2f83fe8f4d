import { AppConfig, ConfigError, issuerUrl, loadConfig } from './config';

describe('loadConfig', () => {
  it('gives every setting its documented default from an empty environment', () => {
    const c = loadConfig({});
    expect(c).toBeInstanceOf(AppConfig);
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/course_platform');
    expect(c.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(c.CLEANUP_INTERVAL_SECONDS).toBe(300);
    expect(c.ALLOW_PRIVATE_URLS).toBe(false);
  });

  it('PUBLIC_URL is optional; the issuer is PUBLIC_URL or http://localhost:${PORT}', () => {
    expect(loadConfig({}).PUBLIC_URL).toBeUndefined();
    expect(issuerUrl(loadConfig({}))).toBe('http://localhost:3000');
    expect(issuerUrl(loadConfig({ PORT: '8080' }))).toBe('http://localhost:8080');
    expect(issuerUrl(loadConfig({ PORT: '8080', PUBLIC_URL: '' }))).toBe('http://localhost:8080');
    expect(issuerUrl(loadConfig({ PORT: '8080', PUBLIC_URL: 'https://api.example.com' }))).toBe('https://api.example.com');
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://api.example.com' })).toThrow(/PUBLIC_URL/);
  });

  it('converts numbers and booleans from their string form', () => {
    const c = loadConfig({ PORT: '8080', ALLOW_PRIVATE_URLS: 'true', TRUST_PROXY: '1', WORKER_CONCURRENCY: '4' });
    expect(c.PORT).toBe(8080);
    expect(c.ALLOW_PRIVATE_URLS).toBe(true);
    expect(c.TRUST_PROXY).toBe(true);
    expect(c.WORKER_CONCURRENCY).toBe(4);
  });

  it('refuses an invalid setting with a message naming it', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/Invalid configuration:\n\s+PORT: /);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT: .*65535/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ APP_SECRET: 'short' })).toThrow(/APP_SECRET/);
  });

  it('names every invalid setting at once', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'abc', CLEANUP_INTERVAL_SECONDS: '0' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/CLEANUP_INTERVAL_SECONDS/);
  });

  it('refuses production without its own APP_SECRET', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/APP_SECRET must be set in production/);
    const c = loadConfig({ NODE_ENV: 'production', APP_SECRET: 'a-real-secret-of-enough-length' });
    expect(c.NODE_ENV).toBe('production');
  });

  it('ignores empty values and unknown variables', () => {
    const c = loadConfig({ PORT: '', SOMETHING_ELSE: 'x' });
    expect(c.PORT).toBe(3000);
    expect((c as unknown as Record<string, unknown>).SOMETHING_ELSE).toBeUndefined();
  });

  it('applies overrides after the environment', () => {
    expect(loadConfig({ PORT: '8080' }, { PORT: 9090 }).PORT).toBe(9090);
    expect(() => loadConfig({}, { PORT: -1 })).toThrow(/PORT/);
  });
});
