import type { SaleFailure } from '../../../application/sales/record-sale.js';
import type { SaleAlreadyVoided } from '../../../application/sales/void-sale.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { nairaText } from '../json-values.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({
  SALE_ALREADY_VOIDED: 409,
  UNKNOWN_PRODUCT: 422,
  UNKNOWN_CUSTOMER: 422,
  CUSTOMER_REQUIRED: 422,
  CREDIT_LIMIT_EXCEEDED: 422,
  DISCOUNT_TOO_LARGE: 422,
  AMOUNT_PAID_EXCEEDS_TOTAL: 422,
  AMOUNT_TENDERED_TOO_SMALL: 422,
  PAYMENTS_DO_NOT_MATCH_TOTAL: 422,
  PRODUCT_ARCHIVED: 422,
  AMOUNT_TOO_LARGE: 422,
  CREDIT_BALANCE_LIMIT_EXCEEDED: 422,
});

/** A sale's own failures (its stock, branch, amounts and plan failures are the products' and the core's) and a void's. */
export type SalesFailure =
  | Extract<
      SaleFailure,
      {
        _tag:
          | 'UnknownProducts'
          | 'ArchivedProducts'
          | 'UnknownCustomer'
          | 'CustomerRequired'
          | 'CreditLimitExceeded'
          | 'CreditBalanceLimitExceeded'
          | 'LineDiscountTooLarge'
          | 'SaleDiscountTooLarge'
          | 'AmountPaidExceedsTotal'
          | 'AmountTenderedTooSmall'
          | 'PaymentsDoNotMatchTotal'
          | 'InvalidTenders'
          | 'AmountTooLarge';
      }
    >
  | SaleAlreadyVoided;

const discountTooLarge = (field: string, detail: string, message: string) => problem('DISCOUNT_TOO_LARGE', detail, { errors: [{ field, message }] });

export const SALE_FAILURES = moduleFailures<SalesFailure>()(codes, {
  UnknownProducts: failure(['UNKNOWN_PRODUCT'], (f) =>
    problem('UNKNOWN_PRODUCT', 'Some items name no product of this business.', {
      errors: f.indexes.map((i) => ({ field: `items.${i}.product_id`, message: 'is not a product of this business' })),
    }),
  ),
  ArchivedProducts: failure(['PRODUCT_ARCHIVED'], (f) =>
    problem('PRODUCT_ARCHIVED', 'Some items name an archived product; restore it (POST /products/{id}/restore) to sell it again.', {
      errors: f.indexes.map((i) => ({ field: `items.${i}.product_id`, message: 'is an archived product' })),
    }),
  ),
  UnknownCustomer: failure(['UNKNOWN_CUSTOMER'], () =>
    problem('UNKNOWN_CUSTOMER', 'customer_id names no customer of this business.', { errors: [{ field: 'customer_id', message: 'is not a customer of this business' }] }),
  ),
  CustomerRequired: failure(['CUSTOMER_REQUIRED'], () =>
    problem('CUSTOMER_REQUIRED', 'A credit sale (CREDIT, or paid less than the total) needs a customer_id.', {
      errors: [{ field: 'customer_id', message: 'is required for a credit sale' }],
    }),
  ),
  CreditLimitExceeded: failure(['CREDIT_LIMIT_EXCEEDED'], (f) =>
    problem('CREDIT_LIMIT_EXCEEDED', `This sale would take the customer over their credit limit of ${nairaText(f.limit)} (they owe ${nairaText(f.balance)}).`, {
      errors: [{ field: 'customer_id', message: 'credit limit exceeded' }],
    }),
  ),
  CreditBalanceLimitExceeded: failure(['CREDIT_BALANCE_LIMIT_EXCEEDED'], (f) =>
    problem(
      'CREDIT_BALANCE_LIMIT_EXCEEDED',
      f.scope === 'customer'
        ? `A customer can owe at most 1,000,000,000,000.00; this customer owes ${nairaText(f.balance)}.`
        : "The business's customers together would owe more than the books can hold (2^53 kobo); take payments first.",
      { errors: [{ field: 'customer_id', message: 'outstanding credit would pass the maximum' }] },
    ),
  ),
  LineDiscountTooLarge: failure(['DISCOUNT_TOO_LARGE'], (f) =>
    discountTooLarge(`items.${f.index}.discount`, `The discount of item ${f.index} is larger than its line.`, 'is larger than the line'),
  ),
  SaleDiscountTooLarge: failure(['DISCOUNT_TOO_LARGE'], () => discountTooLarge('discount', 'The discount is larger than the sale.', 'is larger than the subtotal')),
  AmountPaidExceedsTotal: failure(['AMOUNT_PAID_EXCEEDS_TOTAL'], () =>
    problem(
      'AMOUNT_PAID_EXCEEDS_TOTAL',
      'amount_paid is more than the total. amount_paid is what the sale receives; send the cash handed over as amount_tendered and the change comes back as change_due.',
      { errors: [{ field: 'amount_paid', message: 'is more than the total' }] },
    ),
  ),
  AmountTenderedTooSmall: failure(['AMOUNT_TENDERED_TOO_SMALL'], (f) =>
    f.short === 'total'
      ? problem('AMOUNT_TENDERED_TOO_SMALL', `amount_tendered is less than the total (${nairaText(f.amountPaid)}); to leave the rest on credit, send customer_id.`, {
          errors: [{ field: 'amount_tendered', message: 'is less than the total' }],
        })
      : f.short === 'cash'
        ? problem('AMOUNT_TENDERED_TOO_SMALL', `amount_tendered is less than the CASH tender (${nairaText(f.amountPaid)}).`, {
            errors: [{ field: 'amount_tendered', message: 'is less than the CASH tender' }],
          })
        : problem('AMOUNT_TENDERED_TOO_SMALL', `amount_tendered is less than the amount paid (${nairaText(f.amountPaid)}).`, {
            errors: [{ field: 'amount_tendered', message: 'is less than amount_paid' }],
          }),
  ),
  PaymentsDoNotMatchTotal: failure(['PAYMENTS_DO_NOT_MATCH_TOTAL'], (f) =>
    problem('PAYMENTS_DO_NOT_MATCH_TOTAL', `The payments add up to ${nairaText(f.paid)}; the sale's total is ${nairaText(f.total)}. Tenders must add up to the total exactly (a CREDIT tender for what is left owed).`, {
      errors: [{ field: 'payments', message: `must add up to the total, ${nairaText(f.total)}` }],
    }),
  ),
  // split payments sent in a shape no sale takes: a malformed request (docs/adr/0055)
  InvalidTenders: failure(['VALIDATION_FAILED'], (f) => problem('VALIDATION_FAILED', `The request is invalid: ${f.field} ${f.reason}.`, { errors: [{ field: f.field, message: f.reason }] })),
  AmountTooLarge: failure(['AMOUNT_TOO_LARGE'], () =>
    problem('AMOUNT_TOO_LARGE', 'The sale comes to more than 1,000,000,000,000.00.', { errors: [{ field: 'items', message: 'total too large' }] }),
  ),
  SaleAlreadyVoided: failure(['SALE_ALREADY_VOIDED'], () => problem('SALE_ALREADY_VOIDED', 'This sale is already voided.')),
});
