import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { AppConfig } from '../../src/core/config/config';

const ROOT = path.resolve(__dirname, '../..');

/**
 * docker-compose.yml (CONVENTIONS §23): parsed with a YAML parser (no Docker engine here, and
 * `docker compose config` needs the compose plugin), checked for the services, health checks and
 * volumes it must have, and against the README section that documents it.
 */
describe('docker-compose.yml and README "Run it with Docker Compose"', () => {
  const text = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
  const compose = parse(text, { merge: true }) as {
    services: Record<
      string,
      {
        build?: string;
        image?: string;
        command?: string[];
        environment?: Record<string, string>;
        healthcheck?: { test: unknown };
        depends_on?: Record<string, { condition: string }>;
        volumes?: string[];
        ports?: string[];
      }
    >;
    volumes: Record<string, unknown>;
  };
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Run it with Docker Compose'), readme.indexOf('\n## ', readme.indexOf('## Run it with Docker Compose') + 5));

  it('starts PostgreSQL, Redis, the API and the worker, each with a health check', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'postgres', 'redis', 'worker']);
    for (const s of Object.values(compose.services)) expect(s.healthcheck?.test).toBeDefined();
    expect(compose.services.postgres.image).toMatch(/^postgres:1[5-9]/);
    expect(compose.services.redis.image).toMatch(/^redis:[7-9]/);
  });

  it('builds the API and the worker from the Dockerfile, waiting for healthy PostgreSQL and Redis', () => {
    for (const name of ['api', 'worker']) {
      const s = compose.services[name];
      expect(s.build).toBe('.');
      expect(s.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    }
    expect(compose.services.api.command).toEqual(['node', 'dist/src/main.js']);
    expect(compose.services.worker.command).toEqual(['node', 'dist/src/worker.js']);
    expect(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')).toMatch(/COPY --from=build .*\/app\/dist \.\/dist/);
  });

  it('keeps its data in named volumes', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['appdata', 'pgdata', 'redisdata']);
    expect(compose.services.postgres.volumes).toContain('pgdata:/var/lib/postgresql/data');
    expect(compose.services.api.volumes).toContain('appdata:/app/data');
    expect(compose.services.worker.volumes).toContain('appdata:/app/data');
  });

  it('gives the processes only settings they know, pointing at the compose services', () => {
    const known = new Set(Object.keys(new AppConfig()).concat(['METRICS_TOKEN', 'PUBLIC_URL']));
    for (const name of ['api', 'worker']) {
      const env = compose.services[name].environment!;
      for (const key of Object.keys(env)) expect({ key, known: known.has(key) }).toEqual({ key, known: true });
      expect(env.DATABASE_URL).toMatch(/@postgres:5432\/course_platform$/);
      expect(env.APP_DATABASE_URL).toMatch(/^postgres:\/\/course_platform_app:.+@postgres:5432\/course_platform$/);
      expect(env.REDIS_URL).toBe('redis://redis:6379');
      expect(env.NODE_ENV).toBe('production');
    }
    expect(compose.services.worker.environment!.METRICS_PORT).toBe('9464');
  });

  it('the README section names every variable the file reads, and the file reads every variable the README gives', () => {
    const read = new Set([...text.matchAll(/\$\{([A-Z_]+)[:?}-]/g)].map((m) => m[1]));
    const documented = new Set([...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]));
    expect([...documented].sort()).toEqual([...read].sort());
    expect(section).toContain('docker compose up');
    expect(section).toContain('seed-demo');
  });
});
