import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V2 } from '../../core/http/interfaces';
import { ScopedRoutes } from '../../core/routes/scoped-routes';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { v2ChangeOf, V2UpdatedSinceQuery, v2UpdatedSince } from '../../core/pagination/v2-updated-since';
import type { OAuthClient } from './oauth.entities';
import { ClientSchema, ClientsService } from './clients.service';
import { openApi, V2DocumentSchema, V2PageSchema } from '../../core/openapi/declared-shape';
import { ClientCreateRequest, ClientUpdateRequest } from './dto/client.dto';

const route = ScopedRoutes('clients');

@ApiTags('clients')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/clients')
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  @route.get()
  @ApiOkResponse({ description: "A page of the organization's clients", schema: openApi(V2PageSchema(ClientSchema)) })
  @V2UpdatedSinceQuery()
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('clients', { document: false }) page: V2Page) {
    const since = v2UpdatedSince(query);
    const rows = await this.clients.list(p, page, since);
    const present = (c: OAuthClient) => this.clients.present(c);
    return since ? page.documentAt(rows, present, v2ChangeOf) : page.document(rows, present);
  }

  @route.post()
  @ApiResponse({ status: 201, description: 'The client, with its secret (shown this once)', schema: openApi(V2DocumentSchema(ClientSchema)) })
  async create(@Auth() p: Principal, @Body() dto: ClientCreateRequest) {
    return this.document(await this.clients.create(p, dto));
  }

  @route.get(':id')
  @ApiOkResponse({ description: 'The client', schema: openApi(V2DocumentSchema(ClientSchema)) })
  async get(@Auth() p: Principal, @Param('id') id: string) {
    return this.document({ client: await this.clients.get(p, id) });
  }

  @route.patch(':id')
  @ApiOkResponse({ description: 'The updated client', schema: openApi(V2DocumentSchema(ClientSchema)) })
  async update(@Auth() p: Principal, @Param('id') id: string, @Body() dto: ClientUpdateRequest) {
    return this.document({ client: await this.clients.update(p, id, dto) });
  }

  @route.delete(':id', 204)
  async deactivate(@Auth() p: Principal, @Param('id') id: string) {
    await this.clients.deactivate(p, id);
  }

  @route.post(':id/rotate-secret', 200)
  @ApiOkResponse({ description: 'The client, with its new secret (shown this once)', schema: openApi(V2DocumentSchema(ClientSchema)) })
  async rotate(@Auth() p: Principal, @Param('id') id: string) {
    return this.document(await this.clients.rotateSecret(p, id));
  }

  /** The client's document, with its secret when this request made one (create, rotate-secret: shown this once). */
  private document({ client, secret }: { client: OAuthClient; secret?: string }) {
    return { data: this.clients.present(client, secret) };
  }
}
