import { checkAmounts, checkPrices, checkQuantities, type NegativeAmount, type NegativePrice, type QuantityNotPositive } from './amount-rules.js';
import { kobo, MAX_KOBO, type Kobo } from './money.js';

export const PAYMENT_METHODS = ['CASH', 'TRANSFER', 'CARD', 'CREDIT'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type SaleStatus = 'COMPLETED' | 'VOIDED';

export interface SaleLine {
  readonly productId: string;
  readonly name: string;
  readonly sku: string;
  readonly quantity: number;
  readonly unitPrice: Kobo;
  readonly discount: Kobo;
  readonly lineTotal: Kobo;
  /** The product's cost when sold, for profit reports (null when unknown). */
  readonly costPrice: Kobo | null;
}

/** The cost of goods of these lines: quantity x the cost price stored when sold (none stored counts 0). */
export const costOfGoods = (lines: readonly SaleLine[]): Kobo => kobo(lines.reduce((n, l) => n + l.quantity * (l.costPrice ?? 0), 0));

export interface Sale {
  readonly id: string;
  readonly businessId: string;
  readonly branchId: string;
  readonly receiptNumber: string;
  readonly customerId: string | null;
  readonly paymentMethod: PaymentMethod;
  readonly lines: readonly SaleLine[];
  readonly subtotal: Kobo;
  readonly discount: Kobo;
  /** The sum of the lines' discounts (already taken off the subtotal), shown beside the sale's own `discount`. */
  readonly lineDiscountTotal: Kobo;
  readonly total: Kobo;
  /** What the sale received (at most the total). */
  readonly amountPaid: Kobo;
  /** Cash (or a transfer) handed over, when the till recorded it; null when not recorded. */
  readonly amountTendered: Kobo | null;
  /** amountTendered - amountPaid, handed back; null when nothing tendered was recorded. */
  readonly changeDue: Kobo | null;
  /** The unpaid part at the till (total - amount paid); 0 once the sale is voided: a voided sale owes nothing. */
  balanceDue: Kobo;
  status: SaleStatus;
  readonly note: string | null;
  readonly createdBy: string;
  readonly createdAt: Date;
  voidedAt: Date | null;
  voidReason: string | null;
  voidedBy: string | null;
  /** What of `balanceDue` the customer still owes (payments reduce it, oldest sale first). */
  creditOutstanding: Kobo;
  /** On a voided sale: what the customer had paid for it, to hand back. */
  refundAmount: Kobo | null;
  /** A sale a till made offline and synced (docs/adr/0034); absent or null for a sale made online. */
  readonly offline?: OfflineSale | null;
}

/** How a till made a sale offline: its provisional receipt number and clock, and whether it oversold. */
export interface OfflineSale {
  readonly deviceId: string;
  /** `<device code>-<sequence>`, printed on the paper receipt before the sale had its business number. */
  readonly provisionalReceiptNumber: string | null;
  readonly clientCreatedAt: Date | null;
  /** It took stock the branch did not hold: a shortfall awaits the owner's decision (GET /sync/conflicts). */
  needsReview: boolean;
}

/** A provisional receipt number: a device code (2 to 16 capitals or digits, not RCP) and a sequence. */
export const PROVISIONAL_RECEIPT_NUMBER = /^(?!RCP-)[A-Z0-9]{2,16}-\d{1,9}$/;

/** A sale before it has its receipt number (given when it is stored). */
export type SaleDraft = Omit<Sale, 'receiptNumber'>;

export const formatReceiptNumber = (n: number): string => `RCP-${String(n).padStart(6, '0')}`;

/** A line before pricing: everything but its total. */
export type PricedLineInput = Omit<SaleLine, 'lineTotal'>;

export type PricingFailure =
  | { readonly _tag: 'LineDiscountTooLarge'; readonly index: number }
  | { readonly _tag: 'AmountTooLarge' }
  | { readonly _tag: 'SaleDiscountTooLarge' }
  | { readonly _tag: 'AmountPaidExceedsTotal' }
  /** `short` is what the tender falls short of: the amount paid, or the total of a sale nobody can owe (no customer). */
  | { readonly _tag: 'AmountTenderedTooSmall'; readonly amountPaid: Kobo; readonly short?: 'amountPaid' | 'total' };

export interface PricedSale {
  readonly lines: SaleLine[];
  readonly subtotal: Kobo;
  readonly discount: Kobo;
  readonly lineDiscountTotal: Kobo;
  readonly total: Kobo;
  readonly amountPaid: Kobo;
  readonly amountTendered: Kobo | null;
  readonly changeDue: Kobo | null;
  readonly balanceDue: Kobo;
}

/** What a till sends for a sale, before any product is looked up. */
export interface SaleAmounts {
  readonly items: readonly { readonly quantity: number; readonly unitPrice?: Kobo; readonly discount?: Kobo }[];
  readonly discount?: Kobo;
  readonly amountPaid?: Kobo;
  readonly amountTendered?: Kobo;
}

export type SaleAmountsFailure = NegativePrice | NegativeAmount | QuantityNotPositive;

/**
 * The money and quantity rules of a sale, checked before anything is read: no negative unit price
 * (first: a price is its own rule), then no negative discount or amount paid or tendered, then
 * quantities of at least one. Fields are named as in the command (`items.0.unitPrice`, `amountPaid`).
 */
export const checkSaleAmounts = (cmd: SaleAmounts): SaleAmountsFailure | undefined =>
  checkPrices(cmd.items.map((i, n) => [`items.${n}.unitPrice`, i.unitPrice])) ??
  checkAmounts([
    ['amountPaid', cmd.amountPaid],
    ['amountTendered', cmd.amountTendered],
    ['discount', cmd.discount],
    ...cmd.items.map((i, n) => [`items.${n}.discount`, i.discount] as const),
  ]) ??
  checkQuantities(cmd.items.map((i, n) => [`items.${n}.quantity`, i.quantity]));

/**
 * Prices a sale in integer kobo: line total = unit price x quantity - line discount; subtotal is the
 * sum of line totals; total = subtotal - sale discount. A discount larger than its line or the sale
 * is refused. Amount paid is what the sale receives and may not exceed the total; it defaults to the
 * smaller of the amount tendered and the total when cash tendered is given, else to the total (0 on
 * CREDIT). The amount tendered may exceed what is paid: the difference is the change due (ADR 0015).
 * The inputs have passed `checkSaleAmounts` (no negative money, quantities of at least one).
 */
export const priceSale = (
  lines: readonly PricedLineInput[],
  saleDiscount: Kobo,
  paymentMethod: PaymentMethod,
  amountPaid: Kobo | undefined,
  amountTendered?: Kobo,
): { ok: true; value: PricedSale } | { ok: false; failure: PricingFailure } => {
  const priced: SaleLine[] = [];
  for (const [index, l] of lines.entries()) {
    const gross = l.unitPrice * l.quantity;
    if (gross > MAX_KOBO) return { ok: false, failure: { _tag: 'AmountTooLarge' } };
    if (l.discount > gross) return { ok: false, failure: { _tag: 'LineDiscountTooLarge', index } };
    priced.push({ ...l, lineTotal: kobo(gross - l.discount) });
  }
  const subtotal = priced.reduce((sum, l) => sum + l.lineTotal, 0);
  if (subtotal > MAX_KOBO) return { ok: false, failure: { _tag: 'AmountTooLarge' } };
  if (saleDiscount > subtotal) return { ok: false, failure: { _tag: 'SaleDiscountTooLarge' } };
  const total = subtotal - saleDiscount;
  const paid = amountPaid ?? (amountTendered !== undefined ? Math.min(amountTendered, total) : paymentMethod === 'CREDIT' ? 0 : total);
  if (paid > total) return { ok: false, failure: { _tag: 'AmountPaidExceedsTotal' } };
  if (amountTendered !== undefined && amountTendered < paid) return { ok: false, failure: { _tag: 'AmountTenderedTooSmall', amountPaid: kobo(paid) } };
  return {
    ok: true,
    value: {
      lines: priced,
      subtotal: kobo(subtotal),
      discount: saleDiscount,
      lineDiscountTotal: kobo(priced.reduce((sum, l) => sum + l.discount, 0)),
      total: kobo(total),
      amountPaid: kobo(paid),
      amountTendered: amountTendered ?? null,
      changeDue: amountTendered === undefined ? null : kobo(amountTendered - paid),
      balanceDue: kobo(total - paid),
    },
  };
};

/**
 * A cashier's tender typo, not a credit sale: a CASH, TRANSFER or CARD sale without a customer whose
 * amount paid was not sent and whose tender is below the total. Defaulting the amount paid to the
 * tender would make it a credit sale nobody owes (CUSTOMER_REQUIRED, misleading): the tender is too small.
 * With a customer_id the tender still pays that much and the rest is owed (ADR 0015, ADR 0046).
 */
export const tenderShortOfTotal = (
  paymentMethod: PaymentMethod,
  amountPaidSent: boolean,
  hasCustomer: boolean,
  priced: Pick<PricedSale, 'amountTendered' | 'total'>,
): boolean => paymentMethod !== 'CREDIT' && !amountPaidSent && !hasCustomer && priced.amountTendered !== null && priced.amountTendered < priced.total;

/** A sale leaves something owed (a credit sale): it needs a customer. */
export const isCreditSale = (paymentMethod: PaymentMethod, balanceDue: Kobo): boolean => paymentMethod === 'CREDIT' || balanceDue > 0;
