import { Module } from '@nestjs/common';
import { OffersV1Service } from './offers-v1.service';
import { OffersV1Controller } from './offers.v1.controller';
import { PurchasesService } from './purchases.service';
import { PurchasesV1Controller } from './purchases.v1.controller';

/**
 * Commerce (issue 11): offers, checkout and purchases (this module's core), and the limits checkout
 * enforces (promo codes, training credits, license packages: their controllers and providers are
 * added here or in their own module by their files' owners). See docs/decisions/commerce.md.
 * What fulfilment grants (domain memberships, enrollments) comes from the root's PurchaseGrantsModule.
 */
@Module({
  controllers: [OffersV1Controller, PurchasesV1Controller],
  providers: [OffersV1Service, PurchasesService],
  exports: [OffersV1Service, PurchasesService],
})
export class CommerceModule {}
