import type { Overpayment } from '../../../application/customers/credit.js';
import type { DuplicatePhone } from '../../../application/customers/manage-customers.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { nairaText } from '../json-values.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({ OVERPAYMENT: 422 });

/** The failures of customers and their credit. */
export type CustomerFailure = DuplicatePhone | Overpayment;

export const CUSTOMER_FAILURES = moduleFailures<CustomerFailure>()(codes, {
  DuplicatePhone: failure(['DUPLICATE_PHONE'], () =>
    problem('DUPLICATE_PHONE', 'Another customer of this business has this phone number.', { errors: [{ field: 'phone', message: 'is already used' }] }),
  ),
  Overpayment: failure(['OVERPAYMENT'], (f) =>
    problem('OVERPAYMENT', `The customer owes ${nairaText(f.balance)} on credit sales; a payment cannot be more than that (an invoice is paid on the invoice).`, {
      errors: [{ field: 'amount', message: `is more than the balance (${nairaText(f.balance)})` }],
    }),
  ),
});
