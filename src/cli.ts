import 'dotenv/config';
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { plainToInstance } from 'class-transformer';
import { parseArgs } from 'node:util';
import type { Principal } from './core/auth/principal';
import { AppConfig, loadConfig } from './core/config/config';
import { ConfigModule } from './core/config/config.module';
import { migrate } from './core/database/database';
import { DatabaseModule } from './core/database/database.module';
import { ApiError } from './core/http/api-error';
import { validateWhitelisted } from './core/http/fast-validate';
import { toProblems } from './core/http/validation.pipe';
import { decodeId, encodeId } from './core/ids/ids';
import { SignupFieldCreateDto } from './modules/domain-users/dto/signup-field.dto';
import { SignupFieldAdminService } from './modules/domain-users/signup-field-admin.service';
import { DomainsModule } from './modules/domains/domains.module';
import { DomainsService } from './modules/domains/domains.service';
import { GroupCategoryDto } from './modules/groups/dto/group-category.dto';
import { GroupCategoriesService } from './modules/groups/group-categories.service';
import { presentGroupCategory } from './modules/groups/groups.v1.presenter';
import { AdminsService, generatePassword, presentAdmin } from './modules/organizations/admins.service';
import { AdminRolesService } from './modules/organizations/admin-roles.service';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { OrganizationOAuthModule } from './modules/auth/organization-oauth.module';
import { OrganizationsService } from './modules/organizations/organizations.service';
import { PlanCreateDto } from './modules/plans/dto/plan-write.dto';
import { PlansAdminService } from './modules/plans/plans-admin.service';
import { PlansModule } from './modules/plans/plans.module';
import { SsoConfigService } from './modules/sso/sso-config.service';
import { readFileSync } from 'node:fs';
import { presentPlan } from './modules/plans/plans.presenter';
import { seedDemo } from './seed-demo';

/** Each command: its synopsis and what it does, for `cli --help` and `cli COMMAND --help` (plain text). */
const HELP: Record<string, { usage: string; about: string }> = {
  'create-org': {
    usage: 'cli create-org --name NAME [--domain DOMAIN] [--admin-email EMAIL --admin-password PASSWORD]',
    about:
      'Create an organization with a client and an API key holding every scope, and one public domain\n(--domain, default derived from the name). --admin-email/--admin-password also create an\nadministrator who can sign in on the authorization page.',
  },
  'create-domain': { usage: 'cli create-domain --org ORGANIZATION_ID --name DOMAIN [--private]', about: 'Add a domain (public unless --private) to an organization.' },
  'create-signup-field': {
    usage: 'cli create-signup-field --org ORGANIZATION_ID --domain DOMAIN --label LABEL [--type TEXT|PICKLIST|CHECKBOX] [--option VALUE]... [--required] [--help-text TEXT] [--order N]',
    about: "Add a field to a domain's sign-up form (PICKLIST when --option is given).",
  },
  'create-plan': {
    usage: 'cli create-plan --org ORGANIZATION_ID --domain DOMAIN --name NAME [--slug SLUG] [--hidden] [--short-description TEXT] [--published-course ID]... [--published-path ID]...',
    about: 'Create a plan on a domain, with the published courses and paths it includes.',
  },
  'seed-demo': {
    usage: 'cli seed-demo [--name NAME]',
    about:
      'Create a demo organization to try every interface on: courses with lessons of every kind, a published\ncatalog, learners with enrollments and progress, a path, a group, an inactive webhook. Prints its\ncredentials (client, API key, administrator sign-in), what it made and anything it could not make.\nNeeds PostgreSQL and Redis, as the API does.',
  },
  'create-group-category': { usage: 'cli create-group-category --org ORGANIZATION_ID --name NAME', about: 'Create a group category.' },
  'create-admin': {
    usage: 'cli create-admin --org ORGANIZATION_ID --email EMAIL (--password PASSWORD | --password-stdin | --generate-password) [--role ROLE]',
    about: 'Create an organization administrator with a role (default owner; prints the password only when --generate-password made it).',
  },
  'reset-admin-password': {
    usage: 'cli reset-admin-password --org ORGANIZATION_ID --email EMAIL (--password PASSWORD | --password-stdin | --generate-password)',
    about: "Set an administrator's password.",
  },
  'list-admins': { usage: 'cli list-admins --org ORGANIZATION_ID', about: "List an organization's administrators and their roles." },
  'set-admin-role': { usage: 'cli set-admin-role --org ORGANIZATION_ID --email EMAIL --role ROLE', about: "Change an administrator's role (the last owner cannot be demoted)." },
  'remove-admin': { usage: 'cli remove-admin --org ORGANIZATION_ID --email EMAIL', about: 'Remove an administrator and revoke the tokens they approved (not the last owner).' },
  'list-roles': { usage: 'cli list-roles --org ORGANIZATION_ID', about: 'List the built-in and custom administrator roles with their scopes.' },
  'create-role': { usage: 'cli create-role --org ORGANIZATION_ID --name NAME --scope CODENAME [--scope CODENAME]...', about: 'Create a custom administrator role as a set of scopes.' },
  'set-role-scopes': { usage: 'cli set-role-scopes --org ORGANIZATION_ID --name NAME --scope CODENAME [--scope CODENAME]...', about: "Replace a custom role's scopes." },
  'delete-role': { usage: 'cli delete-role --org ORGANIZATION_ID --name NAME', about: 'Delete a custom role that no administrator holds.' },
  'show-sso': { usage: 'cli show-sso --org ORGANIZATION_ID', about: "Show the organization's single sign-on configuration (secrets never shown)." },
  'set-sso': {
    usage:
      'cli set-sso --org ORGANIZATION_ID --protocol oidc --issuer URL --client-id ID (--client-secret SECRET | --client-secret-stdin) [--jit] [--default-role ROLE]\n   or: cli set-sso --org ORGANIZATION_ID --protocol saml --idp-entity-id ID --idp-sso-url URL --idp-certificate-file PEM_FILE [--jit] [--default-role ROLE]',
    about: "Configure administrator sign-in through the organization's identity provider (OIDC or SAML).",
  },
  'remove-sso': { usage: 'cli remove-sso --org ORGANIZATION_ID', about: "Remove the organization's single sign-on configuration." },
};

const COMMANDS = Object.keys(HELP);

/** Exit statuses (README "The CLI"). */
export const CLI_EXIT_TEXT = `Exit status:
  0  done: one line of JSON on standard output (help: the text asked for)
  1  failed (the database unreachable, an unexpected error): one line of JSON {"error": ...} on standard error
  2  refused (no or an unknown command, an unknown option, a missing or invalid value, a name already
     taken): one line of JSON {"error": ...} on standard error (no command: this help); nothing was changed`;

/** `cli --help`: every command, plain text. */
export function overallHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.length));
  return [
    'usage: npm run --silent cli -- COMMAND [options]',
    '',
    'Administrative commands of the course platform. Each prints one line of JSON when it succeeds.',
    'Settings (DATABASE_URL, APP_DATABASE_URL, ...) come from the environment and .env, as for the API.',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.padEnd(width)}  ${HELP[c].about.split(/\.\s|\n|\.$/)[0]}`),
    '',
    "Run 'npm run --silent cli -- COMMAND --help' for a command's options.",
    '',
    CLI_EXIT_TEXT,
    '',
  ].join('\n');
}

/** `cli COMMAND --help`: its synopsis and what it does, plain text. */
export function commandHelp(command: string): string {
  const h = HELP[command];
  return [`usage: ${h.usage.replace(/^cli /, 'npm run --silent cli -- ')}`, '', h.about, '', CLI_EXIT_TEXT, ''].join('\n');
}

/** What to point at after a usage mistake. */
const seeHelp = (command?: string) => (command && HELP[command] ? `; see cli ${command} --help` : '; see cli --help');
const USAGE = 'usage: cli COMMAND [options]';

/** The request body a command builds, validated by the same DTO (and rules) as the API's. */
function validated<T extends object>(cls: new () => T, body: Record<string, unknown>): T {
  const instance = plainToInstance(cls, body, { enableImplicitConversion: false, exposeDefaultValues: true });
  const problems = toProblems(validateWhitelisted(instance), 'body');
  if (problems.length) throw new ApiError(400, problems.map((p) => `${p.field}: ${p.v1?.messages[0] ?? p.message}`).join('; '));
  return instance;
}

/** Read a password from standard input (one line, the line break dropped). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Run one CLI command; returns the JSON object to print. */
export async function runCli(argv: string[], config: AppConfig, io: { stdin?: () => Promise<string> } = {}): Promise<object> {
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
      label: { type: 'string' },
      type: { type: 'string' },
      option: { type: 'string', multiple: true },
      required: { type: 'boolean', default: false },
      'help-text': { type: 'string' },
      order: { type: 'string' },
      slug: { type: 'string' },
      hidden: { type: 'boolean', default: false },
      'short-description': { type: 'string' },
      'published-course': { type: 'string', multiple: true },
      'published-path': { type: 'string', multiple: true },
      email: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      'generate-password': { type: 'boolean', default: false },
      role: { type: 'string' },
      scope: { type: 'string', multiple: true },
      protocol: { type: 'string' },
      issuer: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      'client-secret-stdin': { type: 'boolean', default: false },
      'idp-entity-id': { type: 'string' },
      'idp-sso-url': { type: 'string' },
      'idp-certificate-file': { type: 'string' },
      jit: { type: 'boolean', default: false },
      'default-role': { type: 'string' },
    },
    strict: true,
  });
  if (!COMMANDS.includes(command)) throw new ApiError(400, command ? `unknown command '${command}' (${USAGE})${seeHelp()}` : `no command given (${USAGE})${seeHelp()}`);
  // the demo runs the API in-process and builds the organization through its routes (seed-demo.ts)
  if (command === 'seed-demo') return seedDemo(loadConfig(process.env, { LOG_LEVEL: 'silent' } as Partial<AppConfig>), { name: values.name });
  const orgId = command === 'create-org' ? null : decodeId('organization', values.org);
  if (command !== 'create-org' && !orgId) {
    // given but not an organization id (a typo, another id, a client id): say so rather than "required"
    if (values.org) throw new ApiError(400, `--org: "${values.org}" is not an organization id (the organization_id that create-org printed, e.g. org...)`);
    throw new ApiError(400, `--org (an organization_id) is required${seeHelp(command)}`);
  }

  // checked before anything connects or is written
  if (command === 'create-org' && !values.name) throw new ApiError(400, `--name is required${seeHelp(command)}`);
  let password: string | undefined;
  let generated = false;
  if (command === 'create-admin' || command === 'reset-admin-password') {
    if (!values.email) throw new ApiError(400, `--email is required${seeHelp(command)}`);
    const sources = [values.password !== undefined, values['password-stdin'], values['generate-password']].filter(Boolean).length;
    if (sources !== 1) throw new ApiError(400, `give exactly one of --password, --password-stdin, --generate-password${seeHelp(command)}`);
    if (values['generate-password']) {
      password = generatePassword();
      generated = true;
    } else password = values['password-stdin'] ? await (io.stdin ?? readStdin)() : values.password;
  }
  let ssoBody: Record<string, unknown> | undefined;
  if (command === 'set-sso') {
    let certificate: string | undefined;
    if (values['idp-certificate-file']) {
      try {
        certificate = readFileSync(values['idp-certificate-file'], 'utf8');
      } catch {
        throw new ApiError(400, `--idp-certificate-file: cannot read "${values['idp-certificate-file']}"`);
      }
    }
    ssoBody = {
      protocol: values.protocol,
      issuer: values.issuer,
      client_id: values['client-id'],
      client_secret: values['client-secret-stdin'] ? await (io.stdin ?? readStdin)() : values['client-secret'],
      idp_entity_id: values['idp-entity-id'],
      idp_sso_url: values['idp-sso-url'],
      idp_certificate: certificate,
      jit: values.jit,
      default_role: values['default-role'],
    };
  }

  await migrate(config);
  @Module({
    // PlansModule for its entities (the plan reads); the two other services need only the database;
    // OrganizationOAuthModule: the bootstrap client and the revocations organizations asks for
    imports: [ConfigModule.forRoot(config), DatabaseModule, OrganizationsModule, OrganizationOAuthModule, DomainsModule, PlansModule],
    providers: [SignupFieldAdminService, GroupCategoriesService, SsoConfigService],
  })
  class CliModule {}
  const app = await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
  // the services take the caller: here the operator, acting for the organization named by --org
  const operator: Principal = { organizationId: orgId ?? '', clientId: null, subject: 'cli', scopes: new Set(), kind: 'api_key' };
  const unknownDomain = (e: unknown) => {
    if (e instanceof ApiError && e.status === 404) throw new ApiError(400, `--domain: the organization has no domain "${values.domain}"`);
    throw e;
  };
  try {
    switch (command) {
      case 'create-org': {
        if (!values.name) throw new ApiError(400, `--name is required${seeHelp(command)}`);
        return await app.get(OrganizationsService).create({
          name: values.name,
          domain: values.domain,
          adminEmail: values['admin-email'],
          adminPassword: values['admin-password'],
        });
      }
      case 'create-domain': {
        if (!values.name) throw new ApiError(400, `--org (an organization_id) and --name are required${seeHelp(command)}`);
        const found = await app.get(DomainsService).create(orgId!, values.name, { private: values.private });
        return { organization_id: encodeId('organization', orgId!), domain_id: encodeId('domain', found.id), domain_name: found.name, access: found.access };
      }
      case 'create-signup-field': {
        if (!values.domain) throw new ApiError(400, `--domain is required${seeHelp(command)}`);
        const order = values.order === undefined ? undefined : /^\d{1,10}$/.test(values.order) ? Number(values.order) : NaN;
        if (Number.isNaN(order)) throw new ApiError(400, '--order must be a whole number');
        const dto = validated(SignupFieldCreateDto, {
          label: values.label,
          type: values.type ?? (values.option?.length ? 'PICKLIST' : undefined),
          options: values.option?.map((value) => ({ value })),
          required: values.required,
          help_text: values['help-text'],
          order,
        });
        const field = await app.get(SignupFieldAdminService).create(operator, values.domain, dto).catch(unknownDomain);
        return { organization_id: encodeId('organization', orgId!), domain_name: values.domain.toLowerCase(), signup_field: field };
      }
      case 'create-plan': {
        if (!values.domain) throw new ApiError(400, `--domain is required${seeHelp(command)}`);
        const dto = validated(PlanCreateDto, {
          name: values.name,
          slug: values.slug,
          hidden: values.hidden,
          short_description: values['short-description'],
          published_courses: values['published-course']?.map((id) => ({ id })),
          published_paths: values['published-path']?.map((id) => ({ id })),
        });
        const plan = await app.get(PlansAdminService).create(operator, values.domain, dto).catch(unknownDomain);
        return { organization_id: encodeId('organization', orgId!), domain_name: plan.domainName, plan: presentPlan(plan) };
      }
      case 'create-group-category': {
        const dto = validated(GroupCategoryDto, { name: values.name });
        const row = await app.get(GroupCategoriesService).create(orgId!, dto);
        return { organization_id: encodeId('organization', orgId!), group_category: presentGroupCategory(row) };
      }
      case 'create-admin':
      case 'reset-admin-password': {
        const admins = app.get(AdminsService);
        const out = command === 'create-admin' ? await admins.create(orgId!, values.email!, password!, values.role ?? 'owner') : await admins.resetPassword(orgId!, values.email!, password!);
        // the password is printed only when this command generated it
        return generated ? { ...out, password } : out;
      }
      // administrators and roles (CONVENTIONS §19): the same services as /v1/admins and /v1/admin-roles
      case 'list-admins': {
        const { rows } = await app.get(AdminsService).list(orgId!, { page: 1, pageSize: 1000, offset: 0 });
        return { organization_id: encodeId('organization', orgId!), admins: rows.map(presentAdmin) };
      }
      case 'set-admin-role':
      case 'remove-admin': {
        if (!values.email) throw new ApiError(400, `--email is required\n${USAGE}`);
        const admins = app.get(AdminsService);
        const id = await admins.idByEmail(orgId!, values.email);
        if (command === 'remove-admin') {
          await admins.remove('cli', id, orgId!);
          return { organization_id: encodeId('organization', orgId!), removed: id };
        }
        if (!values.role) throw new ApiError(400, `--role is required\n${USAGE}`);
        return { organization_id: encodeId('organization', orgId!), admin: presentAdmin(await admins.update('cli', id, { role: values.role }, orgId!)) };
      }
      case 'list-roles': {
        const { rows } = await app.get(AdminRolesService).list(orgId!, { page: 1, pageSize: 1000, offset: 0 });
        return { organization_id: encodeId('organization', orgId!), roles: rows };
      }
      case 'create-role':
      case 'set-role-scopes':
      case 'delete-role': {
        if (!values.name) throw new ApiError(400, `--name is required\n${USAGE}`);
        const roles = app.get(AdminRolesService);
        if (command === 'delete-role') {
          await roles.remove('cli', values.name, orgId!);
          return { organization_id: encodeId('organization', orgId!), deleted: values.name };
        }
        const scopes = values.scope ?? [];
        const role = command === 'create-role' ? await roles.create('cli', { name: values.name, scopes }, orgId!) : await roles.update('cli', values.name, { scopes }, orgId!);
        return { organization_id: encodeId('organization', orgId!), role };
      }
      // the organization's identity provider (CONVENTIONS §19): the same service as /v1/organization/sso
      case 'show-sso':
        return { organization_id: encodeId('organization', orgId!), sso: await app.get(SsoConfigService).get({ organizationId: orgId! }) };
      case 'set-sso':
        return { organization_id: encodeId('organization', orgId!), sso: await app.get(SsoConfigService).put('cli', ssoBody, orgId!) };
      case 'remove-sso':
        await app.get(SsoConfigService).remove({ organizationId: orgId! });
        return { organization_id: encodeId('organization', orgId!), sso: null };
    }
    throw new ApiError(400, `${USAGE}${seeHelp()}`);
  } finally {
    await app.close();
  }
}

/** `--help`, `-h` or `help [COMMAND]`: the help asked for, as plain text (null: no help asked). */
export function helpAsked(argv: string[]): string | null {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    const topic = command === 'help' ? rest[0] : undefined;
    return topic && HELP[topic] ? commandHelp(topic) : overallHelp();
  }
  if (HELP[command] && (rest.includes('--help') || rest.includes('-h'))) return commandHelp(command);
  return null;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const help = helpAsked(argv);
  if (help !== null) {
    // no command at all is a usage mistake: the help on standard error, status 2
    (argv.length ? process.stdout : process.stderr).write(help);
    process.exit(argv.length ? 0 : 2);
  }
  runCli(argv, loadConfig())
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
