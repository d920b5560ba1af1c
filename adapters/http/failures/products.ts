import type { InsufficientStock, ServiceHasNoStock, StockLimitExceeded } from '../../../application/products/adjust-stock.js';
import type { BranchHasStock, WrongBranch } from '../../../application/products/branch-stock.js';
import type { DuplicateSku, ProductRulesBroken } from '../../../application/products/manage-products.js';
import type { SameBranch, ServiceItems, TransferFailure } from '../../../application/products/transfer-stock.js';
import type { ProductRule } from '../../../domain/product.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({
  WRONG_BRANCH: 403,
  DUPLICATE_SKU: 409,
  INSUFFICIENT_STOCK: 409,
  BRANCH_HAS_STOCK: 409,
  QUANTITY_MUST_NOT_BE_NEGATIVE: 422,
  SERVICE_HAS_NO_STOCK: 422,
  STOCK_LIMIT_EXCEEDED: 422,
});

/** The failures of products, their stock per branch and its transfers. A sale's or a transfer's shortage names its line. */
export type ProductFailure =
  | InsufficientStock
  | Extract<TransferFailure, { _tag: 'InsufficientStock' }>
  | ServiceHasNoStock
  | StockLimitExceeded
  | DuplicateSku
  | ProductRulesBroken
  | WrongBranch
  | BranchHasStock
  | SameBranch
  | ServiceItems;

/** Each product rule answers with the error code of its name (ADR 0013). */
const PRODUCT_RULE_CODES = {
  NEGATIVE_PRICE: 'NEGATIVE_PRICE',
  QUANTITY_MUST_NOT_BE_NEGATIVE: 'QUANTITY_MUST_NOT_BE_NEGATIVE',
  STOCK_LIMIT_EXCEEDED: 'STOCK_LIMIT_EXCEEDED',
  SERVICE_HAS_NO_STOCK: 'SERVICE_HAS_NO_STOCK',
} as const satisfies Record<ProductRule, string>;

export const PRODUCT_FAILURES = moduleFailures<ProductFailure>()(codes, {
  ProductRulesBroken: failure(['NEGATIVE_PRICE', 'QUANTITY_MUST_NOT_BE_NEGATIVE', 'STOCK_LIMIT_EXCEEDED', 'SERVICE_HAS_NO_STOCK'], ({ violations }) =>
    problem(
      PRODUCT_RULE_CODES[violations[0]!.rule], // the first broken rule answers
      `The product breaks a rule: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}.`,
      { errors: violations },
    ),
  ),
  DuplicateSku: failure(['DUPLICATE_SKU'], (f) =>
    problem('DUPLICATE_SKU', `Another product of this business already has the SKU ${f.sku}.`, { errors: [{ field: 'sku', message: 'is already used' }] }),
  ),
  ServiceHasNoStock: failure(['SERVICE_HAS_NO_STOCK'], () => problem('SERVICE_HAS_NO_STOCK', 'A service keeps no stock.')),
  // A sale's or a transfer's line carries the product's name and its place in the list; an adjustment names neither.
  // Each names the branch and what it holds (another branch's stock is not this one's).
  InsufficientStock: failure(['INSUFFICIENT_STOCK'], (f) =>
    'name' in f
      ? problem('INSUFFICIENT_STOCK', `Not enough ${f.name} at ${f.branchName}: ${f.available} available there, ${f.requested} wanted.`, {
          errors: [{ field: `${f.list ?? 'items'}.${f.index}.quantity`, message: `only ${f.available} of ${f.name} available at ${f.branchName} (branch ${f.branchId})` }],
        })
      : problem('INSUFFICIENT_STOCK', `Only ${f.available} in stock at ${f.branchName} (branch ${f.branchId}); cannot take ${f.requested}.`),
  ),
  WrongBranch: failure(['WRONG_BRANCH'], (f, subject) =>
    subject === 'return'
      ? problem('WRONG_BRANCH', `This sale was made at another branch (${f.branchId}); you take returns only of your branch's sales (the owner can move you).`)
      : problem('WRONG_BRANCH', 'You are assigned to another branch: you sell and adjust stock only there (the owner can move you).', {
          errors: [{ field: 'branch_id', message: `must be your branch, ${f.assignedBranchId}` }],
        }),
  ),
  BranchHasStock: failure(['BRANCH_HAS_STOCK'], () =>
    problem('BRANCH_HAS_STOCK', 'The branch still holds stock; transfer it to another branch (POST /products/stock-transfers) before archiving it.'),
  ),
  SameBranch: failure(['VALIDATION_FAILED'], () =>
    problem('VALIDATION_FAILED', 'The request is invalid: to_branch_id must differ from from_branch_id.', { errors: [{ field: 'to_branch_id', message: 'must differ from from_branch_id' }] }),
  ),
  ServiceItems: failure(['SERVICE_HAS_NO_STOCK'], (f) =>
    problem('SERVICE_HAS_NO_STOCK', 'Some items name a service, which keeps no stock to move.', {
      errors: f.indexes.map((i) => ({ field: `items.${i}.product_id`, message: 'is a service' })),
    }),
  ),
  StockLimitExceeded: failure(['STOCK_LIMIT_EXCEEDED'], (f, subject) =>
    subject === 'sale' || subject === 'return'
      ? problem('STOCK_LIMIT_EXCEEDED', `Returning the stock would take a product above ${f.max} units (it has ${f.available}); adjust it down first.`)
      : problem('STOCK_LIMIT_EXCEEDED', `A product holds at most ${f.max} units; it has ${f.available}.`, {
          errors: [{ field: 'quantity_change', message: `would take the stock above ${f.max}` }],
        }),
  ),
});
