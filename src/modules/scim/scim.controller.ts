import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthService } from '../../core/auth/auth.service';
import { Public } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { ApiError } from '../../core/http/api-error';
import { requestBaseUrl } from '../../core/http/base-url';
import { NeutralApi } from '../../core/http/interfaces';
import { ScimError } from './scim.filter';
import { resourceTypes, schemas, serviceProviderConfig } from './scim.discovery';
import { ScimService } from './scim.service';

const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const SCIM_TYPE = 'application/scim+json; charset=utf-8';

/**
 * SCIM 2.0 at /scim/v2/ (CONVENTIONS §19). The organization is the bearer token's (a client made with
 * `scim:write`, or `scim:read` for reads); authentication happens here rather than in the global
 * guard so that every refusal, 401 and 403 included, is in the SCIM error shape (RFC 7644 3.12).
 * The principal is bound to the request as the guard binds it, for the audit log's hook.
 * Discovery (ServiceProviderConfig, ResourceTypes, Schemas) needs no token (RFC 7644 section 4).
 */
@ApiExcludeController()
@NeutralApi()
@Controller('scim/v2')
export class ScimController {
  constructor(
    private readonly scim: ScimService,
    private readonly auth: AuthService,
    private readonly config: AppConfig,
  ) {}

  private async run(req: FastifyRequest, reply: FastifyReply, need: 'read' | 'write', work: (org: string, base: string) => Promise<unknown>, status = 200) {
    try {
      let p: Principal;
      try {
        p = await this.auth.authenticate(req.headers.authorization, false);
      } catch (e) {
        throw new ScimError(401, e instanceof ApiError ? e.detail : 'Authentication failed.');
      }
      const ok = need === 'read' ? p.scopes.has('scim:read') || p.scopes.has('scim:write') : p.scopes.has('scim:write');
      if (!ok) throw new ScimError(403, `This operation needs the scope scim:${need}.`);
      (req as { principal?: Principal }).principal = p;
      const out = await work(p.organizationId, requestBaseUrl(this.config, req));
      if (out === undefined) reply.status(204).send();
      else reply.status(status).header('Content-Type', SCIM_TYPE).send(JSON.stringify(out));
    } catch (e) {
      if (!(e instanceof ScimError)) throw e;
      if (e.status === 401) reply.header('WWW-Authenticate', 'Bearer');
      reply
        .status(e.status)
        .header('Content-Type', SCIM_TYPE)
        .send(JSON.stringify({ schemas: [ERROR_SCHEMA], status: String(e.status), ...(e.scimType ? { scimType: e.scimType } : {}), detail: e.detail }));
    }
  }

  private discovery(req: FastifyRequest, reply: FastifyReply, body: (base: string) => unknown) {
    reply
      .status(200)
      .header('Content-Type', SCIM_TYPE)
      .send(JSON.stringify(body(requestBaseUrl(this.config, req))));
  }

  @Public()
  @Get('ServiceProviderConfig')
  spc(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    this.discovery(req, reply, serviceProviderConfig);
  }

  @Public()
  @Get('ResourceTypes')
  types(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    this.discovery(req, reply, (b) => list(resourceTypes(b)));
  }

  @Public()
  @Get('ResourceTypes/:name')
  type(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('name') name: string) {
    const found = resourceTypes(requestBaseUrl(this.config, req)).find((r) => r.id === name);
    if (!found) return this.notFound(reply, `No resource type ${name}.`);
    this.discovery(req, reply, () => found);
  }

  @Public()
  @Get('Schemas')
  allSchemas(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    this.discovery(req, reply, (b) => list(schemas(b)));
  }

  @Public()
  @Get('Schemas/:id')
  schema(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string) {
    const found = schemas(requestBaseUrl(this.config, req)).find((s) => s.id === id);
    if (!found) return this.notFound(reply, `No schema ${id}.`);
    this.discovery(req, reply, () => found);
  }

  private notFound(reply: FastifyReply, detail: string) {
    reply
      .status(404)
      .header('Content-Type', SCIM_TYPE)
      .send(JSON.stringify({ schemas: [ERROR_SCHEMA], status: '404', detail }));
  }

  @Public()
  @Get('Users')
  listUsers(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Query() q: Record<string, unknown>) {
    return this.run(req, reply, 'read', (org, base) => this.scim.listUsers(org, q ?? {}, base));
  }

  @Public()
  @Get('Users/:id')
  getUser(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string) {
    return this.run(req, reply, 'read', (org, base) => this.scim.getUser(org, id, base));
  }

  @Public()
  @Post('Users')
  createUser(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Body() body: unknown) {
    return this.run(req, reply, 'write', (org, base) => this.scim.createUser(org, body, base), 201);
  }

  @Public()
  @Put('Users/:id')
  replaceUser(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string, @Body() body: unknown) {
    return this.run(req, reply, 'write', (org, base) => this.scim.replaceUser(org, id, body, base));
  }

  @Public()
  @Patch('Users/:id')
  patchUser(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string, @Body() body: unknown) {
    return this.run(req, reply, 'write', (org, base) => this.scim.patchUser(org, id, body, base));
  }

  @Public()
  @Delete('Users/:id')
  deleteUser(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string) {
    return this.run(req, reply, 'write', async (org) => void (await this.scim.deleteUser(org, id)));
  }

  @Public()
  @Get('Groups')
  listGroups(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Query() q: Record<string, unknown>) {
    return this.run(req, reply, 'read', (org, base) => this.scim.listGroups(org, q ?? {}, base));
  }

  @Public()
  @Get('Groups/:id')
  getGroup(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string, @Query() q: Record<string, unknown>) {
    return this.run(req, reply, 'read', (org, base) => this.scim.getGroup(org, id, base, q ?? {}));
  }

  @Public()
  @Post('Groups')
  createGroup(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Body() body: unknown) {
    return this.run(req, reply, 'write', (org, base) => this.scim.createGroup(org, body, base), 201);
  }

  @Public()
  @Put('Groups/:id')
  replaceGroup(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string, @Body() body: unknown) {
    return this.run(req, reply, 'write', (org, base) => this.scim.replaceGroup(org, id, body, base));
  }

  @Public()
  @Patch('Groups/:id')
  patchGroup(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string, @Body() body: unknown) {
    return this.run(req, reply, 'write', async (org) => void (await this.scim.patchGroup(org, id, body)));
  }

  @Public()
  @Delete('Groups/:id')
  deleteGroup(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string) {
    return this.run(req, reply, 'write', async (org) => void (await this.scim.deleteGroup(org, id)));
  }
}

const list = (items: unknown[]) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: items.length, startIndex: 1, itemsPerPage: items.length, Resources: items });
