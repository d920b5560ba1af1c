import * as E from 'fp-ts/lib/Either.js';
import type { Branch } from './business.js';
import { exceedsCreditLimit } from './credit.js';
import type { Customer } from './customer.js';
import { kobo, MAX_KOBO, type Kobo } from './money.js';
import type { InsufficientStock, Product, StockMovement } from './product.js';
import { isCreditSale, priceSale, priceSplitSale, tenderShortOfTotal, tendersOf, type PaymentMethod, type PricedSale, type PricingFailure, type Sale, type Tender } from './sale.js';
import { lineVatRate, type VatMode } from './vat.js';

// What decides a sale and its void, apart from doing them (docs/adr/0049): the use cases
// (application/sales) read the facts through their ports, call these functions, and write the plan
// they answer. Nothing here reads or writes; every rule is unit-tested without adapters.

export type UnknownProducts = { readonly _tag: 'UnknownProducts'; readonly indexes: number[] };
/** Items naming an archived product: it is kept for history but no longer sold. */
export type ArchivedProducts = { readonly _tag: 'ArchivedProducts'; readonly indexes: number[] };
export type UnknownCustomer = { readonly _tag: 'UnknownCustomer' };
/** Another sale of the business already has this provisional receipt number. */
export type ProvisionalReceiptNumberTaken = { readonly _tag: 'ProvisionalReceiptNumberTaken'; readonly number: string };
export type CustomerRequired = { readonly _tag: 'CustomerRequired' };
export type CreditLimitExceeded = { readonly _tag: 'CreditLimitExceeded'; readonly balance: Kobo; readonly limit: Kobo };
/**
 * Outstanding credit past what the books hold: one customer owing more than MAX_KOBO, or the
 * business's customers together more than 2^53 - 1 kobo, so every total (the aging report's) stays an
 * exact integer (docs/adr/0017).
 */
export type CreditBalanceLimitExceeded = { readonly _tag: 'CreditBalanceLimitExceeded'; readonly balance: Kobo; readonly scope: 'customer' | 'business' };
/** A line of the cart the branch cannot give: `index` is the first item of the cart naming the product. */
export type SaleShortage = InsufficientStock & { readonly name: string; readonly index: number };
export type SaleAlreadyVoided = { readonly _tag: 'SaleAlreadyVoided' };
/** A sale with returns is not voided: the rest is returned instead (the returns' refunds are already made, docs/adr/0058). */
export type SaleHasReturns = { readonly _tag: 'SaleHasReturns'; readonly returns: number };

/** What a sale's facts can refuse, in the order they are checked. */
export type SaleDecisionFailure = UnknownCustomer | ProvisionalReceiptNumberTaken | UnknownProducts | ArchivedProducts | PricingFailure | CustomerRequired;

/** The parts of a sale command the decision reads (the application's SaleCommand is one). */
export interface SaleRequest {
  readonly items: readonly { readonly productId: string; readonly quantity: number; readonly unitPrice?: Kobo; readonly discount?: Kobo }[];
  /** One of the two (`checkSettlement`, domain/sale.ts): the method of the old shape, or split tenders. */
  readonly paymentMethod?: PaymentMethod;
  readonly payments?: readonly Tender[];
  readonly amountPaid?: Kobo;
  readonly amountTendered?: Kobo;
  readonly customerId?: string;
  readonly discount?: Kobo;
  readonly offline?: { readonly provisionalReceiptNumber?: string };
}

export type SaleProduct = Pick<Product, 'id' | 'name' | 'sku' | 'price' | 'costPrice' | 'type' | 'archivedAt'> & { readonly vatExempt?: boolean };

/** What is read before a sale is decided, with no row locked for it yet. */
export interface SaleFacts {
  /** The branch the sale takes its stock from. */
  readonly branch: Pick<Branch, 'id' | 'name'>;
  /** The customer the request names exists (true when it names none). */
  readonly customerKnown: boolean;
  /** Another sale of the business already has the request's provisional receipt number. */
  readonly provisionalTaken: boolean;
  /** The products the request names that the business has (archived ones too). */
  readonly products: readonly SaleProduct[];
  /** How the business charges VAT now (docs/adr/0054); absent or null: not registered, no VAT. */
  readonly vat?: VatMode | null;
}

/** Units of one stocked product a sale takes. */
export interface StockTake {
  readonly productId: string;
  readonly name: string;
  /** The first item of the cart naming the product. */
  readonly index: number;
  readonly quantity: number;
}

/** A sale decided: what to write. */
export interface SalePlan {
  readonly branch: Pick<Branch, 'id' | 'name'>;
  /** Lines in the cart's order, totals, what was paid and what is owed. */
  readonly priced: PricedSale;
  /** The first tender's method, and the tenders adding up to the total (docs/adr/0055). */
  readonly paymentMethod: PaymentMethod;
  readonly payments: readonly Tender[];
  /** What each stocked product gives (lines naming one product added up), in product id order, the lock order of every stock writer; a service takes nothing. */
  readonly takes: readonly StockTake[];
  readonly customerId: string | null;
  readonly provisionalReceiptNumber: string | null;
}

/**
 * Decides a sale from its facts: the customer is known, the provisional receipt number free, every
 * item names an active product; then prices it in kobo (domain/sale.ts) and adds up what each
 * stocked product gives. A sale leaving something owed needs a customer. The request has passed
 * `checkSaleAmounts`. Stock is not a fact: the conditional update that takes it is the check, so two
 * sales cannot both take the last unit (`saleShortage` words its refusal).
 */
export const decideSale = (facts: SaleFacts, cmd: SaleRequest): E.Either<SaleDecisionFailure, SalePlan> => {
  if (!facts.customerKnown) return E.left({ _tag: 'UnknownCustomer' });
  const provisional = cmd.offline?.provisionalReceiptNumber;
  if (provisional && facts.provisionalTaken) return E.left({ _tag: 'ProvisionalReceiptNumberTaken', number: provisional });

  const products = new Map(facts.products.map((p) => [p.id, p]));
  const unknown = cmd.items.flatMap((i, index) => (products.has(i.productId) ? [] : [index]));
  if (unknown.length > 0) return E.left({ _tag: 'UnknownProducts', indexes: unknown });
  const archived = cmd.items.flatMap((i, index) => (products.get(i.productId)!.archivedAt ? [index] : []));
  if (archived.length > 0) return E.left({ _tag: 'ArchivedProducts', indexes: archived });

  const lines = cmd.items.map((i) => {
    const p = products.get(i.productId)!;
    return {
      productId: p.id, name: p.name, sku: p.sku, quantity: i.quantity, unitPrice: i.unitPrice ?? p.price, discount: i.discount ?? kobo(0), costPrice: p.costPrice,
      ...(facts.vat ? { vatRate: lineVatRate(facts.vat, p.vatExempt ?? false) } : {}),
    };
  });
  const discount = cmd.discount ?? kobo(0);
  const split = cmd.payments;
  const paymentMethod = split ? split[0]!.method : cmd.paymentMethod!;
  const priced = split
    ? priceSplitSale(lines, discount, split, cmd.amountTendered, facts.vat)
    : priceSale(lines, discount, paymentMethod, cmd.amountPaid, cmd.amountTendered, facts.vat);
  if (!priced.ok) return E.left(priced.failure);
  // a cash tender short of the total with no customer is a typo at the till, not a credit sale (ADR 0046)
  if (!split && tenderShortOfTotal(paymentMethod, cmd.amountPaid !== undefined, cmd.customerId !== undefined, priced.value)) {
    return E.left({ _tag: 'AmountTenderedTooSmall', amountPaid: priced.value.total, short: 'total' });
  }
  if (isCreditSale(paymentMethod, priced.value.balanceDue) && !cmd.customerId) return E.left({ _tag: 'CustomerRequired' });
  const payments = split ?? tendersOf(paymentMethod, priced.value.total, priced.value.amountPaid);

  const wanted = new Map<string, number>();
  for (const i of cmd.items) if (products.get(i.productId)!.type === 'PRODUCT') wanted.set(i.productId, (wanted.get(i.productId) ?? 0) + i.quantity);
  const takes = [...wanted.keys()].sort().map((productId) => ({
    productId,
    name: products.get(productId)!.name,
    index: cmd.items.findIndex((i) => i.productId === productId),
    quantity: wanted.get(productId)!,
  }));
  return E.right({ branch: facts.branch, priced: priced.value, paymentMethod, payments, takes, customerId: cmd.customerId ?? null, provisionalReceiptNumber: provisional ?? null });
};

/**
 * The customer's credit, read once the sale is otherwise decided (their row is locked for it, so a
 * refused cart locks no customer): what the sale leaves owed must fit their limit and MAX_KOBO.
 */
export const checkSaleCredit = (plan: SalePlan, customer: Pick<Customer, 'creditBalance' | 'creditLimit'> | undefined): CreditLimitExceeded | CreditBalanceLimitExceeded | undefined => {
  if (!customer) return undefined;
  const owed = plan.priced.balanceDue;
  if (exceedsCreditLimit(customer.creditBalance, customer.creditLimit, owed)) return { _tag: 'CreditLimitExceeded', balance: customer.creditBalance, limit: customer.creditLimit! };
  if (customer.creditBalance + owed > MAX_KOBO) return { _tag: 'CreditBalanceLimitExceeded', balance: customer.creditBalance, scope: 'customer' };
  return undefined;
};

/** The refusal of the plan's take `take` (its index in `plan.takes`), the branch holding `available`. */
export const saleShortage = (plan: SalePlan, take: number, available: number): SaleShortage => {
  const t = plan.takes[take]!;
  return { _tag: 'InsufficientStock', productId: t.productId, name: t.name, index: t.index, available, requested: t.quantity, branchId: plan.branch.id, branchName: plan.branch.name };
};

/**
 * What an offline sale took that its branch did not hold (docs/adr/0034), per movement that went
 * below zero: the part of this movement below zero (the rest of the deficit was there before).
 */
export const offlineShortfalls = <M extends Pick<StockMovement, 'quantityChange' | 'quantityAfter'>>(movements: readonly M[]): { m: M; shortfall: number }[] =>
  movements.filter((m) => m.quantityAfter < 0).map((m) => ({ m, shortfall: Math.min(-m.quantityAfter, -m.quantityChange) }));

/** What is read before a void is decided, with the customer (if any) and the sale locked. */
export interface VoidFacts {
  readonly sale: Sale;
  /** The sale's stock ledger rows: its SALE rows are what it took. */
  readonly movements: readonly Pick<StockMovement, 'productId' | 'branchId' | 'quantityChange' | 'reason'>[];
  /** How many returns the sale has had. */
  readonly returns: number;
}

/** Units of a product going back to a branch. */
export interface StockReturn {
  readonly productId: string;
  readonly branchId: string;
  readonly quantity: number;
}

/** A void decided: what to write. */
export interface VoidPlan {
  /** Exactly what each SALE row took, back to the branch it was taken from, in product id order. */
  readonly returns: readonly StockReturn[];
  /** The sale as voided: it owes nothing; what was paid for it (at the till and since) is the refund. */
  readonly voided: Sale;
  /** What the customer still owed for it, reversed in their credit ledger. */
  readonly owed: Kobo;
}

/**
 * Decides a void: a sale is voided once, and not once goods of it were returned (return the rest). Its stock goes back exactly as its SALE rows took it; what
 * the customer still owed is reversed and what they had paid is the refund, so a balance never goes
 * below zero (docs/adr/0011).
 */
export const decideVoid = (facts: VoidFacts, v: { readonly reason: string; readonly by: string; readonly at: Date }): E.Either<SaleAlreadyVoided | SaleHasReturns, VoidPlan> => {
  const { sale } = facts;
  if (sale.status === 'VOIDED') return E.left({ _tag: 'SaleAlreadyVoided' });
  if (facts.returns > 0) return E.left({ _tag: 'SaleHasReturns', returns: facts.returns });
  const returns = facts.movements
    .filter((m) => m.reason === 'SALE')
    .sort((a, b) => (a.productId < b.productId ? -1 : 1))
    .map((m) => ({ productId: m.productId, branchId: m.branchId, quantity: -m.quantityChange }));
  const owed = sale.creditOutstanding;
  const voided: Sale = {
    ...sale,
    status: 'VOIDED',
    voidedAt: v.at,
    voidReason: v.reason,
    voidedBy: v.by,
    refundAmount: kobo(sale.total - owed),
    balanceDue: kobo(0), // a voided sale owes nothing
    creditOutstanding: kobo(0),
  };
  return E.right({ returns, voided, owed });
};
