import 'dotenv/config';
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { AppConfig, loadConfig } from './core/config/config';
import { ConfigModule } from './core/config/config.module';
import { migrate } from './core/database/database';
import { DatabaseModule } from './core/database/database.module';
import { ApiError } from './core/http/api-error';
import { decodeId, encodeId } from './core/ids/ids';
import { DomainsModule } from './modules/domains/domains.module';
import { DomainsService } from './modules/domains/domains.service';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { OrganizationsService } from './modules/organizations/organizations.service';

const USAGE = `usage:
  cli create-org --name NAME [--domain DOMAIN] [--admin-email EMAIL --admin-password PASSWORD]
  cli create-domain --org ORGANIZATION_ID --name DOMAIN [--private]`;

/** Run one CLI command; returns the JSON object to print. */
export async function runCli(argv: string[], config: AppConfig): Promise<object> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      domain: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      org: { type: 'string' },
      private: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (command !== 'create-org' && command !== 'create-domain') throw new ApiError(400, USAGE);
  await migrate(config);
  @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule, OrganizationsModule, DomainsModule] })
  class CliModule {}
  const app = await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
  try {
    if (command === 'create-org') {
      if (!values.name) throw new ApiError(400, `--name is required\n${USAGE}`);
      return await app.get(OrganizationsService).create({
        name: values.name,
        domain: values.domain,
        adminEmail: values['admin-email'],
        adminPassword: values['admin-password'],
      });
    }
    const orgId = decodeId('organization', values.org);
    if (!orgId || !values.name) throw new ApiError(400, `--org (an organization_id) and --name are required\n${USAGE}`);
    const found = await app.get(DomainsService).create(orgId, values.name, { private: values.private });
    return { organization_id: encodeId('organization', orgId), domain_id: encodeId('domain', found.id), domain_name: found.name, access: found.access };
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2), loadConfig())
    .then((out) => {
      process.stdout.write(JSON.stringify(out) + '\n');
      process.exit(0);
    })
    .catch((err) => {
      const message = err instanceof ApiError ? err.detail : err?.code === '23503' ? 'unknown organization' : (err?.message ?? String(err));
      process.stderr.write(JSON.stringify({ error: message }) + '\n');
      process.exit(err instanceof ApiError || err?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? 2 : 1);
    });
}
