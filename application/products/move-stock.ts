import type { Kobo } from '../../domain/money.js';
import type { MovementReason, StockMovement } from '../../domain/product.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import { stockChanged } from '../../domain/events.js';
import type { EventLog } from '../ports/outbox.js';
import type { QuantityChange, StockChangeOptions } from './ports.js';

export interface StockMove {
  readonly productId: string;
  /** The branch whose stock moves. */
  readonly branchId: string;
  /** Units added (negative: taken). */
  readonly change: number;
  readonly reason: MovementReason;
  /** When the product changed: the use case's now. */
  readonly at: Date;
  readonly note?: string | null;
  readonly unitCost?: Kobo | null;
  /** The sale that moves the stock (SALE and SALE_VOID rows). */
  readonly saleId?: string;
  /** The transfer that moves the stock (TRANSFER_OUT and TRANSFER_IN rows). */
  readonly transferId?: string;
  /** The ledger row's id when a device made it (a client id); else a new one. */
  readonly id?: string;
  /** A synced offline sale: the goods already left, so the branch may go below zero (docs/adr/0034). */
  readonly belowZero?: boolean;
}

/** The two ports a stock move writes through, named by shape so any module's repositories fit. */
export interface StockWriters {
  readonly products: { changeQuantity(businessId: string, productId: string, branchId: string, change: number, at: Date, options?: StockChangeOptions): Promise<QuantityChange | undefined> };
  readonly stockLedger: { add(movement: StockMovement): Promise<Date> };
  readonly events: EventLog;
}

/** total: the product's quantity over every branch after the move. */
export type StockMoved = { readonly ok: true; readonly movement: StockMovement; readonly total: number };
export type StockMoveRefused = Extract<QuantityChange, { ok: false }>;

/** Every move done, or the first that was not (by its index; earlier moves are left for the caller to roll back). */
export type StockMovesResult =
  | { readonly ok: true; readonly movements: readonly StockMovement[]; readonly totals: readonly number[] }
  | { readonly ok: false; readonly index: number; readonly refusal: StockMoveRefused | undefined };

/**
 * Every change of a product's stock, inside the caller's transaction: each quantity moves in one
 * conditional update (never below zero nor above MAX_STOCK, never a lost update) and exactly one
 * ledger row is written, timed after that update holds the product's row lock so the ledger's times
 * follow its chain. The moves' StockChanged events are recorded together in one write (a sale of many
 * products costs one outbox insert, not one a product). Stops at the first refusal (nothing recorded
 * for it) or product the business does not have (refusal undefined).
 */
export const moveStocks = async (
  deps: { clock: Clock; crypto: Crypto },
  r: StockWriters,
  actor: Actor,
  moves: readonly StockMove[],
): Promise<StockMovesResult> => {
  const movements: StockMovement[] = [];
  const totals: number[] = [];
  for (const [index, move] of moves.entries()) {
    const moved = await r.products.changeQuantity(actor.businessId, move.productId, move.branchId, move.change, move.at, move.belowZero ? { belowZero: true } : {});
    if (!moved?.ok) return { ok: false, index, refusal: moved };
    const movement: StockMovement = {
      id: move.id ?? deps.crypto.uuid(),
      businessId: actor.businessId,
      productId: move.productId,
      branchId: move.branchId,
      quantityChange: move.change,
      quantityBefore: moved.before,
      quantityAfter: moved.after,
      reason: move.reason,
      note: move.note ?? null,
      unitCost: move.unitCost ?? null,
      createdBy: actor.userId,
      createdAt: deps.clock.now(),
      ...(move.saleId !== undefined ? { saleId: move.saleId } : {}),
      ...(move.transferId !== undefined ? { transferId: move.transferId } : {}),
    };
    movements.push({ ...movement, createdAt: await r.stockLedger.add(movement) });
    totals.push(moved.total);
  }
  if (movements.length > 0) await r.events.record(movements[movements.length - 1]!.createdAt, ...movements.map((m, i) => stockChanged(m, totals[i]!)));
  return { ok: true, movements, totals };
};

/** One move (see moveStocks): the row as recorded, the refusal (nothing written), or undefined for an unknown product. */
export const moveStock = async (
  deps: { clock: Clock; crypto: Crypto },
  r: StockWriters,
  actor: Actor,
  move: StockMove,
): Promise<StockMoved | StockMoveRefused | undefined> => {
  const moved = await moveStocks(deps, r, actor, [move]);
  return moved.ok ? { ok: true, movement: moved.movements[0]!, total: moved.totals[0]! } : moved.refusal;
};
