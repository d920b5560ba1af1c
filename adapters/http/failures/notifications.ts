import type { SendFailure } from '../../../application/notifications/send-notification.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({
  UNKNOWN_SALE: 422,
  CUSTOMER_HAS_NO_PHONE: 422,
  CUSTOMER_OPTED_OUT: 422,
  NOTHING_OWED: 422,
  RECIPIENT_NOT_ALLOWED: 422,
});

/** The failures of sending a notification (docs/adr/0030). UnknownCustomer is the sale's. */
export type NotificationFailure = Exclude<SendFailure, { _tag: 'UnknownCustomer' }>;

export const NOTIFICATION_FAILURES = moduleFailures<NotificationFailure>()(codes, {
  UnknownSale: failure(['UNKNOWN_SALE'], () =>
    problem('UNKNOWN_SALE', 'sale_id names no sale of this business.', { errors: [{ field: 'sale_id', message: 'is not a sale of this business' }] }),
  ),
  CustomerHasNoPhone: failure(['CUSTOMER_HAS_NO_PHONE'], () =>
    problem('CUSTOMER_HAS_NO_PHONE', 'This customer has no phone number; add one (PUT /customers/{id}) or send to a number with `to`.', {
      errors: [{ field: 'customer_id', message: 'has no phone number' }],
    }),
  ),
  CustomerOptedOut: failure(['CUSTOMER_OPTED_OUT'], () =>
    problem('CUSTOMER_OPTED_OUT', 'This customer opted out of reminders and messages (notifications_opt_out); only receipts go to them.', {
      errors: [{ field: 'template', message: 'only RECEIPT goes to a customer who opted out' }],
    }),
  ),
  NothingOwed: failure(['NOTHING_OWED'], () =>
    problem('NOTHING_OWED', 'This customer owes nothing: there is nothing to remind them of.', { errors: [{ field: 'customer_id', message: 'owes nothing' }] }),
  ),
  CustomMessageOwnerOnly: failure(['INSUFFICIENT_ROLE'], () =>
    problem('INSUFFICIENT_ROLE', 'Only the business owner may send a CUSTOM message; staff may send receipts and credit reminders.'),
  ),
  RecipientNotAllowed: failure(['RECIPIENT_NOT_ALLOWED'], () =>
    problem('RECIPIENT_NOT_ALLOWED', 'Messages go only to the business\'s own customers and staff: `to` is the phone of none of them. Add the person as a customer (POST /customers) first.', {
      errors: [{ field: 'to', message: 'is not a customer or staff member of this business' }],
    }),
  ),
  LinksNotAllowed: failure(['FEATURE_NOT_AVAILABLE'], (f) =>
    problem('FEATURE_NOT_AVAILABLE', `Links in a CUSTOM message are not part of the ${f.plan} plan; they come with the ${f.plans.join(' and ')} plans. Remove the link (http://, www. or a web address).`, {
      errors: [{ field: 'message', message: 'contains a link' }],
    }),
  ),
  DailyLimitExceeded: failure(['PLAN_LIMIT_EXCEEDED'], (f) =>
    problem(
      'PLAN_LIMIT_EXCEEDED',
      `The ${f.plan} plan sends at most ${f.limit} ${f.quota === 'INVITATIONS' ? 'staff invitations' : 'messages'} a day; the count starts again at midnight, Lagos time. Upgrade to send more.`,
    ),
  ),
});
