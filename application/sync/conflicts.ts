import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../domain/roles.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { CustomerRepositories } from '../customers/ports.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { adjustStock } from '../products/adjust-stock.js';
import type { ProductRepositories } from '../products/ports.js';
import type { SaleRepositories } from '../sales/ports.js';
import { voidSale } from '../sales/void-sale.js';
import type { ReturnRepositories } from '../returns/ports.js';
import type { ConflictSort, SaleConflict, SyncRepositories } from './ports.js';

type Repositories = SyncRepositories & SaleRepositories & ProductRepositories & CustomerRepositories & EventRepositories & ReturnRepositories & Pick<BusinessRepositories, 'branches'>;
type Deps = { uow: UnitOfWork<Repositories>; clock: Clock; crypto: Crypto };

export type ConflictAlreadyResolved = { readonly _tag: 'ConflictAlreadyResolved' };

/** The owner's decision on an oversell: the stock was there after all (a correction of the branch's count), or the sale is voided. */
export type ConflictDecision =
  | { readonly resolution: 'STOCK_CORRECTION'; readonly quantityChange: number; readonly note?: string }
  | { readonly resolution: 'VOID'; readonly note?: string };

type AdjustFailure = Extract<Awaited<ReturnType<ReturnType<typeof adjustStock>>>, { _tag: 'Left' }>['left'];
type VoidFailure = Extract<Awaited<ReturnType<ReturnType<typeof voidSale>>>, { _tag: 'Left' }>['left'];
export type ResolveConflictFailure = NotFound | ConflictAlreadyResolved | AdjustFailure | VoidFailure;

/** The business's oversell conflicts, newest first by default; `status` OPEN for those awaiting a decision. */
export const listConflicts =
  (deps: { uow: UnitOfWork<SyncRepositories> }) =>
  (actor: Actor, page: PageRequest<ConflictSort>, filter: { status?: SaleConflict['status'] }): Promise<Page<SaleConflict>> =>
    deps.uow.read((r) => r.saleConflicts.list(actor.businessId, page, filter));

/**
 * Records the owner's decision on an oversell, in one transaction with what it does: a STOCK_CORRECTION
 * adjusts the branch's stock (reason CORRECTION, as POST /products/stock-adjustment would); a VOID voids
 * the sale (its stock goes back) and settles every open conflict of that sale. Once none is open the sale
 * no longer needs review. A conflict is decided once (409 after).
 */
export const resolveConflict =
  (deps: Deps) =>
  async (actor: Actor, conflictId: string, decision: ConflictDecision): Promise<E.Either<ResolveConflictFailure, SaleConflict>> =>
    deps.uow.atomically(async () => {
      const conflict = await deps.uow.run((r) => r.saleConflicts.findById(actor.businessId, conflictId, { forUpdate: true }));
      if (!conflict) return E.left(notFound);
      if (conflict.status === 'RESOLVED') return E.left({ _tag: 'ConflictAlreadyResolved' as const });
      const note = decision.note ?? null;
      let quantityChange: number | null = null;
      if (decision.resolution === 'STOCK_CORRECTION') {
        const adjusted = await adjustStock(deps)(actor, {
          productId: conflict.productId,
          branchId: conflict.branchId,
          quantityChange: decision.quantityChange,
          reason: 'CORRECTION',
          note: decision.note ?? `Review of the offline sale ${conflict.provisionalReceiptNumber ?? conflict.receiptNumber}`,
        });
        if (E.isLeft(adjusted)) return adjusted;
        quantityChange = decision.quantityChange;
      } else {
        const voided = await voidSale(deps)(actor, conflict.saleId, decision.note ?? 'Oversold offline: voided on review');
        // a sale voided meanwhile is what the owner decides: the decision is recorded all the same
        if (E.isLeft(voided) && voided.left._tag !== 'SaleAlreadyVoided') return voided;
      }
      return deps.uow.run(async (r) => {
        const decided = { resolution: decision.resolution, quantityChange, note, resolvedBy: actor.userId, resolvedAt: deps.clock.now() };
        await r.saleConflicts.resolve(actor.businessId, decision.resolution === 'VOID' ? { saleId: conflict.saleId } : { conflictId }, decided);
        if ((await r.saleConflicts.openOfSale(actor.businessId, conflict.saleId)) === 0) await r.sales.clearNeedsReview(actor.businessId, conflict.saleId);
        return E.right((await r.saleConflicts.findById(actor.businessId, conflictId))!);
      });
    });
