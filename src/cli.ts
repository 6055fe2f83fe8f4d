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
import { AdminsService, generatePassword } from './modules/organizations/admins.service';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { OrganizationsService } from './modules/organizations/organizations.service';
import { PlanCreateDto } from './modules/plans/dto/plan-write.dto';
import { PlansAdminService } from './modules/plans/plans-admin.service';
import { PlansModule } from './modules/plans/plans.module';
import { presentPlan } from './modules/plans/plans.presenter';
import { seedDemo } from './modules/organizations/seed-demo';

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
    usage: 'cli create-admin --org ORGANIZATION_ID --email EMAIL (--password PASSWORD | --password-stdin | --generate-password)',
    about: 'Create an organization administrator (prints the password only when --generate-password made it).',
  },
  'reset-admin-password': {
    usage: 'cli reset-admin-password --org ORGANIZATION_ID --email EMAIL (--password PASSWORD | --password-stdin | --generate-password)',
    about: "Set an administrator's password.",
  },
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
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
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

  await migrate(config);
  @Module({
    // PlansModule for its entities (the plan reads); the two other services need only the database
    imports: [ConfigModule.forRoot(config), DatabaseModule, OrganizationsModule, DomainsModule, PlansModule],
    providers: [SignupFieldAdminService, GroupCategoriesService],
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
        const out = command === 'create-admin' ? await admins.create(orgId!, values.email!, password!) : await admins.resetPassword(orgId!, values.email!, password!);
        // the password is printed only when this command generated it
        return generated ? { ...out, password } : out;
      }
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
