import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `purchases` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: purchases.store.ts. */
@Entity('purchases')
export class Purchase {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') userId: string;
  @Column('uuid') offerId: string;
  @Column('text') orderId: string;
  @Column('text') state: string;
  @Column('text') statusMsg: string;
  @Column('integer') quantity: number;
  @Column('text') currencyCode: string;
  @Column('integer') offerPriceCents: number;
  @Column('text') offerSku: string;
  @Column('text') offerDescription: string;
  @Column('uuid', { nullable: true }) promoCodeId: string | null;
  @Column('text', { nullable: true }) promoCode: string | null;
  @Column('integer', { nullable: true }) promoCodePercentOff: number | null;
  @Column('integer', { nullable: true }) promoCodePriceCents: number | null;
  @Column('integer') promoCodeQuantity: number;
  @Column('integer') promoDiscountCents: number;
  @Column('integer', { nullable: true }) groupDiscountPercent: number | null;
  @Column('integer') groupDiscountCents: number;
  @Column('uuid', { nullable: true }) trainingCreditCodeId: string | null;
  @Column('text', { nullable: true }) trainingCreditCode: string | null;
  @Column('integer') creditsCents: number;
  @Column('uuid', { nullable: true }) licensePackageId: string | null;
  @Column('integer', { nullable: true }) taxPriceCents: number | null;
  @Column('integer') priceCents: number;
  @Column('integer', { nullable: true }) refundCents: number | null;
  @Column('timestamptz', { nullable: true }) refundedAt: Date | null;
  @Column('text') paymentProcessor: string;
  @Column('text') paymentProcessorOrderId: string;
  @Column('text') paymentProcessorResponseData: string;
  @Column('jsonb', { nullable: true }) grants: unknown | null;
  @Column('timestamptz', { nullable: true }) fulfilledAt: Date | null;
  @Column('timestamptz') purchasedAt: Date;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
