import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { PutAndPatch } from '../../core/http/put-and-patch';
import { CheckoutDto, PurchaseFulfillDto, PurchaseUpdateDto } from './dto/purchase.dto';
import { presentPurchaseV1 } from './purchases.presenter';
import { PurchasesService } from './purchases.service';

/**
 * /v1/purchases: the storefront's checkout (POST, CONVENTIONS §11: not in the published document),
 * read, PUT / PATCH (both partial) and fulfil. Reads need `orders:read`; the writes `offers:write`
 * (the catalog has no orders:write; docs/decisions/commerce.md).
 */
@V1()
@Controller('v1/purchases')
export class PurchasesV1Controller {
  constructor(private readonly purchases: PurchasesService) {}

  @Post()
  @HttpCode(201)
  @Scopes('offers:write')
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
    return { redirect_url: redirectUrl, purchase: presentPurchaseV1(purchase) };
  }
}
