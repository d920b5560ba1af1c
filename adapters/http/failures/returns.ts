import type { CreditNoteNeedsCustomer, ProductNotInSale, ReturnExceedsSold } from '../../../domain/sale-return.js';
import type { SaleHasReturns } from '../../../domain/sale-decision.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({
  SALE_HAS_RETURNS: 409,
  RETURN_EXCEEDS_SOLD: 422,
  PRODUCT_NOT_IN_SALE: 422,
  CREDIT_NOTE_NEEDS_CUSTOMER: 422,
});

/**
 * The failures of the returns module (docs/adr/0058); a return also answers shared ones (NotFound, WrongBranch,
 * SaleAlreadyVoided, StockLimitExceeded, ...), and a void of a sale with returns answers SaleHasReturns.
 */
export type ReturnModuleFailure = ReturnExceedsSold | ProductNotInSale | CreditNoteNeedsCustomer | SaleHasReturns;

export const RETURN_FAILURES = moduleFailures<ReturnModuleFailure>()(codes, {
  ReturnExceedsSold: failure(['RETURN_EXCEEDS_SOLD'], (f) =>
    problem(
      'RETURN_EXCEEDS_SOLD',
      `The sale sold ${f.sold} of ${f.name} and ${f.returned} came back already: at most ${f.sold - f.returned} can be returned, not ${f.requested}.`,
      { errors: [{ field: `items.${f.index}.quantity`, message: `at most ${f.sold - f.returned} of ${f.name} left to return` }] },
    ),
  ),
  ProductNotInSale: failure(['PRODUCT_NOT_IN_SALE'], (f) =>
    problem('PRODUCT_NOT_IN_SALE', 'Some items name a product this sale did not sell.', {
      errors: f.indexes.map((i) => ({ field: `items.${i}.product_id`, message: 'was not sold in this sale' })),
    }),
  ),
  CreditNoteNeedsCustomer: failure(['CREDIT_NOTE_NEEDS_CUSTOMER'], () =>
    problem('CREDIT_NOTE_NEEDS_CUSTOMER', "A credit note is kept on the customer's credit account, and this sale has no customer: refund by CASH, TRANSFER, CARD or POS.", {
      errors: [{ field: 'refund_method', message: 'CREDIT_NOTE needs a sale with a customer' }],
    }),
  ),
  SaleHasReturns: failure(['SALE_HAS_RETURNS'], (f) =>
    problem(
      'SALE_HAS_RETURNS',
      `Goods of this sale were returned (${f.returns} return${f.returns === 1 ? '' : 's'}): a sale with returns is not voided; return the rest instead (POST /sales/{id}/returns).`,
    ),
  ),
});
