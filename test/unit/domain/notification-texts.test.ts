import { expect } from 'chai';
import { formatNaira, kobo } from '../../../domain/money.js';
import { lagosTextDateTime, textDay } from '../../../domain/message-format.js';
import { creditReminderText, customText, dailySummaryText, lowStockText, receiptText } from '../../../domain/notification-texts.js';

// Each text people receive: plain English, ₦1,500.50, Lagos dates, the business name, one SMS page (160) where it can be.

const SMS_PAGE = 160;

describe('notification texts', () => {
  it('writes naira with thousands separators and 2 decimals, from kobo', () => {
    expect(formatNaira(kobo(150_050))).to.equal('₦1,500.50');
    expect(formatNaira(kobo(0))).to.equal('₦0.00');
    expect(formatNaira(kobo(5))).to.equal('₦0.05');
    expect(formatNaira(kobo(100_000_000_000_000))).to.equal('₦1,000,000,000,000.00');
    expect(formatNaira(kobo(-2_500))).to.equal('-₦25.00');
  });

  it('writes days and times in Lagos time (UTC+1)', () => {
    expect(textDay('2026-11-02')).to.equal('2 Nov 2026');
    expect(lagosTextDateTime(new Date('2026-11-22T23:30:00.000Z'))).to.equal('23 Nov 2026, 00:30');
  });

  it('a receipt names the business, the receipt, the Lagos time and the amounts; the balance only when something is owed', () => {
    const base = { businessName: 'Ada Stores', receiptNumber: 'RCP-000042', total: kobo(150_050), amountPaid: kobo(150_050), balanceDue: kobo(0), at: new Date('2026-11-22T14:04:00.000Z') };
    const paid = receiptText(base);
    expect(paid.text).to.equal('Ada Stores: thank you! Receipt RCP-000042, 22 Nov 2026, 15:04. Total ₦1,500.50, paid ₦1,500.50.');
    expect(paid.text.length).to.be.at.most(SMS_PAGE);
    expect(paid.subject).to.equal('Your receipt RCP-000042 from Ada Stores');
    const owing = receiptText({ ...base, amountPaid: kobo(50_000), balanceDue: kobo(100_050) });
    expect(owing.text).to.equal('Ada Stores: thank you! Receipt RCP-000042, 22 Nov 2026, 15:04. Total ₦1,500.50, paid ₦500.00, balance ₦1,000.50.');
    expect(owing.params).to.deep.equal(['Ada Stores', 'RCP-000042', '22 Nov 2026, 15:04', '₦1,500.50', '₦500.00', '₦1,000.50']);
  });

  it('a credit reminder greets the customer and says what they owe today', () => {
    const t = creditReminderText({ businessName: 'Ada Stores', customerName: 'Mama Chioma', balance: kobo(1_250_000), today: '2026-11-22' });
    expect(t.text).to.equal('Hello Mama Chioma, a reminder from Ada Stores: you owe ₦12,500.00 as of 22 Nov 2026. Thank you.');
    expect(t.text.length).to.be.at.most(SMS_PAGE);
    expect(t.params).to.deep.equal(['Mama Chioma', 'Ada Stores', '₦12,500.00', '22 Nov 2026']);
  });

  it('a custom message carries the business name before the owner\'s words', () => {
    expect(customText({ businessName: 'Ada Stores', message: 'We open at 10 on Sunday.' })).to.deep.equal({
      text: 'Ada Stores: We open at 10 on Sunday.',
      params: ['Ada Stores', 'We open at 10 on Sunday.'],
      subject: 'A message from Ada Stores',
    });
  });

  it('a low-stock alert names the product, what is left and the threshold', () => {
    const t = lowStockText({ businessName: 'Ada Stores', productName: 'Rice 50kg', quantity: 3, threshold: 5 });
    expect(t.text).to.equal('Ada Stores: Rice 50kg is low, 3 left (alert at 5). Restock soon.');
    expect(t.subject).to.equal('Low stock: Rice 50kg');
  });

  it('a daily summary gives the day\'s sales, expenses, credit collected and cash expected in one SMS page', () => {
    const t = dailySummaryText({
      businessName: 'Ada Stores',
      day: '2026-11-22',
      salesCount: 14,
      salesTotal: kobo(8_500_000),
      expensesTotal: kobo(500_000),
      creditCollected: kobo(200_000),
      cashExpected: kobo(7_950_050),
    });
    expect(t.text).to.equal('Ada Stores, 22 Nov 2026: 14 sales ₦85,000.00, expenses ₦5,000.00, credit collected ₦2,000.00, cash expected ₦79,500.50.');
    expect(t.text.length).to.be.at.most(SMS_PAGE);
    expect(dailySummaryText({ businessName: 'A', day: '2026-11-22', salesCount: 1, salesTotal: kobo(100), expensesTotal: kobo(0), creditCollected: kobo(0), cashExpected: kobo(100) }).text).to.match(/: 1 sale ₦1.00,/);
  });
});
