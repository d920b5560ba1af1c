import * as E from 'fp-ts/lib/Either.js';
import { boundClientTime, previousSyncBefore } from '../../domain/client-time.js';
import { lagosDate } from '../../domain/lagos-time.js';
import { kobo, type Kobo } from '../../domain/money.js';
import { checkMonthlySale, limitsMonthlySales, monthlySalesUsage, type MonthlySalesUsage, type PlanGate } from '../../domain/plan.js';
import { saleRecorded } from '../../domain/events.js';
import { owedAfterCredit } from '../../domain/sale-return.js';
import type { Actor } from '../../domain/roles.js';
import { checkSaleAmounts, checkSettlement, type InvalidTenders, type PaymentMethod, type PricingFailure, type Sale, type SaleAmountsFailure, type SaleDraft, type Tender } from '../../domain/sale.js';
import { vatModeOf } from '../../domain/vat.js';
import {
  checkSaleCredit,
  decideSale,
  offlineShortfalls,
  saleShortage,
  type ArchivedProducts,
  type CreditBalanceLimitExceeded,
  type CreditLimitExceeded,
  type CustomerRequired,
  type ProvisionalReceiptNumberTaken,
  type SaleShortage,
  type UnknownCustomer,
  type UnknownProducts,
} from '../../domain/sale-decision.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { EventRepositories } from '../ports/outbox.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import type { UnknownBranch } from '../business/errors.js';
import { moveStocks } from '../products/move-stock.js';
import { stockBranchFor, type WrongBranch } from '../products/branch-stock.js';
import { recordCreditEntry } from '../customers/credit-entry.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { CustomerRepositories } from '../customers/ports.js';
import type { ProductRepositories } from '../products/ports.js';
import type { SaleRepositories } from './ports.js';
import type { SyncRepositories } from '../sync/ports.js';
import { underClientId, type ClientIdConflict, type ClientMade, type Replayed } from '../sync/client-id.js';

export interface SaleItemCommand {
  readonly productId: string;
  readonly quantity: number;
  readonly unitPrice?: Kobo;
  readonly discount?: Kobo;
}

export interface SaleCommand extends ClientMade {
  readonly items: readonly SaleItemCommand[];
  /** One of the two: the old shape's method (with amountPaid), or split tenders adding up to the total (docs/adr/0055). */
  readonly paymentMethod?: PaymentMethod;
  readonly payments?: readonly Tender[];
  readonly amountPaid?: Kobo;
  /** Cash handed over; the change due is what it exceeds the amount paid by. */
  readonly amountTendered?: Kobo;
  readonly customerId?: string;
  readonly discount?: Kobo;
  readonly note?: string;
  readonly branchId?: string;
  /**
   * A sale a till made offline, arriving through POST /sync/batch: it takes its stock even below zero
   * (the goods already left; each shortfall becomes a conflict for the owner, docs/adr/0034). Like every
   * sale it counts toward the plan's month it is recorded in; its clientCreatedAt is kept, bounded
   * (docs/adr/0039).
   */
  readonly offline?: { readonly deviceId: string; readonly provisionalReceiptNumber?: string };
}

// The failures a sale's facts decide live with the decision (domain/sale-decision.ts).
export type { ArchivedProducts, CreditBalanceLimitExceeded, CreditLimitExceeded, CustomerRequired, ProvisionalReceiptNumberTaken, UnknownCustomer, UnknownProducts } from '../../domain/sale-decision.js';
export type SaleFailure =
  | InvalidTenders
  | SaleAmountsFailure
  | CreditBalanceLimitExceeded
  | UnknownProducts
  | ArchivedProducts
  | UnknownCustomer
  | CustomerRequired
  | CreditLimitExceeded
  | UnknownBranch
  | WrongBranch
  | PricingFailure
  /** `index`: the first item of the cart naming the product. */
  | SaleShortage
  | PlanGate
  | ClientIdConflict
  | ProvisionalReceiptNumberTaken;

/** What a sale is made from, as the device sent it: not which device or route it came through (a retry may take another). */
const saleContent = ({ offline, ...cmd }: SaleCommand) => ({ ...cmd, provisionalReceiptNumber: offline?.provisionalReceiptNumber });

/** The sale, and on a plan that caps sales a month, the month's usage including this sale. */
export interface RecordedSale {
  readonly sale: Sale;
  readonly monthlySales: MonthlySalesUsage | null;
}

/**
 * Records a sale in one transaction: prices it in kobo, takes stock for every line from the sale's
 * branch (one conditional update per product, in id order so two carts sharing products cannot
 * deadlock) with ledger rows,
 * counts it against the plan's month and gives it the next gap-free receipt number. If any line
 * lacks stock, or the plan's month is full, nothing is written. Negative money or a quantity below one
 * is refused before anything is read. It reads its facts, decides (`decideSale`, then
 * `checkSaleCredit` under the customer's lock: domain/sale-decision.ts) and writes the plan (docs/adr/0049).
 */
export const recordSale =
  (deps: { uow: UnitOfWork<SaleRepositories & ProductRepositories & CustomerRepositories & Pick<BusinessRepositories, 'businesses' | 'branches'> & EventRepositories & SyncRepositories>; clock: Clock; crypto: Crypto }) =>
  async (actor: Actor, cmd: SaleCommand): Promise<E.Either<SaleFailure, Replayed<RecordedSale>>> => {
    const broken = checkSettlement(cmd) ?? checkSaleAmounts(cmd);
    if (broken) return E.left(broken);
    // Set when the sale's number is taken with the COMMIT (SaleRepository.addNumberedAtCommit): the answer gets it after.
    let numberAtCommit: Promise<string> | undefined;
    const recorded = await deps.uow.run<E.Either<SaleFailure, Replayed<RecordedSale>>>(async (r) => {
      numberAtCommit = undefined; // a retried transaction starts over
      const now = deps.clock.now();
      const replay = async (id: string) => {
        const sale = await r.sales.findById(actor.businessId, id);
        return sale && { sale, monthlySales: null };
      };
      return underClientId<SaleFailure, RecordedSale>(deps, r, { businessId: actor.businessId, kind: 'SALE', made: cmd, content: saleContent(cmd), at: now }, replay, async (clientId) => {
      // The reads that decide whether the sale can be made, started side by side: on PostgreSQL they
      // go to the server together, with the transaction's BEGIN, in one round trip (sql-session.ts).
      const ids = [...new Set(cmd.items.map((i) => i.productId))];
      const [business, chosen, customerKnown, found, previousSyncAt] = await Promise.all([
        r.businesses.findById(actor.businessId),
        stockBranchFor(r, actor, cmd.branchId),
        cmd.customerId ? r.customers.exists(actor.businessId, cmd.customerId) : true,
        r.products.findMany(actor.businessId, ids),
        cmd.offline && cmd.clientCreatedAt ? r.sales.lastSyncedAt(actor.businessId, cmd.offline.deviceId, previousSyncBefore(now)) : null,
      ]);
      if (!business) throw new Error(`business ${actor.businessId} of an authenticated actor does not exist`);
      // The device's claimed time, inside what the server knows (docs/adr/0039); the command's own stays
      // in its client id's fingerprint and record, so a retry still replays.
      const clientCreatedAt = cmd.clientCreatedAt ? boundClientTime(cmd.clientCreatedAt, { businessCreatedAt: business.createdAt, previousSyncAt, now }).at : null;
      if (E.isLeft(chosen)) return chosen;
      const branch = chosen.right;
      const provisional = cmd.offline?.provisionalReceiptNumber;
      // Read only when the decision can still turn on it (an unknown customer is refused first): the same statements as before the decision moved out.
      const provisionalTaken = provisional && customerKnown ? (await r.sales.findByReceiptNumber(actor.businessId, provisional)) !== undefined : false;

      const decided = decideSale({ branch, customerKnown, provisionalTaken, products: found, vat: vatModeOf(business) }, cmd);
      if (E.isLeft(decided)) return decided;
      const plan = decided.right;
      const priced = plan.priced;
      // The customer is locked before any product: every credit change takes customer, then sale, then products.
      const customer = cmd.customerId ? await r.customers.findById(actor.businessId, cmd.customerId, { forUpdate: true }) : undefined;
      const overCredit = checkSaleCredit(plan, customer);
      if (overCredit) return E.left(overCredit);

      const saleId = clientId ?? deps.crypto.uuid();
      // the plan's takes are in product id order: one lock order for every writer of stock
      const moved = await moveStocks(deps, r, actor, plan.takes.map((t) => ({ productId: t.productId, branchId: branch.id, change: -t.quantity, reason: 'SALE', at: now, saleId, belowZero: cmd.offline !== undefined })));
      if (!moved.ok) {
        if (!moved.refusal) throw new Error(`product ${plan.takes[moved.index]!.productId} vanished inside the sale's transaction`);
        return rollback(E.left(saleShortage(plan, moved.index, moved.refusal.available)));
      }

      const shortfalls = offlineShortfalls(moved.movements);

      // every sale to a customer is in their ledger; its effect is the unpaid part (0 when paid in full)
      if (customer) await recordCreditEntry(deps, r, actor, { customer, kind: 'SALE', amount: priced.balanceDue, saleId });

      // Business-wide counters last: their row locks are held only until the commit just after.
      // Every sale counts in the Lagos month it is recorded in (its created_at, now), whatever its device
      // claims: a closed month's usage never moves, and the counter agrees with the sales (docs/adr/0039).
      let monthlySales: MonthlySalesUsage | null = null;
      if (limitsMonthlySales(business.plan)) {
        const count = await r.sales.countSaleInMonth(actor.businessId, lagosDate(now).slice(0, 7));
        const gate = checkMonthlySale(business.plan, count);
        if (gate) return rollback(E.left(gate));
        monthlySales = monthlySalesUsage(business.plan, count);
      }
      const draft: SaleDraft = {
        id: saleId,
        businessId: actor.businessId,
        branchId: branch.id,
        customerId: cmd.customerId ?? null,
        paymentMethod: plan.paymentMethod,
        payments: plan.payments,
        ...priced,
        status: 'COMPLETED',
        note: cmd.note ?? null,
        createdBy: actor.userId,
        createdAt: now,
        voidedAt: null,
        voidReason: null,
        voidedBy: null,
        // a credit note the customer holds (a balance below zero) pays this sale's unpaid part first (docs/adr/0059)
        creditOutstanding: customer ? owedAfterCredit(customer, priced.balanceDue) : kobo(0),
        refundAmount: null,
        ...(cmd.offline
          ? { offline: { deviceId: cmd.offline.deviceId, provisionalReceiptNumber: provisional ?? null, clientCreatedAt, needsReview: shortfalls.length > 0 } }
          : {}),
      };
      // A sale on credit checks the whole business's credit after the receipt counter's lock, which it holds
      // to its commit: credit sales to other customers at the same moment are counted too (the last to
      // commit sees all the others). Any other sale takes its number with the COMMIT (docs/adr/0084).
      const onCredit = customer !== undefined && priced.balanceDue > 0;
      const numbered = onCredit ? { receiptNumber: await r.sales.add(draft) } : await r.sales.addNumberedAtCommit(draft);
      numberAtCommit = numbered.committed;
      const sale: Sale = { ...draft, receiptNumber: numbered.receiptNumber };
      if (onCredit && (await r.customers.totalOwedExceeds(actor.businessId, Number.MAX_SAFE_INTEGER))) {
        return rollback(E.left({ _tag: 'CreditBalanceLimitExceeded', balance: customer.creditBalance, scope: 'business' }));
      }
      for (const { m, shortfall } of shortfalls) {
        await r.saleConflicts.add({
          id: deps.crypto.uuid(), businessId: actor.businessId, saleId, productId: m.productId, branchId: m.branchId, requested: -m.quantityChange,
          available: Math.max(m.quantityBefore, 0), shortfall, status: 'OPEN', resolution: null, quantityChange: null, note: null, resolvedBy: null, resolvedAt: null, createdAt: now,
        });
      }
      await r.events.record(now, saleRecorded(sale));
      return E.right({ sale, monthlySales });
      });
    });
    if (!numberAtCommit || E.isLeft(recorded)) return recorded;
    return E.right({ ...recorded.right, sale: { ...recorded.right.sale, receiptNumber: await numberAtCommit } });
  };
