import * as E from 'fp-ts/lib/Either.js';
import { checkQuantities, type QuantityNotPositive } from './amount-rules.js';
import type { Customer } from './customer.js';
import { kobo, type Kobo } from './money.js';
import type { StockMovement } from './product.js';
import type { Sale } from './sale.js';
import { amountsAsSold, shareOfReturn } from './sale-allocation.js';
import type { SaleAlreadyVoided } from './sale-decision.js';

// A customer brings goods back (docs/adr/0058): what a return of part of a sale is worth, to the kobo,
// what of it clears the customer's debt on the sale and what is handed back. Decided here from facts the
// use case reads (application/returns/record-return.ts), as a sale and its void are (docs/adr/0049).

/** How the returned money goes back: a till method, or CREDIT_NOTE (kept on the customer's credit account). */
export const REFUND_METHODS = ['CASH', 'TRANSFER', 'CARD', 'POS', 'CREDIT_NOTE'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

/** The most units one return item may name (as a sale line may sell). */
export const MAX_RETURN_QUANTITY = 1_000_000;

/** One line of a return: units of one line of the sale, and what they are worth. */
export interface ReturnLine {
  /** The sale line returned: its index in the sale's lines. */
  readonly position: number;
  readonly productId: string;
  readonly name: string;
  readonly sku: string;
  readonly quantity: number;
  /**
   * The returned share of what the line charged (ADR 0053): what it was sold for after its own and the sale's
   * discounts, plus its VAT when the prices excluded it (docs/adr/0054): the money returned.
   */
  readonly amount: Kobo;
  /** The same share of the line total before the sale discount (reports by product and category, which count line totals). */
  readonly lineAmount: Kobo;
  /** The returned share of the line's VAT (the same cumulative share; 0 for a sale without VAT): inside `amount`. */
  readonly vatAmount: Kobo;
  /** The cost price stored on the sale line (null when unknown). */
  readonly unitCost: Kobo | null;
  /** What leaves the cost of goods: quantity x unit cost when the goods went back on the shelf, else 0 (docs/adr/0058). */
  readonly costReturned: Kobo;
}

/** A return as stored: its own gap-free number per business (RTN-000001). */
export interface SaleReturn {
  readonly id: string;
  readonly businessId: string;
  readonly saleId: string;
  /** The sale's receipt number, read with the return. */
  readonly receiptNumber: string;
  readonly returnNumber: string;
  /** The sale's branch: restocked goods go back there. */
  readonly branchId: string;
  readonly customerId: string | null;
  readonly lines: readonly ReturnLine[];
  readonly restock: boolean;
  readonly refundMethod: RefundMethod;
  readonly reason: string;
  /** What the returned goods were sold for: the lines' amounts added up. */
  readonly amount: Kobo;
  readonly vatAmount: Kobo;
  /** The part of `amount` that cleared what the customer still owed on the sale. */
  readonly debtReduced: Kobo;
  /** amount - debtReduced: handed back by `refundMethod` (CREDIT_NOTE: onto the customer's credit account). */
  readonly refundAmount: Kobo;
  readonly costReturned: Kobo;
  readonly createdBy: string;
  readonly createdAt: Date;
  /** A return a till made offline and synced (POST /sync/batch); absent or null when made online. */
  readonly offline?: { readonly deviceId: string; readonly clientCreatedAt: Date | null } | null;
}

/** A return before it has its number (given when it is stored) and its sale's receipt number. */
export type SaleReturnDraft = Omit<SaleReturn, 'returnNumber' | 'receiptNumber'>;

export const formatReturnNumber = (n: number): string => `RTN-${String(n).padStart(6, '0')}`;

/** More units of a product than the sale has left to return (sold less already returned): `index` is the item. */
export type ReturnExceedsSold = {
  readonly _tag: 'ReturnExceedsSold';
  readonly index: number;
  readonly productId: string;
  readonly name: string;
  readonly sold: number;
  readonly returned: number;
  readonly requested: number;
};
/** Items naming a product the sale did not sell. */
export type ProductNotInSale = { readonly _tag: 'ProductNotInSale'; readonly indexes: number[] };
/** A credit note is kept on a customer's account: the sale has no customer. */
export type CreditNoteNeedsCustomer = { readonly _tag: 'CreditNoteNeedsCustomer' };

export type ReturnDecisionFailure = SaleAlreadyVoided | ProductNotInSale | ReturnExceedsSold | CreditNoteNeedsCustomer;

export interface ReturnRequest {
  readonly items: readonly { readonly productId: string; readonly quantity: number }[];
  readonly restock: boolean;
  readonly refundMethod: RefundMethod;
}

/** Quantities returned: whole numbers of at least one (checked before anything is read). */
export const checkReturnQuantities = (req: Pick<ReturnRequest, 'items'>): QuantityNotPositive | undefined =>
  checkQuantities(req.items.map((i, n) => [`items.${n}.quantity`, i.quantity]));

/** What is read before a return is decided, with the customer (if any) and the sale locked. */
export interface ReturnFacts {
  readonly sale: Sale;
  /** Units of each sale line (by position) returned by earlier returns. */
  readonly returnedBefore: ReadonlyMap<number, number>;
  /** The sale's stock ledger rows: its SALE rows say which products took stock (a service took none). */
  readonly movements: readonly Pick<StockMovement, 'productId' | 'reason'>[];
}

/** A product's units going back to the sale's branch. */
export interface Restock {
  readonly productId: string;
  readonly quantity: number;
}

/** A return decided: what to write. */
export interface ReturnPlan {
  readonly lines: readonly ReturnLine[];
  readonly amount: Kobo;
  readonly vatAmount: Kobo;
  readonly debtReduced: Kobo;
  readonly refundAmount: Kobo;
  readonly costReturned: Kobo;
  /** Stocked products going back (restock only), in product id order: the lock order of every stock writer. */
  readonly restocks: readonly Restock[];
}

const add = (xs: readonly Kobo[]): Kobo => kobo(xs.reduce((n, x) => n + x, 0));

/**
 * Decides a return: the sale is not voided; every item names a product the sale sold, and no more of
 * it than the sale has left to return (sold less every earlier return); a CREDIT_NOTE needs the sale's
 * customer. Items naming one product add up, and take that product's lines in the sale's order. Each
 * line's money is its returned share of what it charged (`amountsAsSold`, plus its VAT where the prices
 * excluded it; then `shareOfReturn`: cumulative, so a line's returns add up to it exactly once all is back,
 * never more); its VAT is the same share of the line's VAT (docs/adr/0054). The return first
 * clears what the customer still owes on this sale (its credit_outstanding); the rest is the refund.
 */
export const decideReturn = (facts: ReturnFacts, req: ReturnRequest): E.Either<ReturnDecisionFailure, ReturnPlan> => {
  const { sale } = facts;
  if (sale.status === 'VOIDED') return E.left({ _tag: 'SaleAlreadyVoided' });
  const onSale = req.items.flatMap((i, index) => (sale.lines.some((l) => l.productId === i.productId) ? [] : [index]));
  if (onSale.length > 0) return E.left({ _tag: 'ProductNotInSale', indexes: onSale });
  if (req.refundMethod === 'CREDIT_NOTE' && sale.customerId === null) return E.left({ _tag: 'CreditNoteNeedsCustomer' });

  const wanted = new Map<string, { index: number; quantity: number }>();
  for (const [index, i] of req.items.entries()) {
    const w = wanted.get(i.productId);
    wanted.set(i.productId, { index: w?.index ?? index, quantity: (w?.quantity ?? 0) + i.quantity });
  }
  const asSold = amountsAsSold(sale.lines.map((l) => l.lineTotal), sale.discount);
  // what each line charged: its amount as sold, plus its VAT when the prices excluded it (docs/adr/0054)
  const charged = asSold.map((a, p) => (sale.vat && !sale.vat.pricesIncludeVat ? kobo(a + (sale.lines[p]!.vat?.amount ?? 0)) : a));
  const taken = new Map<number, number>();
  for (const [productId, w] of wanted) {
    const positions = sale.lines.flatMap((l, p) => (l.productId === productId ? [p] : []));
    const sold = positions.reduce((n, p) => n + sale.lines[p]!.quantity, 0);
    const returned = positions.reduce((n, p) => n + (facts.returnedBefore.get(p) ?? 0), 0);
    if (w.quantity > sold - returned) {
      return E.left({ _tag: 'ReturnExceedsSold', index: w.index, productId, name: sale.lines[positions[0]!]!.name, sold, returned, requested: w.quantity });
    }
    let left = w.quantity;
    for (const p of positions) {
      const take = Math.min(left, sale.lines[p]!.quantity - (facts.returnedBefore.get(p) ?? 0));
      if (take > 0) taken.set(p, take);
      left -= take;
    }
  }
  const lines: ReturnLine[] = [...taken.entries()]
    .sort(([a], [b]) => a - b)
    .map(([position, quantity]) => {
      const l = sale.lines[position]!;
      const before = facts.returnedBefore.get(position) ?? 0;
      return {
        position,
        productId: l.productId,
        name: l.name,
        sku: l.sku,
        quantity,
        amount: shareOfReturn(charged[position]!, l.quantity, before, quantity),
        lineAmount: shareOfReturn(l.lineTotal, l.quantity, before, quantity),
        vatAmount: shareOfReturn(l.vat?.amount ?? kobo(0), l.quantity, before, quantity),
        unitCost: l.costPrice,
        costReturned: kobo(req.restock ? quantity * (l.costPrice ?? 0) : 0),
      };
    });
  const amount = add(lines.map((l) => l.amount));
  const debtReduced = kobo(Math.min(amount, sale.creditOutstanding));
  const stocked = new Set(facts.movements.filter((m) => m.reason === 'SALE').map((m) => m.productId));
  const restocks = new Map<string, number>();
  if (req.restock) for (const l of lines) if (stocked.has(l.productId)) restocks.set(l.productId, (restocks.get(l.productId) ?? 0) + l.quantity);
  return E.right({
    lines,
    amount,
    vatAmount: add(lines.map((l) => l.vatAmount)),
    debtReduced,
    refundAmount: kobo(amount - debtReduced),
    costReturned: add(lines.map((l) => l.costReturned)),
    restocks: [...restocks.keys()].sort().map((productId) => ({ productId, quantity: restocks.get(productId)! })),
  });
};

/**
 * What of a credit sale's unpaid part the customer owes once a credit note they hold (a balance below
 * zero) is used first (docs/adr/0059): the sale's credit_outstanding.
 */
export const owedAfterCredit = (customer: Pick<Customer, 'creditBalance'>, balanceDue: Kobo): Kobo => kobo(Math.max(0, balanceDue + Math.min(0, customer.creditBalance)));
