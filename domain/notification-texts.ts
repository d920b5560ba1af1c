import { lagosTextDateTime, textDay } from './message-format.js';
import { formatNaira, type Kobo, type KoboSum } from './money.js';
import type { InvoiceReminderKind } from './invoice.js';

/*
 * The texts people receive: plain English, amounts as ₦1,500.50, dates in Lagos time, the business's
 * name in each, under 160 characters (one SMS page) where the names leave room. `params` are the same
 * values in order, for a provider's approved template (WhatsApp); `subject` is the e-mail's.
 */

export interface NotificationText {
  readonly text: string;
  readonly params: readonly string[];
  readonly subject: string;
}

export const receiptText = (r: {
  readonly businessName: string;
  readonly receiptNumber: string;
  readonly total: Kobo;
  readonly amountPaid: Kobo;
  readonly balanceDue: Kobo;
  readonly at: Date;
}): NotificationText => {
  const owing = r.balanceDue > 0 ? `, balance ${formatNaira(r.balanceDue)}` : '';
  const when = lagosTextDateTime(r.at);
  return {
    text: `${r.businessName}: thank you! Receipt ${r.receiptNumber}, ${when}. Total ${formatNaira(r.total)}, paid ${formatNaira(r.amountPaid)}${owing}.`,
    params: [r.businessName, r.receiptNumber, when, formatNaira(r.total), formatNaira(r.amountPaid), formatNaira(r.balanceDue)],
    subject: `Your receipt ${r.receiptNumber} from ${r.businessName}`,
  };
};

export const creditReminderText = (r: { readonly businessName: string; readonly customerName: string; readonly balance: Kobo; readonly today: string }): NotificationText => ({
  text: `Hello ${r.customerName}, a reminder from ${r.businessName}: you owe ${formatNaira(r.balance)} as of ${textDay(r.today)}. Thank you.`,
  params: [r.customerName, r.businessName, formatNaira(r.balance), textDay(r.today)],
  subject: `A reminder from ${r.businessName}`,
});

export const customText = (r: { readonly businessName: string; readonly message: string }): NotificationText => ({
  text: `${r.businessName}: ${r.message}`,
  params: [r.businessName, r.message],
  subject: `A message from ${r.businessName}`,
});

/** An invoice's share link to its customer: the sentence (number, total, due date, link) is made when it is queued (docs/adr/0076). */
export const invoiceShareText = (r: { readonly businessName: string; readonly message: string }): NotificationText => ({
  text: `${r.businessName}: ${r.message}`,
  params: [r.businessName, r.message],
  subject: `An invoice from ${r.businessName}`,
});

/** The sentence of an owner's alert about an audited change (docs/adr/0071), made when the alert is queued. */
export const auditAlertMessage = (c: {
  readonly action: 'sale.voided' | 'sale.discounted' | 'stock.adjusted';
  readonly actorName: string | null;
  readonly subjectLabel: string | null;
  readonly amount: Kobo | null;
  readonly quantity: number | null;
}): string => {
  const who = c.actorName ?? 'Someone';
  const what = c.subjectLabel ?? 'a sale';
  switch (c.action) {
    case 'sale.voided':
      return `${who} voided sale ${what} (${formatNaira(c.amount ?? 0)}). See the audit log.`;
    case 'sale.discounted':
      return `${who} gave ${formatNaira(c.amount ?? 0)} off on sale ${what}. See the audit log.`;
    case 'stock.adjusted': {
      const n = c.quantity ?? 0;
      return `${who} adjusted the stock of ${c.subjectLabel ?? 'a product'} ${n < 0 ? 'down' : 'up'} by ${Math.abs(n)}. See the audit log.`;
    }
  }
};

/** An alert to the owner of an audited change above their threshold: the sentence is made when it is queued (docs/adr/0071). */
export const auditAlertText = (r: { readonly businessName: string; readonly message: string }): NotificationText => ({
  text: `${r.businessName}: ${r.message}`,
  params: [r.businessName, r.message],
  subject: `${r.businessName}: audit alert`,
});

export const lowStockText = (r: { readonly businessName: string; readonly productName: string; readonly quantity: number; readonly threshold: number }): NotificationText => ({
  text: `${r.businessName}: ${r.productName} is low, ${r.quantity} left (alert at ${r.threshold}). Restock soon.`,
  params: [r.businessName, r.productName, String(r.quantity), String(r.threshold)],
  subject: `Low stock: ${r.productName}`,
});

export const dailySummaryText = (r: {
  readonly businessName: string;
  readonly day: string;
  readonly salesCount: number;
  readonly salesTotal: Kobo | KoboSum;
  readonly expensesTotal: Kobo | KoboSum;
  readonly creditCollected: Kobo | KoboSum;
  readonly cashExpected: Kobo | KoboSum;
}): NotificationText => {
  const day = textDay(r.day);
  const sales = `${r.salesCount} sale${r.salesCount === 1 ? '' : 's'} ${formatNaira(r.salesTotal)}`;
  return {
    text: `${r.businessName}, ${day}: ${sales}, expenses ${formatNaira(r.expensesTotal)}, credit collected ${formatNaira(r.creditCollected)}, cash expected ${formatNaira(r.cashExpected)}.`,
    params: [r.businessName, day, String(r.salesCount), formatNaira(r.salesTotal), formatNaira(r.expensesTotal), formatNaira(r.creditCollected), formatNaira(r.cashExpected)],
    subject: `${r.businessName}: your summary for ${day}`,
  };
};


/** The sentence of an invoice reminder, made when it is queued (the invoice's figures then); the business's name goes before it when sent. */
export const invoiceReminderMessage = (r: { readonly kind: InvoiceReminderKind; readonly customerName: string; readonly number: string; readonly balance: Kobo; readonly dueDate: string }): string =>
  r.kind === 'BEFORE_DUE'
    ? `Hello ${r.customerName}, invoice ${r.number} is due tomorrow, ${textDay(r.dueDate)}: ${formatNaira(r.balance)} to pay. Thank you.`
    : `Hello ${r.customerName}, invoice ${r.number} was due on ${textDay(r.dueDate)}: ${formatNaira(r.balance)} is still owed. Please pay. Thank you.`;

export const invoiceReminderText = (r: { readonly businessName: string; readonly message: string }): NotificationText => ({
  text: `${r.businessName}: ${r.message}`,
  params: [r.businessName, r.message],
  subject: `${r.businessName}: invoice reminder`,
});
