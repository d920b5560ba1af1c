import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../domain/roles.js';
import type { Sale } from '../../domain/sale.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';

export type SaleAlreadyVoided = { readonly _tag: 'SaleAlreadyVoided' };

/**
 * Voids a sale: exactly the stock its SALE ledger rows took goes back (with SALE_VOID rows), and the
 * sale is marked VOIDED. The sale row is locked first, so two voids cannot both return stock.
 */
export const voidSale =
  (deps: { uow: UnitOfWork; clock: Clock; crypto: Crypto }) =>
  (actor: Actor, saleId: string, reason: string): Promise<E.Either<NotFound | SaleAlreadyVoided, Sale>> =>
    deps.uow.run(async (r) => {
      const sale = await r.sales.findById(actor.businessId, saleId, { forUpdate: true });
      if (!sale) return E.left(notFound);
      if (sale.status === 'VOIDED') return E.left({ _tag: 'SaleAlreadyVoided' as const });
      const now = deps.clock.now();
      const taken = (await r.stockLedger.forSale(actor.businessId, saleId)).filter((m) => m.reason === 'SALE');
      for (const m of taken.sort((a, b) => (a.productId < b.productId ? -1 : 1))) {
        const moved = await r.products.changeQuantity(actor.businessId, m.productId, -m.quantityChange, now);
        if (!moved?.ok) throw new Error(`stock of product ${m.productId} could not be returned`);
        await r.stockLedger.add({
          id: deps.crypto.uuid(),
          businessId: actor.businessId,
          productId: m.productId,
          quantityChange: -m.quantityChange,
          quantityBefore: moved.before,
          quantityAfter: moved.after,
          reason: 'SALE_VOID',
          note: reason,
          unitCost: null,
          createdBy: actor.userId,
          createdAt: now,
          saleId,
        });
      }
      sale.status = 'VOIDED';
      sale.voidedAt = now;
      sale.voidReason = reason;
      sale.voidedBy = actor.userId;
      await r.sales.markVoided(sale);
      return E.right(sale);
    });
