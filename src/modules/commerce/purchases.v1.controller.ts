import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiExtension, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { IdempotencyService } from '../../core/idempotency/idempotency.service';
import { V1 } from '../../core/http/interfaces';
import { openApi } from '../../core/openapi/declared-shape';
import { PutAndPatch } from '../../core/http/put-and-patch';
import { CheckoutDto, PurchaseFulfillDto, PurchaseUpdateDto } from './dto/purchase.dto';
import { MAX_QUANTITY } from './offers.presenter';
import { PAYMENT_PROCESSORS } from './purchases.store';
import { presentFulfillment, presentPurchaseV1, PurchaseV1Schema } from './purchases.presenter';
import { PURCHASE_ANSWER, PurchasesService } from './purchases.service';

/**
 * /v1/purchases: the storefront's checkout (POST, CONVENTIONS §11: not in the published document),
 * read, PUT / PATCH (both partial) and fulfil. Reads need `orders:read`; the writes `offers:write`
 * (the catalog has no orders:write; docs/decisions/commerce.md).
 */
@V1()
@Controller('v1/purchases')
export class PurchasesV1Controller {
  constructor(
    private readonly purchases: PurchasesService,
    idem: IdempotencyService,
  ) {
    // a keyed checkout whose process died after its commit, before its answer was stored: the retry
    // answers the purchase it created, as the checkout answers it (docs/decisions/idempotency.md)
    idem.registerRebuilder(PURCHASE_ANSWER, async (organizationId, id) => {
      const row = await this.purchases.readByUuid(organizationId, id);
      return row ? { status: 201, body: presentPurchaseV1(row) } : null;
    });
  }

  @Post()
  @HttpCode(201)
  @Scopes('offers:write')
  @ApiExtension('x-extension', true)
  @ApiOperation({
    description:
      'Extension (not in the published API): the storefront checkout (CONVENTIONS §11). The server computes every price member ' +
      '(offer price x quantity, promo code, best group discount_percent, training credits, tax) and answers 201 with the published ' +
      'Purchase in state CREATED, or SUCCESS at once when the price is 0.',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['user', 'offer_id'],
      properties: {
        user: {
          description: '{"id"} of a user of the organization, or {"email", "first_name", "last_name"} (found by e-mail, created when new)',
          type: 'object',
          properties: { id: { type: 'string' }, email: { type: 'string', format: 'email' }, first_name: { type: 'string', maxLength: 50 }, last_name: { type: 'string', maxLength: 50 } },
        },
        offer_id: { type: 'string', description: 'a live offer whose registration is open' },
        quantity: { type: 'integer', minimum: 1, maximum: MAX_QUANTITY, default: 1 },
        promo_code: { type: 'string', nullable: true, description: 'a promo code (case-sensitive)' },
        training_credit_code: { type: 'string', nullable: true },
        payment_processor: { type: 'string', enum: [...PAYMENT_PROCESSORS], default: 'NONE' },
        payment_processor_order_id: { type: 'string', maxLength: 255 },
        tax_price_cents: { type: 'integer', minimum: 0, nullable: true, default: 0 },
      },
    },
  })
  @ApiResponse({ status: 201, description: 'The published Purchase, with the computed discounts (extensions)', schema: openApi(PurchaseV1Schema) })
  async checkout(@Auth() p: Principal, @Body() dto: CheckoutDto) {
    return presentPurchaseV1(await this.purchases.checkout(p, dto));
  }

  @Get(':purchase_id')
  @Scopes('orders:read')
  async retrieve(@Auth() p: Principal, @Param('purchase_id') id: string) {
    return presentPurchaseV1(await this.purchases.read(p, id));
  }

  @PutAndPatch(':purchase_id')
  @Scopes('offers:write')
  async update(@Auth() p: Principal, @Param('purchase_id') id: string, @Body() dto: PurchaseUpdateDto) {
    return presentPurchaseV1(await this.purchases.update(p, id, dto));
  }

  @Post(':purchase_id/fulfill')
  @HttpCode(200)
  @Scopes('offers:write')
  async fulfill(@Auth() p: Principal, @Param('purchase_id') id: string, @Body() dto: PurchaseFulfillDto) {
    const { purchase, redirectUrl } = await this.purchases.fulfil(p, id, dto);
    return presentFulfillment(purchase, redirectUrl);
  }
}
