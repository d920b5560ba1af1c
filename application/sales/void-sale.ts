import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../domain/roles.js';
import type { Sale } from '../../domain/sale.js';
import { saleVoided } from '../../domain/events.js';
import { decideVoid, type SaleAlreadyVoided, type SaleHasReturns } from '../../domain/sale-decision.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import { MAX_STOCK } from '../../domain/product.js';
import type { StockLimitExceeded } from '../products/adjust-stock.js';
import { notFound, type NotFound } from '../business/errors.js';
import { moveStocks } from '../products/move-stock.js';
import { recordCreditEntry } from '../customers/credit-entry.js';
import type { CustomerRepositories } from '../customers/ports.js';
import type { ProductRepositories } from '../products/ports.js';
import type { SaleRepositories } from './ports.js';
import type { ReturnRepositories } from '../returns/ports.js';

export type { SaleAlreadyVoided, SaleHasReturns } from '../../domain/sale-decision.js';

/**
 * Voids a sale: exactly the stock its SALE ledger rows took goes back to the branch it was taken from (with SALE_VOID rows), and the
 * sale is marked VOIDED. What the customer still owed for it is reversed in their credit ledger;
 * what they had paid for it (at the till and in later payments) is recorded as the refund to hand
 * back, so a balance never goes below zero (docs/adr/0011). A sale with returns is not voided (its
 * rest is returned instead, docs/adr/0058). Locks: customer, then sale, then products.
 * It reads its facts, decides (`decideVoid`, domain/sale-decision.ts) and writes the plan (docs/adr/0049).
 */
export const voidSale =
  (deps: { uow: UnitOfWork<SaleRepositories & ProductRepositories & CustomerRepositories & EventRepositories & ReturnRepositories>; clock: Clock; crypto: Crypto }) =>
  (actor: Actor, saleId: string, reason: string): Promise<E.Either<NotFound | SaleAlreadyVoided | SaleHasReturns | StockLimitExceeded, Sale>> =>
    deps.uow.run(async (r) => {
      const peek = await r.sales.findById(actor.businessId, saleId);
      if (!peek) return E.left(notFound);
      const customer = peek.customerId ? await r.customers.findById(actor.businessId, peek.customerId, { forUpdate: true }) : undefined;
      const sale = (await r.sales.findById(actor.businessId, saleId, { forUpdate: true }))!;
      // Read only when the decision can still turn on them (a voided sale is refused first); the returns
      // under the sale's lock, which every return takes too.
      const [movements, returnCount] =
        sale.status === 'VOIDED' ? [[], 0] : await Promise.all([r.stockLedger.forSale(actor.businessId, saleId), r.saleReturns.countOfSale(actor.businessId, saleId)]);
      const now = deps.clock.now();
      const decided = decideVoid({ sale, movements, returns: returnCount }, { reason, by: actor.userId, at: now });
      if (E.isLeft(decided)) return decided;
      const { returns, voided, owed } = decided.right;
      const moved = await moveStocks(deps, r, actor, returns.map((m) => ({ productId: m.productId, branchId: m.branchId, change: m.quantity, reason: 'SALE_VOID' as const, at: now, note: reason, saleId })));
      if (!moved.ok) {
        const productId = returns[moved.index]!.productId;
        if (moved.refusal?.reason === 'LIMIT') return rollback(E.left({ _tag: 'StockLimitExceeded' as const, productId, available: moved.refusal.available, max: MAX_STOCK }));
        throw new Error(`stock of product ${productId} could not be returned`);
      }
      await r.sales.markVoided(voided);
      if (customer) await recordCreditEntry(deps, r, actor, { customer, kind: 'VOID', amount: -owed, saleId: voided.id, note: reason });
      await r.events.record(now, saleVoided(voided, returns));
      return E.right(voided);
    });
