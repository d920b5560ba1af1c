import type { SendFailure } from '../../application/notifications/send-notification.js';
import { problem, type Problem } from './problem.js';

/** The failures of sending a notification (docs/adr/0030); part of failures.ts's one mapping. UnknownCustomer is the sale's. */
export type NotificationFailure = Exclude<SendFailure, { _tag: 'UnknownCustomer' }>;

export const NOTIFICATION_FAILURES: { readonly [K in NotificationFailure['_tag']]: (f: Extract<NotificationFailure, { _tag: K }>) => Problem } = {
  UnknownSale: () => problem('UNKNOWN_SALE', 'sale_id names no sale of this business.', { errors: [{ field: 'sale_id', message: 'is not a sale of this business' }] }),
  CustomerHasNoPhone: () =>
    problem('CUSTOMER_HAS_NO_PHONE', 'This customer has no phone number; add one (PUT /customers/{id}) or send to a number with `to`.', {
      errors: [{ field: 'customer_id', message: 'has no phone number' }],
    }),
  CustomerOptedOut: () =>
    problem('CUSTOMER_OPTED_OUT', 'This customer opted out of reminders and messages (notifications_opt_out); only receipts go to them.', {
      errors: [{ field: 'template', message: 'only RECEIPT goes to a customer who opted out' }],
    }),
  NothingOwed: () => problem('NOTHING_OWED', 'This customer owes nothing: there is nothing to remind them of.', { errors: [{ field: 'customer_id', message: 'owes nothing' }] }),
  CustomMessageOwnerOnly: () => problem('INSUFFICIENT_ROLE', 'Only the business owner may send a CUSTOM message; staff may send receipts and credit reminders.'),
};
