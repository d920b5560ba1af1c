import * as E from 'fp-ts/lib/Either.js';
import type { StockTransfer } from '../../domain/product.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { EventRepositories } from '../ports/outbox.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound, type UnknownBranch } from '../business/errors.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { InsufficientStock } from './adjust-stock.js';
import { moveStocks, type StockMove } from './move-stock.js';
import type { ProductRepositories, TransferSort } from './ports.js';

export interface TransferCommand {
  readonly fromBranchId: string;
  readonly toBranchId: string;
  readonly items: readonly { readonly productId: string; readonly quantity: number }[];
  readonly note?: string;
}

/** A transfer names the same branch twice. */
export type SameBranch = { readonly _tag: 'SameBranch' };
/** Items naming a product the business does not have (`indexes`: their places in the request). */
export type UnknownTransferProducts = { readonly _tag: 'UnknownProducts'; readonly indexes: number[] };
/** Items naming a service, which keeps no stock to move. */
export type ServiceItems = { readonly _tag: 'ServiceItems'; readonly indexes: number[] };

export type TransferFailure =
  | SameBranch
  | UnknownBranch
  | UnknownTransferProducts
  | ServiceItems
  | (InsufficientStock & { readonly name: string; readonly index: number });

type Repos = ProductRepositories & EventRepositories & Pick<BusinessRepositories, 'branches'>;

/**
 * Moves stock from one branch to another in one transaction: per product (in id order, the lock order
 * of every stock writer) a TRANSFER_OUT row at the source and a TRANSFER_IN row at the destination.
 * Not enough at the source for any line: nothing moves. The product's total never changes. Both
 * branches are locked for use, so neither is archived under the transfer. Lines naming one product
 * twice are moved as one.
 */
export const transferStock =
  (deps: { uow: UnitOfWork<Repos>; clock: Clock; crypto: Crypto }) =>
  (actor: Actor, cmd: TransferCommand): Promise<E.Either<TransferFailure, StockTransfer>> =>
    deps.uow.run<E.Either<TransferFailure, StockTransfer>>(async (r) => {
      if (cmd.fromBranchId === cmd.toBranchId) return E.left({ _tag: 'SameBranch' });
      const from = await r.branches.findById(actor.businessId, cmd.fromBranchId, { lock: 'use' });
      if (!from) return E.left({ _tag: 'UnknownBranch', branchId: cmd.fromBranchId, field: 'from_branch_id' });
      const to = await r.branches.findById(actor.businessId, cmd.toBranchId, { lock: 'use' });
      if (!to) return E.left({ _tag: 'UnknownBranch', branchId: cmd.toBranchId, field: 'to_branch_id' });

      const ids = [...new Set(cmd.items.map((i) => i.productId))];
      const products = new Map((await r.products.findMany(actor.businessId, ids)).map((p) => [p.id, p]));
      const unknown = cmd.items.flatMap((i, index) => (products.has(i.productId) ? [] : [index]));
      if (unknown.length > 0) return E.left({ _tag: 'UnknownProducts', indexes: unknown });
      const services = cmd.items.flatMap((i, index) => (products.get(i.productId)!.type === 'SERVICE' ? [index] : []));
      if (services.length > 0) return E.left({ _tag: 'ServiceItems', indexes: services });

      const wanted = new Map<string, number>();
      for (const i of cmd.items) wanted.set(i.productId, (wanted.get(i.productId) ?? 0) + i.quantity);
      const now = deps.clock.now();
      const transferId = deps.crypto.uuid();
      const note = cmd.note ?? null;
      const moves: StockMove[] = [...wanted.keys()].sort().flatMap((productId) => [
        { productId, branchId: from.id, change: -wanted.get(productId)!, reason: 'TRANSFER_OUT' as const, at: now, note, transferId },
        { productId, branchId: to.id, change: wanted.get(productId)!, reason: 'TRANSFER_IN' as const, at: now, note, transferId },
      ]);
      const moved = await moveStocks(deps, r, actor, moves);
      if (!moved.ok) {
        const productId = moves[moved.index]!.productId;
        // Only the source can refuse: the destination gains what the source lost, so the total never passes MAX_STOCK.
        if (!moved.refusal || moved.refusal.reason !== 'INSUFFICIENT') throw new Error(`transfer of product ${productId} refused: ${moved.refusal?.reason}`);
        const index = cmd.items.findIndex((i) => i.productId === productId);
        const shortage = { productId, name: products.get(productId)!.name, index, available: moved.refusal.available, requested: wanted.get(productId)! };
        return rollback(E.left({ _tag: 'InsufficientStock', ...shortage, branchId: from.id, branchName: from.name }));
      }
      const transfer: StockTransfer = {
        id: transferId,
        businessId: actor.businessId,
        fromBranchId: from.id,
        toBranchId: to.id,
        note,
        createdBy: actor.userId,
        createdAt: now,
        items: [...wanted.keys()].sort().map((productId) => ({ productId, quantity: wanted.get(productId)! })),
      };
      await r.stockTransfers.add(transfer);
      return E.right(transfer);
    });

export const listStockTransfers =
  (deps: { uow: UnitOfWork<Pick<ProductRepositories, 'stockTransfers'>> }) =>
  (actor: Actor, page: PageRequest<TransferSort>, filter: { branchId?: string }): Promise<Page<StockTransfer>> =>
    deps.uow.read((r) => r.stockTransfers.list(actor.businessId, page, filter));

export const getStockTransfer =
  (deps: { uow: UnitOfWork<Pick<ProductRepositories, 'stockTransfers'>> }) =>
  async (actor: Actor, id: string): Promise<E.Either<NotFound, StockTransfer>> => {
    const t = await deps.uow.read((r) => r.stockTransfers.findById(actor.businessId, id));
    return t ? E.right(t) : E.left(notFound);
  };
