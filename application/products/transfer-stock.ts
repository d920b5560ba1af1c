import * as E from 'fp-ts/lib/Either.js';
import type { StockTransfer } from '../../domain/product.js';
import { checkTransfer, decideTransfer, transferShortage, type SameBranch, type ServiceItems, type TransferShortage, type UnknownTransferProducts } from '../../domain/transfer-decision.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { EventRepositories } from '../ports/outbox.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound, type UnknownBranch } from '../business/errors.js';
import type { BusinessRepositories } from '../business/ports.js';
import { moveStocks, type StockMove } from './move-stock.js';
import type { ProductRepositories, TransferSort } from './ports.js';

export interface TransferCommand {
  readonly fromBranchId: string;
  readonly toBranchId: string;
  readonly items: readonly { readonly productId: string; readonly quantity: number }[];
  readonly note?: string;
}

// The failures a transfer's facts decide live with the decision (domain/transfer-decision.ts).
export type { SameBranch, ServiceItems, UnknownTransferProducts } from '../../domain/transfer-decision.js';

export type TransferFailure =
  | SameBranch
  | UnknownBranch
  | UnknownTransferProducts
  | ServiceItems
  | TransferShortage;

type Repos = ProductRepositories & EventRepositories & Pick<BusinessRepositories, 'branches'>;

/**
 * Moves stock from one branch to another in one transaction: per product (in id order, the lock order
 * of every stock writer) a TRANSFER_OUT row at the source and a TRANSFER_IN row at the destination.
 * Not enough at the source for any line: nothing moves. The product's total never changes. Both
 * branches are locked for use, so neither is archived under the transfer. Lines naming one product
 * twice are moved as one. It reads its facts, decides (`decideTransfer`, domain/transfer-decision.ts) and
 * writes the plan (docs/adr/0049).
 */
export const transferStock =
  (deps: { uow: UnitOfWork<Repos>; clock: Clock; crypto: Crypto }) =>
  (actor: Actor, cmd: TransferCommand): Promise<E.Either<TransferFailure, StockTransfer>> =>
    deps.uow.run<E.Either<TransferFailure, StockTransfer>>(async (r) => {
      const same = checkTransfer(cmd);
      if (same) return E.left(same);
      // Each fact read only when the decision can still turn on it (an unknown branch is refused first).
      const from = await r.branches.findById(actor.businessId, cmd.fromBranchId, { lock: 'use' });
      const to = from ? await r.branches.findById(actor.businessId, cmd.toBranchId, { lock: 'use' }) : undefined;
      const ids = [...new Set(cmd.items.map((i) => i.productId))];
      const products = from && to ? await r.products.findMany(actor.businessId, ids) : [];

      const decided = decideTransfer({ from, to, products }, cmd);
      if (E.isLeft(decided)) return decided;
      const plan = decided.right;
      const now = deps.clock.now();
      const transferId = deps.crypto.uuid();
      const note = cmd.note ?? null;
      const moves: StockMove[] = plan.lines.flatMap(({ productId, quantity }) => [
        { productId, branchId: plan.from.id, change: -quantity, reason: 'TRANSFER_OUT' as const, at: now, note, transferId },
        { productId, branchId: plan.to.id, change: quantity, reason: 'TRANSFER_IN' as const, at: now, note, transferId },
      ]);
      const moved = await moveStocks(deps, r, actor, moves);
      if (!moved.ok) {
        const productId = moves[moved.index]!.productId;
        // Only the source can refuse: the destination gains what the source lost, so the total never passes MAX_STOCK.
        if (!moved.refusal || moved.refusal.reason !== 'INSUFFICIENT') throw new Error(`transfer of product ${productId} refused: ${moved.refusal?.reason}`);
        return rollback(E.left(transferShortage(plan, plan.lines.findIndex((l) => l.productId === productId), moved.refusal.available)));
      }
      const transfer: StockTransfer = {
        id: transferId,
        businessId: actor.businessId,
        fromBranchId: plan.from.id,
        toBranchId: plan.to.id,
        note,
        createdBy: actor.userId,
        createdAt: now,
        items: plan.lines.map(({ productId, quantity }) => ({ productId, quantity })),
      };
      await r.stockTransfers.add(transfer);
      await r.events.record(now, { _tag: 'StockTransferred', businessId: actor.businessId, transferId, fromBranchId: transfer.fromBranchId, toBranchId: transfer.toBranchId, items: transfer.items, note });
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
