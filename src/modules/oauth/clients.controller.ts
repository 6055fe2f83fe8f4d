import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { pageDocument, parsePage } from '../../core/pagination/cursor-page';
import { ClientsService } from './clients.service';
import { ClientCreateRequest, ClientUpdateRequest } from './dto/client.dto';
import { V2 } from '../../core/http/interfaces';

@ApiTags('clients')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/clients')
export class ClientsController {
  constructor(
    private readonly clients: ClientsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('clients:read')
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parsePage(query, this.config.APP_SECRET, 'clients');
    const rows = await this.clients.list(p, page);
    return pageDocument(rows, page, (c) => this.clients.present(c), requestBaseUrl(this.config, req), req.url, this.config.APP_SECRET);
  }

  @Post()
  @Scopes('clients:write')
  async create(@Auth() p: Principal, @Body() dto: ClientCreateRequest) {
    const { client, secret } = await this.clients.create(p, dto);
    return { data: this.clients.present(client, secret) };
  }

  @Get(':id')
  @Scopes('clients:read')
  async get(@Auth() p: Principal, @Param('id') id: string) {
    return { data: this.clients.present(await this.clients.get(p, id)) };
  }

  @Patch(':id')
  @Scopes('clients:write')
  async update(@Auth() p: Principal, @Param('id') id: string, @Body() dto: ClientUpdateRequest) {
    return { data: this.clients.present(await this.clients.update(p, id, dto)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('clients:write')
  async deactivate(@Auth() p: Principal, @Param('id') id: string) {
    await this.clients.deactivate(p, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Scopes('clients:write')
  async rotate(@Auth() p: Principal, @Param('id') id: string) {
    const { client, secret } = await this.clients.rotateSecret(p, id);
    return { data: this.clients.present(client, secret) };
  }
}
