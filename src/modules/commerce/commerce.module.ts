import { Module } from '@nestjs/common';
import { OffersV1Service } from './offers-v1.service';
import { OffersV1Controller } from './offers.v1.controller';

/**
 * Commerce (issue 11): offers, checkout and purchases (this module's core), and the limits checkout
 * enforces (promo codes, training credits, license packages: their controllers and providers are
 * added here or in their own module by their files' owners). See docs/decisions/commerce.md.
 */
@Module({
  controllers: [OffersV1Controller],
  providers: [OffersV1Service],
  exports: [OffersV1Service],
})
export class CommerceModule {}
