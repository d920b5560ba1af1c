import type { Kobo } from '../../domain/money.js';
import type { MovementReason, StockMovement } from '../../domain/product.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import { stockChanged } from '../../domain/events.js';
import type { EventLog } from '../ports/outbox.js';
import type { ProductRepository, QuantityChange, StockLedger } from './ports.js';

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
  readonly products: Pick<ProductRepository, 'changeQuantities'>;
  readonly stockLedger: Pick<StockLedger, 'addMany'>;
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
 * The moves in runs that one statement each can make: consecutive moves at the same branch and time,
 * with the same floor, each product once (a transfer's out and in of one product are two runs).
 */
const runsOf = (moves: readonly StockMove[]): { start: number; moves: StockMove[] }[] => {
  const runs: { start: number; moves: StockMove[] }[] = [];
  let products = new Set<string>();
  for (const [index, move] of moves.entries()) {
    const run = runs[runs.length - 1];
    const first = run?.moves[0];
    if (run && first!.branchId === move.branchId && first!.at.getTime() === move.at.getTime() && (first!.belowZero === true) === (move.belowZero === true) && !products.has(move.productId)) {
      run.moves.push(move);
    } else {
      runs.push({ start: index, moves: [move] });
      products = new Set();
    }
    products.add(move.productId);
  }
  return runs;
};

/**
 * Every change of a product's stock, inside the caller's transaction: each quantity moves in one
 * conditional update (never below zero nor above MAX_STOCK, never a lost update) and exactly one
 * ledger row is written, timed after that update holds the product's row lock so the ledger's times
 * follow its chain. A run of moves at one branch (a sale's lines) moves in one statement and writes
 * its ledger rows in one more. The moves' StockChanged events are recorded together in one write (a
 * sale of many products costs one outbox insert, not one a product). Stops at the first run with a
 * refusal and answers its first refused move (by its index) or product the business does not have
 * (refusal undefined); the caller rolls back whatever the moves wrote.
 */
export const moveStocks = async (
  deps: { clock: Clock; crypto: Crypto },
  r: StockWriters,
  actor: Actor,
  moves: readonly StockMove[],
): Promise<StockMovesResult> => {
  const movements: StockMovement[] = [];
  const totals: number[] = [];
  for (const run of runsOf(moves)) {
    const first = run.moves[0]!;
    const changes = run.moves.map((m) => ({ productId: m.productId, change: m.change }));
    const moved = await r.products.changeQuantities(actor.businessId, first.branchId, changes, first.at, first.belowZero ? { belowZero: true } : {});
    const refused = moved.findIndex((m) => !m?.ok);
    if (refused >= 0) return { ok: false, index: run.start + refused, refusal: moved[refused] as StockMoveRefused | undefined };
    const done = moved as Extract<QuantityChange, { ok: true }>[];
    const createdAt = deps.clock.now();
    const written: StockMovement[] = run.moves.map((move, i) => {
      const m = done[i]!;
      return {
        id: move.id ?? deps.crypto.uuid(),
        businessId: actor.businessId,
        productId: move.productId,
        branchId: move.branchId,
        quantityChange: move.change,
        quantityBefore: m.before,
        quantityAfter: m.after,
        reason: move.reason,
        note: move.note ?? null,
        unitCost: move.unitCost ?? null,
        createdBy: actor.userId,
        createdAt,
        ...(move.saleId !== undefined ? { saleId: move.saleId } : {}),
        ...(move.transferId !== undefined ? { transferId: move.transferId } : {}),
      };
    });
    const times = await r.stockLedger.addMany(written);
    written.forEach((m, i) => movements.push({ ...m, createdAt: times[i]! }));
    totals.push(...done.map((m) => m.total));
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
