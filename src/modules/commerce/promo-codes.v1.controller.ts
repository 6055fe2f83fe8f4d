import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { boolParam, strParam } from '../../core/http/v1-rules';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { Paged, V1_PAGE_CAP, V1Page } from '../../core/pagination/v1-page';
import { PromoCodeCreateDto, PromoCodePatchDto, PromoCodePoolCreateDto, PromoCodePoolPatchDto, PromoCodePoolPutDto, PromoCodePutDto } from './dto/promo-codes.dto';
import { presentPool, presentPoolOffers, presentPromoCode } from './promo-codes.presenter';
import { PromoCodesService } from './promo-codes.service';

/** The body of the attach operation: one `{id}` (an offer's) or a list of them. */
const POOL_OFFER_REF = { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'an offer id' } } };

/** What the pools and the codes share: the controllers' service and the `promo-codes` scopes. */
const PROMO_CODES = { service: PromoCodesService, scopes: 'promo-codes' } as const;

/** /v1/promo-code-pools and their offers (the `promo-codes` family). */
@V1()
@V1Resource<PromoCodesService>({
  ...PROMO_CODES,
  id: 'promo_code_pool_id',
  present: presentPool,
  // filters: `offer_id` (pools attached to that offer), `name` (exact)
  list: { call: (s) => s.listPools, cap: V1_PAGE_CAP.large, filters: (q) => ({ offerId: strParam(q, 'offer_id'), name: strParam(q, 'name') }) },
  create: { call: (s) => s.createPool, body: PromoCodePoolCreateDto },
  read: { call: (s) => s.readPool },
  update: { call: (s) => s.updatePool, body: PromoCodePoolPutDto, patchBody: PromoCodePoolPatchDto },
  remove: { call: (s) => s.deletePool },
})
@Controller('v1/promo-code-pools')
export class PromoCodePoolsV1Controller {
  constructor(private readonly promo: PromoCodesService) {}

  @Get(':promo_code_pool_id/offers')
  @Scopes('promo-codes:read')
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async listPoolOffers(@Auth() p: Principal, @Param('promo_code_pool_id') id: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.promo.listPoolOffers(p, id, page, v1UpdatedSince(query));
    return page.list(rows.map(presentPoolOffers), count);
  }

  @Post(':promo_code_pool_id/offers')
  @Scopes('promo-codes:write')
  @ApiBody({ schema: { oneOf: [POOL_OFFER_REF, { type: 'array', items: POOL_OFFER_REF }] } })
  async attachPoolOffers(@Auth() p: Principal, @Param('promo_code_pool_id') id: string, @Body() body: unknown) {
    return presentPoolOffers(await this.promo.attachPoolOffers(p, id, body));
  }

  @Delete(':promo_code_pool_id/offers/:offer_id')
  @Scopes('promo-codes:write')
  @HttpCode(204)
  async detachPoolOffer(@Auth() p: Principal, @Param('promo_code_pool_id') id: string, @Param('offer_id') offerId: string) {
    await this.promo.detachPoolOffer(p, id, offerId);
  }
}

/** /v1/promo-codes (the `promo-codes` family). */
@V1()
@V1Resource<PromoCodesService>({
  ...PROMO_CODES,
  id: 'promo_code_id',
  present: presentPromoCode,
  // filters: `promo_code_pool_id`, `code` (exact, case-sensitive), `active`
  list: {
    call: (s) => s.listCodes,
    cap: V1_PAGE_CAP.large,
    filters: (q) => ({ poolId: strParam(q, 'promo_code_pool_id'), code: strParam(q, 'code'), active: boolParam(q, 'active') }),
  },
  create: { call: (s) => s.createCode, body: PromoCodeCreateDto },
  read: { call: (s) => s.readCode },
  update: { call: (s) => s.updateCode, body: PromoCodePutDto, patchBody: PromoCodePatchDto },
  remove: { call: (s) => s.deleteCode },
})
@Controller('v1/promo-codes')
export class PromoCodesV1Controller {
  constructor(private readonly promo: PromoCodesService) {}
}
