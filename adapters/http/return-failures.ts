import type { CreditNoteNeedsCustomer, ProductNotInSale, ReturnExceedsSold } from '../../domain/sale-return.js';
import type { SaleHasReturns } from '../../domain/sale-decision.js';
import { problem, type Problem } from './problem.js';

/** The failures of the returns module (docs/adr/0058), as failures.ts maps them; a return also answers shared ones (NotFound, WrongBranch, SaleAlreadyVoided, ...). */
export type ReturnModuleFailure = ReturnExceedsSold | ProductNotInSale | CreditNoteNeedsCustomer | SaleHasReturns;

export const RETURN_FAILURES: { readonly [K in ReturnModuleFailure['_tag']]: (f: Extract<ReturnModuleFailure, { _tag: K }>) => Problem } = {
  ReturnExceedsSold: (f) =>
    problem(
      'RETURN_EXCEEDS_SOLD',
      `The sale sold ${f.sold} of ${f.name} and ${f.returned} came back already: at most ${f.sold - f.returned} can be returned, not ${f.requested}.`,
      { errors: [{ field: `items.${f.index}.quantity`, message: `at most ${f.sold - f.returned} of ${f.name} left to return` }] },
    ),
  ProductNotInSale: (f) =>
    problem('PRODUCT_NOT_IN_SALE', 'Some items name a product this sale did not sell.', {
      errors: f.indexes.map((i) => ({ field: `items.${i}.product_id`, message: 'was not sold in this sale' })),
    }),
  CreditNoteNeedsCustomer: () =>
    problem('CUSTOMER_REQUIRED', 'A credit note is kept on the customer\'s credit account, and this sale has no customer: refund by CASH, TRANSFER, CARD or POS.', {
      errors: [{ field: 'refund_method', message: 'CREDIT_NOTE needs a sale with a customer' }],
    }),
  SaleHasReturns: (f) =>
    problem('SALE_HAS_RETURNS', `Goods of this sale were returned (${f.returns} return${f.returns === 1 ? '' : 's'}): a sale with returns is not voided; return the rest instead (POST /sales/{id}/returns).`),
};
