import { expect } from 'chai';
import { isReminderDue, reminderDueDate, type Invoice } from '../../../domain/invoice.js';
import { kobo } from '../../../domain/money.js';
import { invoiceReminderMessage } from '../../../domain/notification-texts.js';

// The invoice reminders' due rule (docs/adr/0077): the day before the due date, and the first day overdue, only.

type Facts = Pick<Invoice, 'type' | 'status' | 'dueDate' | 'total' | 'amountPaid'>;
const unpaid: Facts = { type: 'INVOICE', status: 'SENT', dueDate: '2026-12-11', total: kobo(10_000), amountPaid: kobo(0) };

describe('invoice reminders (domain)', () => {
  it('the day before is due tomorrow; the first day overdue is the day after the due date (across a month and a year)', () => {
    expect(reminderDueDate('BEFORE_DUE', '2026-12-10')).to.equal('2026-12-11');
    expect(reminderDueDate('OVERDUE', '2026-12-12')).to.equal('2026-12-11');
    expect(reminderDueDate('BEFORE_DUE', '2026-12-31')).to.equal('2027-01-01');
    expect(reminderDueDate('OVERDUE', '2027-03-01')).to.equal('2027-02-28');
  });

  it('BEFORE_DUE only on the day before, OVERDUE only on the first day overdue (not on the due day, not repeated later)', () => {
    const days = ['2026-12-09', '2026-12-10', '2026-12-11', '2026-12-12', '2026-12-13'];
    expect(days.map((d) => isReminderDue(unpaid, 'BEFORE_DUE', d))).to.deep.equal([false, true, false, false, false]);
    expect(days.map((d) => isReminderDue(unpaid, 'OVERDUE', d))).to.deep.equal([false, false, false, true, false]);
  });

  it('only a sent invoice that asks for money and still has a balance', () => {
    expect(isReminderDue({ ...unpaid, status: 'PARTIALLY_PAID', amountPaid: kobo(1) }, 'BEFORE_DUE', '2026-12-10')).to.equal(true);
    expect(isReminderDue({ ...unpaid, type: 'TAX_INVOICE' }, 'OVERDUE', '2026-12-12')).to.equal(true);
    for (const no of [{ status: 'DRAFT' }, { status: 'PAID', amountPaid: kobo(10_000) }, { status: 'CANCELLED' }, { type: 'PROFORMA' }, { amountPaid: kobo(10_000) }] as Partial<Facts>[]) {
      expect(isReminderDue({ ...unpaid, ...no }, 'BEFORE_DUE', '2026-12-10'), JSON.stringify(no)).to.equal(false);
      expect(isReminderDue({ ...unpaid, ...no }, 'OVERDUE', '2026-12-12'), JSON.stringify(no)).to.equal(false);
    }
  });

  it('says the number, the balance in naira and the due date', () => {
    expect(invoiceReminderMessage({ kind: 'BEFORE_DUE', customerName: 'Zenith', number: 'INV-000001', balance: kobo(10_000_050), dueDate: '2026-12-11' })).to.equal(
      'Hello Zenith, invoice INV-000001 is due tomorrow, 11 Dec 2026: ₦100,000.50 to pay. Thank you.',
    );
    expect(invoiceReminderMessage({ kind: 'OVERDUE', customerName: 'Zenith', number: 'INV-000001', balance: kobo(100), dueDate: '2026-12-11' })).to.equal(
      'Hello Zenith, invoice INV-000001 was due on 11 Dec 2026: ₦1.00 is still owed. Please pay. Thank you.',
    );
  });
});
