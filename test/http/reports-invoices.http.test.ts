import { expect } from 'chai';
import { reportFiles } from '../support/report-files.js';
import { createTestApp, registerOwner, aPhone, type TestApp } from '../support/test-app.js';

// Invoices in the reports over HTTP on the real app (docs/adr/0074), a hand-worked fixture checked to the kobo.
// A VAT-registered shop (7.5%, prices exclude VAT) on 22 November (Lagos): a CASH sale of 1 x Rice (2,500.00
// + 187.50 VAT, cost 1,500.00); a TAX_INVOICE of 4 x Rice less 500.00 = 9,500.00 + 712.50 VAT = 10,212.50
// (cost 4 x 1,500.00), due the same day, paid 3,000.00 CASH and 2,000.00 TRANSFER; an invoice sent then
// cancelled and a sent proforma, which count nowhere.

type Json = Record<string, any>;

describe('HTTP reports with invoices', function () {
  this.timeout(180_000);
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  it('dashboard, P&L, daily summary (cash_expected) and receivables count the sent invoice and its payments to the kobo', async () => {
    app.clock.set(new Date('2026-11-22T10:00:00.000Z'));
    const owner = await registerOwner(app);
    const ok = async (method: 'GET' | 'POST' | 'PUT', path: string, body: Json | undefined, status: number) => {
      const res = await app.request(method, path, { token: owner.accessToken, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}: ${res.text}`).to.equal(status);
      return res.body.data as Json;
    };
    await ok('PUT', '/businesses/me', { vat_registered: true, tin: '12345678-0001', prices_include_vat: false }, 200);
    const rice = (await ok('POST', '/products', { name: 'Rice 5kg', price: 2500, cost_price: 1500, quantity: 40 }, 201)).id;
    const chika = (await ok('POST', '/customers', { name: 'Zenith Catering Ltd', phone: aPhone() }, 201)).id;
    const sale = await ok('POST', '/sales', { items: [{ product_id: rice, quantity: 1 }], payment_method: 'CASH' }, 201);
    expect(sale).to.include({ total: 2687.5 });

    const inv = await ok('POST', '/invoices', { type: 'TAX_INVOICE', customer_id: chika, payment_terms_days: 0, lines: [{ product_id: rice, quantity: 4, discount: 500 }] }, 201);
    expect(await ok('POST', `/invoices/${inv.id}/send`, undefined, 200)).to.include({ subtotal: 9500, vat_total: 712.5, total: 10_212.5, due_date: '2026-11-22' });
    await ok('POST', `/invoices/${inv.id}/payments`, { amount: 3000, method: 'CASH' }, 201);
    await ok('POST', `/invoices/${inv.id}/payments`, { amount: 2000, method: 'TRANSFER' }, 201);
    const gone = await ok('POST', '/invoices', { type: 'INVOICE', customer_id: chika, lines: [{ product_id: rice, quantity: 2 }] }, 201);
    await ok('POST', `/invoices/${gone.id}/send`, undefined, 200);
    await ok('POST', `/invoices/${gone.id}/cancel`, undefined, 200);
    const pf = await ok('POST', '/invoices', { type: 'PROFORMA', customer_id: chika, lines: [{ product_id: rice, quantity: 3 }] }, 201);
    await ok('POST', `/invoices/${pf.id}/send`, undefined, 200);

    const dash = await ok('GET', '/reports/dashboard', undefined, 200);
    expect(dash.revenue.value).to.equal(12_000); // 2,500.00 + 9,500.00, net of VAT
    expect(dash.gross_profit.value).to.equal(4500); // 12,000.00 - (1,500.00 + 6,000.00)
    expect(dash.sales_count.value).to.equal(1);
    expect(dash.average_sale.value).to.equal(2500); // till sales only
    expect(dash.receivables).to.deep.equal({ invoiced: 10_212.5, collected: 5000, outstanding: 5212.5, overdue: 0 });

    const pl = await ok('GET', '/reports/profit-loss?start_date=2026-11-01&end_date=2026-11-30', undefined, 200);
    expect(pl).to.include({ revenue: 12_000, discounts: 500, cost_of_goods_sold: 7500, gross_profit: 4500, net_profit: 4500 });

    // sales by category: the till's sale only (the invoice is not split by category), so no negative sale discount
    const byCategory = await ok('GET', '/reports/sales-by-category?start_date=2026-11-22&end_date=2026-11-22', undefined, 200);
    expect(byCategory).to.include({ line_total: 2500, sale_discounts: 0, revenue: 2500 });

    const day = await ok('GET', '/reports/daily-summary?date=2026-11-22', undefined, 200);
    expect(day.invoice_payments).to.deep.equal({ total: 5000, by_payment_method: [{ method: 'CASH', count: 1, total: 3000 }, { method: 'TRANSFER', count: 1, total: 2000 }] });
    expect(day.cash_expected).to.equal(5687.5); // 2,687.50 sale cash + 3,000.00 invoice cash

    // the VAT return: the invoice's output VAT beside the sale's, by rate, on its issue date; file too
    const vat = await ok('GET', '/reports/vat?month=2026-11', undefined, 200);
    expect(vat.sales).to.deep.equal({ count: 1, net: 2500, output_vat: 187.5, by_rate: [{ rate: 7.5, net: 2500, vat: 187.5 }] });
    expect(vat.invoices).to.deep.equal({ count: 1, net: 9500, output_vat: 712.5, by_rate: [{ rate: 7.5, net: 9500, vat: 712.5 }] });
    expect(vat).to.include({ output_vat: 900, net_vat_payable: 900 });
    expect((await ok('GET', '/reports/vat?month=2026-10', undefined, 200)).invoices).to.deep.equal({ count: 0, net: 0, output_vat: 0, by_rate: [] });
    const files = reportFiles(app, () => owner.accessToken);
    expect(await files.csv('/reports/vat/export?month=2026-11', 'vat-2026-11-01_2026-11-30.csv')).to.deep.equal([
      ['item', 'rate_pct', 'net', 'vat'],
      ['Sales', '7.5', '2500.00', '187.50'],
      ['Invoices', '7.5', '9500.00', '712.50'],
      ['Output VAT (sales and invoices less returns)', '', '12000.00', '900.00'],
      ['Input VAT (expenses)', '', '0.00', '0.00'],
      ['Net VAT payable', '', '', '900.00'],
      ['Due by 2026-12-21, TIN 12345678-0001', '', '', ''],
    ]);

    // the cash flow: the invoice payments are money in by method, once (their ledger entries are not credit collected)
    const flow = await files.csv('/reports/cash-flow/export?start_date=2026-11-22&end_date=2026-11-22', 'cash-flow-2026-11-22_2026-11-22.csv');
    const [header, row] = flow as [string[], string[]];
    const keys = ['sales_paid', 'credit_collected', 'invoices_paid', 'in_cash', 'in_transfer', 'in_other', 'money_in', 'running_balance'];
    expect(keys.map((k) => row[header.indexOf(k)])).to.deep.equal(['2687.50', '0.00', '5000.00', '5687.50', '2000.00', '0.00', '7687.50', '7687.50']);

    // the next day the unpaid part is overdue; the period of the 22nd still holds it
    app.clock.set(new Date('2026-11-23T10:00:00.000Z'));
    const next = await ok('GET', '/reports/dashboard?period=custom&start_date=2026-11-22&end_date=2026-11-22', undefined, 200);
    expect(next.receivables).to.deep.equal({ invoiced: 10_212.5, collected: 5000, outstanding: 5212.5, overdue: 5212.5 });
    expect((await ok('GET', '/reports/dashboard', undefined, 200)).receivables).to.deep.equal({ invoiced: 0, collected: 0, outstanding: 0, overdue: 0 });
  });
});
