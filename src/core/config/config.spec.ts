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

  it("APP_DATABASE_URL: by default DATABASE_URL's server and database as course_platform_app, without a password", () => {
    expect(loadConfig({}).APP_DATABASE_URL).toBe('postgres://course_platform_app@127.0.0.1:5432/course_platform');
    expect(loadConfig({ DATABASE_URL: 'postgres://owner:secret@db.internal:6543/lms?sslmode=require' }).APP_DATABASE_URL).toBe('postgres://course_platform_app@db.internal:6543/lms?sslmode=require');
    // derived after the overrides (the tests' own databases)
    expect(loadConfig({}, { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/other' }).APP_DATABASE_URL).toBe('postgres://course_platform_app@127.0.0.1:5432/other');
    expect(loadConfig({ APP_DATABASE_URL: 'postgres://app:pw@127.0.0.1/cp' }).APP_DATABASE_URL).toBe('postgres://app:pw@127.0.0.1/cp');
  });

  it('APP_DATABASE_URL: refused without a role or when not a postgres URL; required in production when DATABASE_URL has a password', () => {
    expect(() => loadConfig({ APP_DATABASE_URL: 'postgres://127.0.0.1/cp' })).toThrow(/APP_DATABASE_URL: must name its role/);
    expect(() => loadConfig({ APP_DATABASE_URL: 'mysql://app@127.0.0.1/cp' })).toThrow(/APP_DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ DATABASE_URL: 'nonsense' })).toThrow(/DATABASE_URL: not a URL/);
    const prod = { NODE_ENV: 'production', APP_SECRET: 'a-real-secret-of-enough-length' };
    expect(() => loadConfig({ ...prod, DATABASE_URL: 'postgres://owner:secret@db/cp' })).toThrow(/APP_DATABASE_URL must be set in production/);
    expect(loadConfig({ ...prod, DATABASE_URL: 'postgres://owner:secret@db/cp', APP_DATABASE_URL: 'postgres://app:other@db/cp' }).APP_DATABASE_URL).toBe('postgres://app:other@db/cp');
    expect(loadConfig({ ...prod, DATABASE_URL: 'postgres://postgres@db/cp' }).APP_DATABASE_URL).toBe('postgres://course_platform_app@db/cp');
  });
});
