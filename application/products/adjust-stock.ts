import * as E from 'fp-ts/lib/Either.js';
import { checkPrices, checkQuantityChange, type NegativePrice, type ZeroQuantityChange } from '../../domain/amount-rules.js';
import type { Kobo } from '../../domain/money.js';
import { MAX_STOCK, type AdjustmentReason, type InsufficientStock, type StockLimitExceeded, type StockMovement } from '../../domain/product.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import { moveStock } from './move-stock.js';
import type { MovementFilter, MovementSort, ProductRepositories } from './ports.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { UnknownBranch } from '../business/errors.js';
import type { BusinessRepositories } from '../business/ports.js';
import { stockBranchFor, type WrongBranch } from './branch-stock.js';
import type { SyncRepositories } from '../sync/ports.js';
import { underClientId, type ClientIdConflict, type ClientMade, type Replayed } from '../sync/client-id.js';


export type { InsufficientStock, StockLimitExceeded } from '../../domain/product.js';
export type ServiceHasNoStock = { readonly _tag: 'ServiceHasNoStock' };

export interface AdjustmentCommand extends ClientMade {
  readonly productId: string;
  readonly quantityChange: number;
  readonly reason: AdjustmentReason;
  readonly note?: string;
  readonly unitCost?: Kobo;
  /** The branch whose stock moves: else the member's assigned branch, else the default. */
  readonly branchId?: string;
}

type AdjustmentFailure = NegativePrice | ZeroQuantityChange | NotFound | InsufficientStock | ServiceHasNoStock | StockLimitExceeded | UnknownBranch | WrongBranch;

/**
 * Records a stock adjustment: the quantity moves in one conditional update (never below zero,
 * never a lost update under concurrency) and the ledger row is written in the same transaction.
 * The change is a whole number other than zero and the unit cost, a price, is not negative.
 */
export const adjustStock =
  (deps: { uow: UnitOfWork<ProductRepositories & EventRepositories & Pick<BusinessRepositories, 'branches'> & SyncRepositories>; clock: Clock; crypto: Crypto }) =>
  async (actor: Actor, cmd: AdjustmentCommand): Promise<E.Either<AdjustmentFailure | ClientIdConflict, Replayed<StockMovement>>> => {
    const broken = checkPrices([['unitCost', cmd.unitCost]]) ?? checkQuantityChange('quantityChange', cmd.quantityChange);
    if (broken) return E.left(broken);
    return deps.uow.run(async (r) => {
      const replay = (id: string) => r.stockLedger.findById(actor.businessId, id);
      return underClientId<AdjustmentFailure, StockMovement>(deps, r, { businessId: actor.businessId, kind: 'STOCK_ADJUSTMENT', made: cmd, content: cmd, at: deps.clock.now() }, replay, async (clientId) => {
      const branch = await stockBranchFor(r, actor, cmd.branchId);
      if (E.isLeft(branch)) return branch;
      const product = await r.products.findById(actor.businessId, cmd.productId);
      if (!product) return E.left(notFound);
      if (product.type === 'SERVICE') return E.left({ _tag: 'ServiceHasNoStock' as const });
      const moved = await moveStock(deps, r, actor, {
        productId: cmd.productId,
        branchId: branch.right.id,
        change: cmd.quantityChange,
        reason: cmd.reason,
        at: deps.clock.now(),
        note: cmd.note ?? null,
        unitCost: cmd.unitCost ?? null,
        ...(clientId ? { id: clientId } : {}),
      });
      if (!moved) return E.left(notFound);
      // a refusal writes nothing (rolled back: a take from a branch without stock may have left its empty row)
      if (!moved.ok && moved.reason === 'LIMIT') return rollback(E.left({ _tag: 'StockLimitExceeded' as const, productId: cmd.productId, available: moved.available, max: MAX_STOCK }));
      if (!moved.ok) {
        const { id: branchId, name: branchName } = branch.right;
        return rollback(E.left({ _tag: 'InsufficientStock' as const, productId: cmd.productId, available: moved.available, requested: -cmd.quantityChange, branchId, branchName }));
      }
      return E.right(moved.movement);
      });
    });
  };

export const listStockMovements =
  (deps: { uow: UnitOfWork<Pick<ProductRepositories, 'stockLedger'>> }) =>
  (actor: Actor, page: PageRequest<MovementSort>, filter: MovementFilter): Promise<Page<StockMovement>> =>
    deps.uow.read((r) => r.stockLedger.list(actor.businessId, page, filter));

export const getStockMovement =
  (deps: { uow: UnitOfWork<Pick<ProductRepositories, 'stockLedger'>> }) =>
  async (actor: Actor, id: string): Promise<E.Either<NotFound, StockMovement>> => {
    const m = await deps.uow.read((r) => r.stockLedger.findById(actor.businessId, id));
    return m ? E.right(m) : E.left(notFound);
  };
