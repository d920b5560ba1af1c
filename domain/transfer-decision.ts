import * as E from 'fp-ts/lib/Either.js';
import type { Branch, UnknownBranch } from './business.js';
import type { InsufficientStock, Product } from './product.js';

// What decides a stock transfer between branches, apart from doing it (docs/adr/0049): the use case
// (application/products/transfer-stock.ts) reads the facts, calls these functions, writes the plan.

/** A transfer names the same branch twice. */
export type SameBranch = { readonly _tag: 'SameBranch' };
/** Items naming a product the business does not have (`indexes`: their places in the request). */
export type UnknownTransferProducts = { readonly _tag: 'UnknownProducts'; readonly indexes: number[] };
/** Items naming a service, which keeps no stock to move. */
export type ServiceItems = { readonly _tag: 'ServiceItems'; readonly indexes: number[] };
/** The source cannot give a line: `index` is the first item naming the product. */
export type TransferShortage = InsufficientStock & { readonly name: string; readonly index: number };

/** The parts of a transfer command the decision reads. */
export interface TransferRequest {
  readonly fromBranchId: string;
  readonly toBranchId: string;
  readonly items: readonly { readonly productId: string; readonly quantity: number }[];
}

/** What the request alone refuses, before anything is read. */
export const checkTransfer = (cmd: TransferRequest): SameBranch | undefined => (cmd.fromBranchId === cmd.toBranchId ? { _tag: 'SameBranch' } : undefined);

/** What is read before a transfer is decided: both branches (locked for use) and the products named. */
export interface TransferFacts {
  readonly from: Pick<Branch, 'id' | 'name'> | undefined;
  readonly to: Pick<Branch, 'id' | 'name'> | undefined;
  readonly products: readonly Pick<Product, 'id' | 'name' | 'type'>[];
}

/** Units of one product moving. */
export interface TransferLine {
  readonly productId: string;
  readonly name: string;
  /** The first item of the request naming the product. */
  readonly index: number;
  readonly quantity: number;
}

/** A transfer decided: what to write. */
export interface TransferPlan {
  readonly from: Pick<Branch, 'id' | 'name'>;
  readonly to: Pick<Branch, 'id' | 'name'>;
  /** Lines naming one product added up, in product id order (the lock order of every stock writer). */
  readonly lines: readonly TransferLine[];
}

/**
 * Decides a transfer from its facts: both branches exist (the source first), every item names a
 * product of the business and none a service. Stock is not a fact: the source's conditional update is
 * the check (`transferShortage` words its refusal). The destination gains what the source loses, so
 * the product's total never changes.
 */
export const decideTransfer = (facts: TransferFacts, cmd: TransferRequest): E.Either<UnknownBranch | UnknownTransferProducts | ServiceItems, TransferPlan> => {
  const { from, to } = facts;
  if (!from) return E.left({ _tag: 'UnknownBranch', branchId: cmd.fromBranchId, field: 'from_branch_id' });
  if (!to) return E.left({ _tag: 'UnknownBranch', branchId: cmd.toBranchId, field: 'to_branch_id' });
  const products = new Map(facts.products.map((p) => [p.id, p]));
  const unknown = cmd.items.flatMap((i, index) => (products.has(i.productId) ? [] : [index]));
  if (unknown.length > 0) return E.left({ _tag: 'UnknownProducts', indexes: unknown });
  const services = cmd.items.flatMap((i, index) => (products.get(i.productId)!.type === 'SERVICE' ? [index] : []));
  if (services.length > 0) return E.left({ _tag: 'ServiceItems', indexes: services });

  const wanted = new Map<string, number>();
  for (const i of cmd.items) wanted.set(i.productId, (wanted.get(i.productId) ?? 0) + i.quantity);
  const lines = [...wanted.keys()].sort().map((productId) => ({
    productId,
    name: products.get(productId)!.name,
    index: cmd.items.findIndex((i) => i.productId === productId),
    quantity: wanted.get(productId)!,
  }));
  return E.right({ from, to, lines });
};

/** The source's refusal of the plan's line `line` (its index in `plan.lines`), the source holding `available`. */
export const transferShortage = (plan: TransferPlan, line: number, available: number): TransferShortage => {
  const l = plan.lines[line]!;
  return { _tag: 'InsufficientStock', productId: l.productId, name: l.name, index: l.index, available, requested: l.quantity, branchId: plan.from.id, branchName: plan.from.name };
};
