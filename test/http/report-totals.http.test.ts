import { expect } from 'chai';
import { PDFParse } from 'pdf-parse';
import { setPlan } from '../../application/operator/plans.js';
import { aPartner, asPartner } from '../support/partners.js';
import { reportFiles } from '../support/report-files.js';
import { aPhone, createTestApp, type TestApp } from '../support/test-app.js';

// Issue 31: totals past 2^53 kobo (about 90 trillion naira) are answered exactly, never a 500
// (docs/adr/0038). One amount is at most 1,000,000,000,000.00; these add 91 of them and 0.03.
//
// Business B (PRO), all on 2026-11-21 (Lagos): 91 CASH sales of Bulk (1 x 1,000,000,000,000.00, cost 500,000,000,000.00)
// and one of Sweet (0.03, no cost). Revenue 9,100,000,000,000,003 kobo; cost of goods 91 x 50,000,000,000,000 =
// 4,550,000,000,000,000; gross 4,550,000,000,000,003. Stock: Gold 1,000,000 x 1,000,000,000,000.00 (no cost),
// Bulk 909 left, Sweet 9 left: at price 10^20 + 909 x 10^14 + 27 kobo, at cost 909 x 5 x 10^13 kobo.
//
// Expenses of B: 91 of 1,000,000,000,000.00 and one of 0.01 on 2026-11-20 (Rent, TRANSFER): 9,100,000,000,000,001 kobo,
// whose nearest double JSON.stringify writes as 91000000000000.02.
//
// Every amount is written with exactly 2 decimals (ADR 0046): a sum past 2^53 kobo with its exact digits.
//
// Partner P: M1 (FREE) 45 sales of 1,000,000,000,000.00 and one of 0.03, M2 (FREE) 46 of 1,000,000,000,000.00:
// each under 2^53 kobo, together 9,100,000,000,000,003 kobo; M3 one sale of 5.00, its own dashboard untouched.

const NOW = new Date('2026-11-21T12:00:00.000Z');
const TRILLION = 1_000_000_000_000;
/** Kobo (a bigint) as the naira text the JSON and CSV carry. */
const naira = (k: bigint) => `${k / 100n}.${String(k % 100n).padStart(2, '0')}`;
const REVENUE = 91n * 10n ** 14n + 3n;
const GROSS = REVENUE - 91n * 5n * 10n ** 13n;
const AT_PRICE = 10n ** 20n + 909n * 10n ** 14n + 27n;
const AT_COST = 909n * 5n * 10n ** 13n;
/** Half up, as the reports round an average. */
const average = (total: bigint, count: bigint) => (total * 2n + count) / (2n * count);

for (const persistence of ['postgres', 'memory'] as const)
  describe(`HTTP totals past 2^53 kobo (${persistence}): exact, never 500`, function () {
    this.timeout(300_000);
    let app: TestApp;
    const at = (iso: string) => app.clock.set(new Date(iso));
    const open = async (name: string, code?: string) => {
      const phone = aPhone();
      const reg = await app.request('POST', '/auth/register', { body: { phone, first_name: 'Ngozi', last_name: name, business_name: name, ...(code ? { partner_code: code } : {}) } });
      expect(reg.status, reg.text).to.equal(201);
      const token = (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } })).body.data.access_token as string;
      const businessId = (await app.request('GET', '/businesses/me', { token })).body.data.id as string;
      return { token, businessId };
    };
    const product = async (token: string, body: Record<string, unknown>) => {
      const res = await app.request('POST', '/products', { token, body });
      expect(res.status, res.text).to.equal(201);
      return res.body.data.id as string;
    };
    const sell = async (token: string, productId: string, times: number) => {
      for (let i = 0; i < times; i++) {
        const res = await app.request('POST', '/sales', { token, body: { items: [{ product_id: productId, quantity: 1 }], payment_method: 'CASH' } });
        expect(res.status, res.text).to.equal(201);
      }
    };
    let b: { token: string; businessId: string };
    let partner: Awaited<ReturnType<typeof aPartner>>;
    let m1: { token: string; businessId: string };
    let m2: { token: string; businessId: string };
    let m3: { token: string; businessId: string };

    before(async () => {
      app = await createTestApp({ persistence });
      at('2026-11-01T08:00:00.000Z');
      b = await open('Big Traders');
      await setPlan({ uow: app.persistence.uow, clock: app.clock })(b.businessId, 'PRO');
      const bulk = await product(b.token, { name: 'Bulk', price: TRILLION, cost_price: TRILLION / 2, quantity: 1000 });
      const sweet = await product(b.token, { name: 'Sweet', price: 0.03, quantity: 10 });
      await product(b.token, { name: 'Gold', price: TRILLION, quantity: 1_000_000 });
      partner = await aPartner(app, 'Partner P');
      m1 = await open('Merchant One', partner.code);
      m2 = await open('Merchant Two', partner.code);
      m3 = await open('Merchant Three', partner.code);
      const big1 = await product(m1.token, { name: 'Bulk', price: TRILLION, quantity: 100 });
      const small1 = await product(m1.token, { name: 'Sweet', price: 0.03, quantity: 100 });
      const big2 = await product(m2.token, { name: 'Bulk', price: TRILLION, quantity: 100 });
      const small3 = await product(m3.token, { name: 'Bread', price: 5, quantity: 100 });

      at('2026-11-21T09:00:00.000Z');
      await sell(b.token, bulk, 91);
      await sell(b.token, sweet, 1);
      await sell(m1.token, big1, 45);
      await sell(m1.token, small1, 1);
      await sell(m2.token, big2, 46);
      await sell(m3.token, small3, 1);
      // and as many expenses the day before (the dashboard, daily summary and cash flow of the 21st leave them out)
      const rent = ((await app.request('GET', '/expenses/categories', { token: b.token })).body.data.content as { id: string; name: string }[]).find((c) => c.name === 'Rent')!.id;
      for (const amount of [...Array(91).fill(TRILLION), 0.01]) {
        const res = await app.request('POST', '/expenses', { token: b.token, body: { category_id: rent, amount, description: 'rent', payment_method: 'TRANSFER', spent_on: '2026-11-20' } });
        expect(res.status, res.text).to.equal(201);
      }
      app.clock.set(NOW);
    });
    after(async () => app.close());

    const get = async (path: string, token = b.token) => {
      const res = await app.request('GET', path, { token });
      expect(res.status, `${path}: ${res.text}`).to.equal(200);
      return res.text;
    };

    it('dashboard: revenue, average sale and gross profit past 2^53 kobo, exact', async () => {
      const text = await get('/reports/dashboard');
      expect(text).to.include(`"revenue":{"value":${naira(REVENUE)},"previous":0.00,"change_pct":null}`);
      expect(text).to.include(`"average_sale":{"value":${naira(average(REVENUE, 92n))},"previous":0.00,"change_pct":null}`);
      expect(text).to.include(`"gross_profit":{"value":${naira(GROSS)},"previous":0.00,"change_pct":null}`);
      expect(text).to.include(`"sales_count":{"value":92,"previous":0,"change_pct":null}`);
    });

    it('daily summary: the day\'s sales and the cash expected, exact', async () => {
      const text = await get('/reports/daily-summary');
      expect(text).to.include(`"sales":{"count":92,"total":${naira(REVENUE)},"by_payment_method":[{"method":"CASH","count":92,"total":${naira(REVENUE)}}]}`);
      expect(text).to.include(`"cash_expected":${naira(REVENUE)}`);
    });

    it('profit and loss (JSON, CSV, XLSX): revenue and gross profit exact (XLSX: the nearest number, as Excel holds any)', async () => {
      const text = await get('/reports/profit-loss?start_date=2026-11-01&end_date=2026-11-21');
      expect(text).to.include(`"revenue":${naira(REVENUE)},`);
      expect(text).to.include(`"gross_profit":${naira(GROSS)},`);
      expect(text).to.include('"gross_margin_pct":50');
      const files = reportFiles(app, () => b.token);
      const name = 'profit-loss-2026-11-01_2026-11-21';
      const csv = await files.csv('/reports/profit-loss/export?start_date=2026-11-01&end_date=2026-11-21', `${name}.csv`);
      expect(csv.at(-1)!.slice(0, 6)).to.deep.equal(['Total', naira(REVENUE), '0.00', '0.00', naira(91n * 5n * 10n ** 13n), naira(GROSS)]);
      const rows = (await files.xlsxRows('/reports/profit-loss/export?start_date=2026-11-01&end_date=2026-11-21&format=xlsx', `${name}.xlsx`)).slice(6);
      expect(rows.at(-1)!.slice(0, 2)).to.deep.equal(['Total', Number(naira(REVENUE))]);
    });

    it('cash-flow export: the day\'s money in and running balance, exact', async () => {
      const csv = await reportFiles(app, () => b.token).csv('/reports/cash-flow/export?start_date=2026-11-21&end_date=2026-11-21', 'cash-flow-2026-11-21_2026-11-21.csv');
      const [header, day] = csv as [string[], string[]];
      const cell = (key: string) => day[header.indexOf(key)];
      expect([cell('sales_paid'), cell('in_cash'), cell('money_in'), cell('net'), cell('running_balance')]).to.deep.equal(Array(5).fill(naira(REVENUE)));
    });

    it('inventory (JSON and PDF): price x units past what a bigint holds, exact', async () => {
      const text = await get('/reports/inventory');
      expect(text).to.include(`"total":{"products":3,"units":1000918,"stock_value_at_cost":${naira(AT_COST)},"stock_value_at_price":${naira(AT_PRICE)}}`);
      const pdf = await reportFiles(app, () => b.token).pdfText('/reports/inventory/export?format=pdf', 'inventory-2026-11-21_2026-11-21.pdf');
      expect(pdf).to.include('1,000,909,000,000,000,000.27');
      expect(naira(AT_PRICE)).to.equal('1000909000000000000.27');
    });

    it('partner analytics: the network\'s GMV past 2^53 kobo exact; merchants listed and sorted by exact GMV', async () => {
      const res = await asPartner(app, partner.key, 'GET', '/partner/analytics?period=7d');
      expect(res.status, res.text).to.equal(200);
      const gmv = REVENUE + 500n;
      expect(res.text).to.include(`"gmv":{"value":${naira(gmv)},"previous":0.00,"change_pct":null}`);
      expect(res.text).to.include(`"average_ticket":{"value":${naira(average(gmv, 93n))},"previous":0.00,"change_pct":null}`);
      expect(res.text).to.include(`{"date":"2026-11-21","gmv":${naira(gmv)},"transactions":93}`);
      const list = await asPartner(app, partner.key, 'GET', '/partner/merchants?sort_by=gmv_30d&limit=2');
      expect(list.status, list.text).to.equal(200);
      expect(list.body.data.content.map((m: { id: string; gmv_30d: number }) => [m.id, m.gmv_30d])).to.deep.equal([
        [m2.businessId, 46 * TRILLION],
        [m1.businessId, 45 * TRILLION + 0.03],
      ]);
      const next = await asPartner(app, partner.key, 'GET', `/partner/merchants?sort_by=gmv_30d&limit=2&cursor=${list.body.data.cursor}`);
      expect(next.body.data.content.map((m: { id: string }) => m.id)).to.deep.equal([m3.businessId]);
    });

    it('loan pack: its JSON (bizops-loan-pack/2) holds the sums as exact naira with 2 decimals; its PDF and the lender\'s check show them exactly', async () => {
      const pack = await app.request('POST', '/reports/loan-pack', { token: b.token, body: { months: 12 } });
      expect(pack.status, pack.text).to.equal(201);
      const { reference, sha256 } = pack.body.data as { reference: string; sha256: string };
      const download = (accept?: string) =>
        fetch(`${app.baseUrl}/api/v1/reports/loan-pack/${reference}/download`, { headers: { authorization: `Bearer ${b.token}`, ...(accept ? { accept } : {}) } });
      const json = await download('application/json');
      expect(json.status).to.equal(200);
      const text = await json.text();
      expect(text).to.include('"format":"bizops-loan-pack/2"');
      expect(text).to.include(`"revenue":${naira(REVENUE)}`);
      expect(text).to.include(`"gross_profit":${naira(GROSS)}`);
      expect(text).to.include(`"value_at_price":${naira(AT_PRICE)}`);
      expect(text).to.include(`"average_sale":${naira(average(REVENUE, 92n))}`);
      expect(text).to.not.contain('_kobo');
      const pdf = await download('application/pdf');
      expect(pdf.status, await pdf.clone().text()).to.equal(200);
      const parser = new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) });
      try {
        // narrow columns wrap long amounts: compared without white space
        expect((await parser.getText()).text.replace(/\s+/g, '')).to.include('Total₦91,000,000,000,000.03₦45,500,000,000,000.03');
      } finally {
        await parser.destroy();
      }
      const verified = await app.request('GET', `/loan-packs/verify/${reference}?hash=${sha256}`);
      expect(verified.status, verified.text).to.equal(200);
      expect(verified.text).to.include(`"revenue":${naira(REVENUE)},"gross_profit":${naira(GROSS)}`);
    });

    it('expenses summary: a total past 2^53 kobo, its exact digits (not those of the nearest double)', async () => {
      const text = await get('/expenses/summary?start_date=2026-11-20&end_date=2026-11-20');
      expect(JSON.stringify(Number('91000000000000.01'))).to.equal('91000000000000.02');
      expect(text).to.include('"total":91000000000000.01,"count":92}');
    });

    it("another merchant's own reports are untouched by the network's sums", async () => {
      const text = await get('/reports/dashboard', m3.token);
      expect(text).to.include('"revenue":{"value":5.00,"previous":0.00,"change_pct":null}');
    });
  });
