import * as E from 'fp-ts/lib/Either.js';
import type { QuantityNotPositive } from '../../domain/amount-rules.js';
import { allocateOldestFirst, type Allocation } from '../../domain/credit.js';
import { returnRecorded } from '../../domain/events.js';
import { kobo } from '../../domain/money.js';
import { MAX_STOCK, type StockLimitExceeded } from '../../domain/product.js';
import type { Actor } from '../../domain/roles.js';
import { checkReturnQuantities, decideReturn, type RefundMethod, type ReturnDecisionFailure, type SaleReturn, type SaleReturnDraft } from '../../domain/sale-return.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { EventRepositories } from '../ports/outbox.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import { recordCreditEntry } from '../customers/credit-entry.js';
import type { CustomerRepositories } from '../customers/ports.js';
import { assignedBranch, type WrongBranch } from '../products/branch-stock.js';
import { moveStocks } from '../products/move-stock.js';
import type { ProductRepositories } from '../products/ports.js';
import type { SaleRepositories } from '../sales/ports.js';
import type { SyncRepositories } from '../sync/ports.js';
import { underClientId, type ClientIdConflict, type ClientMade, type Replayed } from '../sync/client-id.js';
import type { ReturnRepositories } from './ports.js';

export type { ProductNotInSale, ReturnExceedsSold, CreditNoteNeedsCustomer } from '../../domain/sale-return.js';

export interface ReturnCommand extends ClientMade {
  readonly saleId: string;
  readonly items: readonly { readonly productId: string; readonly quantity: number }[];
  /** true: the goods go back on the shelf of the sale's branch; false: damaged, no stock moves. */
  readonly restock: boolean;
  readonly refundMethod: RefundMethod;
  readonly reason: string;
  /** A return a till made offline, arriving through POST /sync/batch. */
  readonly offline?: { readonly deviceId: string };
}

export type ReturnFailure = QuantityNotPositive | NotFound | WrongBranch | ReturnDecisionFailure | StockLimitExceeded | ClientIdConflict;

/** What a return is made from, as the device sent it (not which device or route it came through). */
const returnContent = ({ offline: _offline, ...cmd }: ReturnCommand) => cmd;

/**
 * Records a return of part (or the rest) of a sale in one transaction (docs/adr/0058): decides it
 * (`decideReturn`: no more than the sale has left to return, the money as sold to the kobo), puts
 * restocked goods back at the sale's branch with RETURN ledger rows, clears what the customer still
 * owed on the sale first and, for a CREDIT_NOTE, keeps the refund on their credit account (their other
 * open debts first, then below zero: docs/adr/0059), and gives it the next gap-free return number.
 * Owner and staff; a staff member assigned to a branch returns only that branch's sales. Locks:
 * customer, then sale, then products (as a void): two returns of one sale run one after the other, so
 * they cannot both take its last returnable unit.
 */
export const recordReturn =
  (deps: {
    uow: UnitOfWork<ReturnRepositories & Pick<SaleRepositories, 'sales'> & ProductRepositories & CustomerRepositories & EventRepositories & SyncRepositories>;
    clock: Clock;
    crypto: Crypto;
  }) =>
  async (actor: Actor, cmd: ReturnCommand): Promise<E.Either<ReturnFailure, Replayed<SaleReturn>>> => {
    const broken = checkReturnQuantities(cmd);
    if (broken) return E.left(broken);
    return deps.uow.run(async (r) => {
      const now = deps.clock.now();
      const replay = (id: string) => r.saleReturns.findById(actor.businessId, id);
      const claim = { businessId: actor.businessId, kind: 'RETURN' as const, made: cmd, content: returnContent(cmd), at: now };
      return underClientId<Exclude<ReturnFailure, QuantityNotPositive | ClientIdConflict>, SaleReturn>(deps, r, claim, replay, async (clientId) => {
        const peek = await r.sales.findById(actor.businessId, cmd.saleId);
        if (!peek) return E.left(notFound);
        const assigned = assignedBranch(actor);
        if (assigned !== null && peek.branchId !== assigned) return E.left({ _tag: 'WrongBranch', branchId: peek.branchId, assignedBranchId: assigned });
        const customer = peek.customerId ? await r.customers.findById(actor.businessId, peek.customerId, { forUpdate: true }) : undefined;
        const sale = (await r.sales.findById(actor.businessId, cmd.saleId, { forUpdate: true }))!;
        // Read under the sale's lock (only when the decision can still turn on them: a voided sale is refused first).
        const [returnedBefore, movements] =
          sale.status === 'VOIDED'
            ? [new Map<number, number>(), []]
            : await Promise.all([r.saleReturns.returnedUnits(actor.businessId, sale.id), r.stockLedger.forSale(actor.businessId, sale.id)]);
        const decided = decideReturn({ sale, returnedBefore, movements }, cmd);
        if (E.isLeft(decided)) return decided;
        const plan = decided.right;

        const moved = await moveStocks(
          deps,
          r,
          actor,
          plan.restocks.map((x) => ({ productId: x.productId, branchId: sale.branchId, change: x.quantity, reason: 'RETURN' as const, at: now, note: cmd.reason, saleId: sale.id })),
        );
        if (!moved.ok) {
          const productId = plan.restocks[moved.index]!.productId;
          if (moved.refusal?.reason === 'LIMIT') return rollback(E.left({ _tag: 'StockLimitExceeded' as const, productId, available: moved.refusal.available, max: MAX_STOCK }));
          throw new Error(`stock of product ${productId} could not be returned`);
        }

        // Every return of a customer's sale is in their ledger (as every sale is): what it cleared of the
        // sale's debt, plus a credit note's refund, which pays their other debts first, then goes below zero.
        if (customer) {
          const creditNote = cmd.refundMethod === 'CREDIT_NOTE' ? plan.refundAmount : kobo(0);
          const allocations: Allocation[] = plan.debtReduced > 0 ? [{ saleId: sale.id, amount: plan.debtReduced }] : [];
          if (creditNote > 0) {
            const others = (await r.credit.openDebts(actor.businessId, customer.id, { forUpdate: true })).filter((d) => d.saleId !== sale.id);
            allocations.push(...allocateOldestFirst(others, creditNote));
          }
          for (const a of allocations) await r.credit.reduceOutstanding(actor.businessId, a.saleId, a.amount);
          const entry = await recordCreditEntry(deps, r, actor, { customer, kind: 'RETURN', amount: -(plan.debtReduced + creditNote), saleId: sale.id, note: cmd.reason });
          await r.credit.addAllocations(actor.businessId, entry.id, allocations);
        }

        const draft: SaleReturnDraft = {
          id: clientId ?? deps.crypto.uuid(),
          businessId: actor.businessId,
          saleId: sale.id,
          branchId: sale.branchId,
          customerId: sale.customerId,
          lines: plan.lines,
          restock: cmd.restock,
          refundMethod: cmd.refundMethod,
          reason: cmd.reason,
          amount: plan.amount,
          vatAmount: plan.vatAmount,
          debtReduced: plan.debtReduced,
          refundAmount: plan.refundAmount,
          costReturned: plan.costReturned,
          createdBy: actor.userId,
          createdAt: now,
          ...(cmd.offline ? { offline: { deviceId: cmd.offline.deviceId, clientCreatedAt: cmd.clientCreatedAt ?? null } } : {}),
        };
        // The return number's counter last: its row lock is held only until the commit just after.
        const saved: SaleReturn = { ...draft, receiptNumber: sale.receiptNumber, returnNumber: await r.saleReturns.add(draft) };
        await r.events.record(now, returnRecorded(saved));
        return E.right(saved);
      });
    });
  };
