import { checkAmounts, checkPrices, checkQuantities, type NegativeAmount, type NegativePrice, type QuantityNotPositive } from './amount-rules.js';
import { kobo, MAX_KOBO, type Kobo } from './money.js';
import { amountsAsSold } from './sale-allocation.js';
import { lineCharge, lineNet, vatOfLines, type VatMode, type VatRate } from './vat.js';

/** How a sale is settled: money by CASH, TRANSFER, CARD or POS (a card at the shop's POS terminal), or CREDIT: owed by its customer. */
export const PAYMENT_METHODS = ['CASH', 'TRANSFER', 'CARD', 'POS', 'CREDIT'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type SaleStatus = 'COMPLETED' | 'VOIDED';

/** One part of a sale's settlement (docs/adr/0055): money received by a method, or CREDIT, what the customer owes. */
export interface Tender {
  readonly method: PaymentMethod;
  readonly amount: Kobo;
}

/** A sale is settled by 1 to 4 tenders. */
export const MAX_TENDERS = 4;

/**
 * The tenders of a sale sent the old way (payment_method and amount_paid, docs/adr/0055): what was paid by
 * the sale's method (a CREDIT sale's deposit by CASH: its method is not said, and a deposit is mostly cash),
 * then the rest as CREDIT. A sale of 0 is one tender of its method for 0. The migration backfills stored
 * sales with the same rule.
 */
export const tendersOf = (paymentMethod: PaymentMethod, total: Kobo, amountPaid: Kobo): Tender[] => {
  const paid: Tender[] = amountPaid > 0 ? [{ method: paymentMethod === 'CREDIT' ? 'CASH' : paymentMethod, amount: amountPaid }] : [];
  const owed: Tender[] = total > amountPaid ? [{ method: 'CREDIT', amount: kobo(total - amountPaid) }] : [];
  const all = [...paid, ...owed];
  return all.length > 0 ? all : [{ method: paymentMethod, amount: kobo(0) }];
};

/**
 * A line's VAT (a VAT-registered business's sale only): its rate when sold, the VAT of what it was sold
 * for, and what it earned net of that VAT (its amount as sold, less the VAT when the prices held it).
 */
export interface LineVat {
  readonly rate: VatRate;
  readonly amount: Kobo;
  readonly net: Kobo;
}

/** A VAT-registered business's sale: whether its prices held the VAT, and the sum of its lines' VAT. */
export interface SaleVat {
  readonly pricesIncludeVat: boolean;
  readonly total: Kobo;
}

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
  /** Only on a sale of a VAT-registered business (docs/adr/0054); absent otherwise. */
  readonly vat?: LineVat;
}

/** The cost of goods of these lines: quantity x the cost price stored when sold (none stored counts 0). */
export const costOfGoods = (lines: readonly SaleLine[]): Kobo => kobo(lines.reduce((n, l) => n + l.quantity * (l.costPrice ?? 0), 0));

export interface Sale {
  readonly id: string;
  readonly businessId: string;
  readonly branchId: string;
  readonly receiptNumber: string;
  readonly customerId: string | null;
  /** The first tender's method (a sale sent the old way: its payment_method). Money is counted by `payments`. */
  readonly paymentMethod: PaymentMethod;
  /** How the total was settled: 1 to 4 tenders adding up to it; CREDIT is what the customer owed at the till. */
  readonly payments: readonly Tender[];
  readonly lines: readonly SaleLine[];
  /** The line totals added up (before the sale's discount and VAT added on top). */
  readonly subtotal: Kobo;
  readonly discount: Kobo;
  /** The sum of the lines' discounts (already taken off the subtotal), shown beside the sale's own `discount`. */
  readonly lineDiscountTotal: Kobo;
  /** What the customer is charged: subtotal - discount, plus the VAT when prices exclude it. */
  readonly total: Kobo;
  /** Only on a sale of a VAT-registered business: its VAT, and whether its prices held it. */
  readonly vat?: SaleVat;
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

/** A line before pricing: everything but its total and VAT, with its VAT rate when the sale is charged VAT (0 when exempt). */
export type PricedLineInput = Omit<SaleLine, 'lineTotal' | 'vat'> & { readonly vatRate?: VatRate };

export type PricingFailure =
  | { readonly _tag: 'LineDiscountTooLarge'; readonly index: number }
  | { readonly _tag: 'AmountTooLarge' }
  | { readonly _tag: 'SaleDiscountTooLarge' }
  | { readonly _tag: 'AmountPaidExceedsTotal' }
  /** `short` is what the tender falls short of: the amount paid, the cash tender, or the total of a sale nobody can owe (no customer). */
  | { readonly _tag: 'AmountTenderedTooSmall'; readonly amountPaid: Kobo; readonly short?: 'amountPaid' | 'total' | 'cash' }
  /** Split payments (docs/adr/0055): the tenders do not add up to the sale's total. */
  | { readonly _tag: 'PaymentsDoNotMatchTotal'; readonly total: Kobo; readonly paid: number };

/** Split payments sent in a shape no sale can take: `field` and why (a 400, like a malformed body). */
export type InvalidTenders = { readonly _tag: 'InvalidTenders'; readonly field: string; readonly reason: string };

export interface PricedSale {
  readonly lines: SaleLine[];
  readonly subtotal: Kobo;
  readonly discount: Kobo;
  readonly lineDiscountTotal: Kobo;
  readonly total: Kobo;
  /** Present when the sale was priced with VAT (a registered business). */
  readonly vat?: SaleVat;
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
  readonly payments?: readonly Tender[];
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
    ...(cmd.payments ?? []).map((p, n) => [`payments.${n}.amount`, p.amount] as const),
  ]) ??
  checkQuantities(cmd.items.map((i, n) => [`items.${n}.quantity`, i.quantity]));

/** The lines priced, before anything is paid: totals, and VAT when the sale is charged it. */
type PricedLines = Omit<PricedSale, 'amountPaid' | 'amountTendered' | 'changeDue' | 'balanceDue'>;

/**
 * Prices the lines in integer kobo: line total = unit price x quantity - line discount; subtotal is the
 * sum of line totals; total = subtotal - sale discount. A discount larger than its line or the sale is
 * refused. With a VAT mode (a registered business, docs/adr/0054) each line's VAT is computed on what it
 * was sold for (`amountsAsSold`: its total less its share of the sale discount) at its own rate, and
 * with exclusive prices the total grows by the VAT. The total is at most MAX_KOBO.
 */
const priceLines = (lines: readonly PricedLineInput[], saleDiscount: Kobo, vat: VatMode | null | undefined): { ok: true; value: PricedLines } | { ok: false; failure: PricingFailure } => {
  const priced: SaleLine[] = [];
  for (const [index, { vatRate: _rate, ...l }] of lines.entries()) {
    const gross = l.unitPrice * l.quantity;
    if (gross > MAX_KOBO) return { ok: false, failure: { _tag: 'AmountTooLarge' } };
    if (l.discount > gross) return { ok: false, failure: { _tag: 'LineDiscountTooLarge', index } };
    priced.push({ ...l, lineTotal: kobo(gross - l.discount) });
  }
  const subtotal = priced.reduce((sum, l) => sum + l.lineTotal, 0);
  if (subtotal > MAX_KOBO) return { ok: false, failure: { _tag: 'AmountTooLarge' } };
  if (saleDiscount > subtotal) return { ok: false, failure: { _tag: 'SaleDiscountTooLarge' } };
  const common = { subtotal: kobo(subtotal), discount: saleDiscount, lineDiscountTotal: kobo(priced.reduce((sum, l) => sum + l.discount, 0)) };
  if (!vat) return { ok: true, value: { lines: priced, ...common, total: kobo(subtotal - saleDiscount) } };
  const sold = amountsAsSold(priced.map((l) => l.lineTotal), saleDiscount);
  const rates = lines.map((l) => l.vatRate ?? vat.rate);
  const vats = vatOfLines(sold, rates, vat.pricesIncludeVat);
  const total = sold.reduce((sum, a, i) => sum + lineCharge(a, vats.lines[i]!, vat.pricesIncludeVat), 0);
  if (total > MAX_KOBO) return { ok: false, failure: { _tag: 'AmountTooLarge' } };
  return {
    ok: true,
    value: {
      lines: priced.map((l, i) => ({ ...l, vat: { rate: rates[i]!, amount: vats.lines[i]!, net: lineNet(sold[i]!, vats.lines[i]!, vat.pricesIncludeVat) } })),
      ...common,
      total: kobo(total),
      vat: { pricesIncludeVat: vat.pricesIncludeVat, total: vats.total },
    },
  };
};

/**
 * Prices a sale in integer kobo (`priceLines`, with VAT when `vat` is given). Amount paid is what the sale
 * receives and may not exceed the total; it defaults to the smaller of the amount tendered and the total
 * when cash tendered is given, else to the total (0 on CREDIT). The amount tendered may exceed what is
 * paid: the difference is the change due (ADR 0015).
 * The inputs have passed `checkSaleAmounts` (no negative money, quantities of at least one).
 */
export const priceSale = (
  lines: readonly PricedLineInput[],
  saleDiscount: Kobo,
  paymentMethod: PaymentMethod,
  amountPaid: Kobo | undefined,
  amountTendered?: Kobo,
  vat?: VatMode | null,
): { ok: true; value: PricedSale } | { ok: false; failure: PricingFailure } => {
  const priced = priceLines(lines, saleDiscount, vat);
  if (!priced.ok) return priced;
  const total = priced.value.total;
  const paid = amountPaid ?? (amountTendered !== undefined ? Math.min(amountTendered, total) : paymentMethod === 'CREDIT' ? 0 : total);
  if (paid > total) return { ok: false, failure: { _tag: 'AmountPaidExceedsTotal' } };
  if (amountTendered !== undefined && amountTendered < paid) return { ok: false, failure: { _tag: 'AmountTenderedTooSmall', amountPaid: kobo(paid) } };
  return {
    ok: true,
    value: {
      ...priced.value,
      amountPaid: kobo(paid),
      amountTendered: amountTendered ?? null,
      changeDue: amountTendered === undefined ? null : kobo(amountTendered - paid),
      balanceDue: kobo(total - paid),
    },
  };
};

/**
 * The shape split payments must have, checked before anything is read: 1 to MAX_TENDERS tenders, each
 * method once, and `amount_tendered` only beside a CASH tender (it is the cash handed over for it).
 */
export const checkTenders = (payments: readonly Tender[], amountTendered: Kobo | undefined): InvalidTenders | undefined => {
  if (payments.length < 1 || payments.length > MAX_TENDERS) return { _tag: 'InvalidTenders', field: 'payments', reason: `must hold 1 to ${MAX_TENDERS} tenders` };
  const seen = new Set<PaymentMethod>();
  for (const [i, p] of payments.entries()) {
    if (seen.has(p.method)) return { _tag: 'InvalidTenders', field: `payments.${i}.method`, reason: 'names a method an earlier tender already has: each method once' };
    seen.add(p.method);
  }
  if (amountTendered !== undefined && !seen.has('CASH')) return { _tag: 'InvalidTenders', field: 'amount_tendered', reason: 'is the cash handed over for the CASH tender: send one, or leave it out' };
  return undefined;
};

/**
 * Prices a sale settled by split payments (docs/adr/0055): the lines as `priceSale` does, then the
 * tenders must add up to the total exactly. What was paid is every tender but CREDIT; CREDIT is what the
 * customer owes. The amount tendered is the cash handed over for the CASH tender: at least it, the
 * rest is the change. The tenders have passed `checkTenders`.
 */
export const priceSplitSale = (
  lines: readonly PricedLineInput[],
  saleDiscount: Kobo,
  payments: readonly Tender[],
  amountTendered: Kobo | undefined,
  vat: VatMode | null | undefined,
): { ok: true; value: PricedSale } | { ok: false; failure: PricingFailure } => {
  const priced = priceLines(lines, saleDiscount, vat);
  if (!priced.ok) return priced;
  const total = priced.value.total;
  const paid = payments.reduce((n, p) => n + p.amount, 0);
  if (paid !== total) return { ok: false, failure: { _tag: 'PaymentsDoNotMatchTotal', total, paid } };
  const cash = payments.find((p) => p.method === 'CASH')?.amount ?? 0;
  const credit = payments.find((p) => p.method === 'CREDIT')?.amount ?? 0;
  if (amountTendered !== undefined && amountTendered < cash) return { ok: false, failure: { _tag: 'AmountTenderedTooSmall', amountPaid: kobo(cash), short: 'cash' } };
  return {
    ok: true,
    value: {
      ...priced.value,
      amountPaid: kobo(total - credit),
      amountTendered: amountTendered ?? null,
      changeDue: amountTendered === undefined ? null : kobo(amountTendered - cash),
      balanceDue: kobo(credit),
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

/** One VAT rate of a sale: what its lines at that rate earned net of VAT, and their VAT (a receipt's VAT breakdown). */
export interface VatBand {
  readonly rate: VatRate;
  readonly net: Kobo;
  readonly vat: Kobo;
}

/**
 * A registered business's sale by VAT rate, highest rate first (empty without VAT): what its lines at each
 * rate earned net of VAT and their VAT. The bands' net and VAT add up to the sale's total.
 */
export const vatBreakdown = (s: Pick<Sale, 'lines' | 'vat'>): VatBand[] => {
  if (!s.vat) return [];
  const bands = new Map<VatRate, { net: number; vat: number }>();
  for (const l of s.lines) {
    const { rate, amount, net } = l.vat ?? { rate: 0, amount: 0, net: 0 };
    const band = bands.get(rate) ?? { net: 0, vat: 0 };
    bands.set(rate, { net: band.net + net, vat: band.vat + amount });
  }
  return [...bands].sort(([a], [b]) => b - a).map(([rate, b]) => ({ rate, net: kobo(b.net), vat: kobo(b.vat) }));
};

/** What a sale earned net of VAT: its total less its VAT (a registered business's sale); the total otherwise. */
export const netOfVat = (s: { readonly total: Kobo; readonly vat?: SaleVat | undefined }): Kobo => kobo(s.total - (s.vat?.total ?? 0));

/**
 * How a sale is settled is sent one of two ways: `payment_method` (with amount_paid and amount_tendered
 * as before) or `payments` (split tenders); exactly one. Then the tenders' own shape (`checkTenders`).
 */
export const checkSettlement = (cmd: { readonly paymentMethod?: PaymentMethod | undefined; readonly payments?: readonly Tender[] | undefined; readonly amountPaid?: Kobo | undefined; readonly amountTendered?: Kobo | undefined }): InvalidTenders | undefined => {
  if (cmd.payments === undefined) return cmd.paymentMethod === undefined ? { _tag: 'InvalidTenders', field: 'payment_method', reason: 'is required (or send payments)' } : undefined;
  if (cmd.paymentMethod !== undefined) return { _tag: 'InvalidTenders', field: 'payments', reason: 'goes without payment_method: send one or the other' };
  if (cmd.amountPaid !== undefined) return { _tag: 'InvalidTenders', field: 'amount_paid', reason: 'goes with payment_method only: with payments, a CREDIT tender is what is left unpaid' };
  return checkTenders(cmd.payments, cmd.amountTendered);
};

/** A sale leaves something owed (a credit sale): it needs a customer. */
export const isCreditSale = (paymentMethod: PaymentMethod, balanceDue: Kobo): boolean => paymentMethod === 'CREDIT' || balanceDue > 0;
