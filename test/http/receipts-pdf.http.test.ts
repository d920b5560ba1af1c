import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import { PDFParse } from 'pdf-parse';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

type Owner = Awaited<ReturnType<typeof registerOwner>>;

/** What a PDF says, as a reader sees it: its text, its pages' sizes and its metadata. */
const readPdf = async (bytes: Buffer) => {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const { text } = await parser.getText();
    const info = await parser.getInfo({ parsePageInfo: true });
    return { text, pages: info.pages.map((p) => ({ width: p.width, height: p.height })), title: info.info?.Title as string | undefined };
  } finally {
    await parser.destroy();
  }
};

/** The width and height of each page as the file itself declares them. */
const mediaBoxes = (bytes: Buffer) => [...bytes.toString('latin1').matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => [Number(m[1]), Number(m[2])]);

/** Lagos wall-clock time (UTC+1 all year) of an ISO instant, computed here rather than by the app. */
const lagos = (iso: string) => new Date(Date.parse(iso) + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');

describe('HTTP receipts as PDF (Accept: application/pdf)', () => {
  let app: TestApp;
  let owner: Owner;
  let staff: { token: string; name: string };
  /** A sale of 2 x 1,500.00 less 500.00 and 3 x 350.25, less 50.75: total 3,500.00, paid by transfer. */
  let sale: { id: string; receipt_number: string; created_at: string };

  /** GET with the bytes of the answer (fetch sends `Accept: *\/*` when no Accept is given). */
  const get = async (path: string, token: string | undefined, accept?: string) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (accept !== undefined) headers.accept = accept;
    const res = await fetch(`${app.baseUrl}/api/v1${path}`, { headers });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) };
  };
  const pdfOf = async (path: string, token: string) => {
    const res = await get(path, token, 'application/pdf');
    expect(res.status, res.bytes.toString('utf8', 0, 300)).to.equal(200);
    return { res, ...(await readPdf(res.bytes)) };
  };
  const aProduct = async (body: Record<string, unknown>) => {
    const res = await app.request('POST', '/products', { token: owner.accessToken, body: { quantity: 100, ...body } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data.id as string;
  };
  const sell = async (token: string, body: Record<string, unknown>) => {
    const res = await app.request('POST', '/sales', { token, body: { payment_method: 'CASH', ...body } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; receipt_number: string; created_at: string };
  };

  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
    const update = await app.request('PUT', '/businesses/me', { token: owner.accessToken, body: { name: 'Mama Nkechi Provisions', address: '12 Allen Avenue, Ikeja', phone: '08031112222' } });
    expect(update.status, update.text).to.equal(200);

    const phone = aPhone();
    await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Chidi', last_name: 'Okafor' } });
    await app.request('POST', '/auth/login', { body: { phone } });
    const verified = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
    expect(verified.status, verified.text).to.equal(200);
    staff = { token: verified.body.data.access_token as string, name: 'Chidi Okafor' };

    const milk = await aProduct({ name: 'Peak Milk 400g', price: 1500 });
    const sugar = await aProduct({ name: 'Sugar 500g', price: 350.25 });
    // 23:30 UTC is already the next day in Lagos
    app.clock.set(new Date('2026-11-22T23:30:00.000Z'));
    try {
      sale = await sell(owner.accessToken, {
        items: [
          { product_id: milk, quantity: 2, discount: 500 },
          { product_id: sugar, quantity: 3 },
        ],
        discount: 50.75,
        payment_method: 'TRANSFER',
      });
    } finally {
      app.clock.set(new Date());
    }
  });
  after(async () => app.close());

  it('answers the PDF: 200 application/pdf, inline with the receipt number as file name, %PDF-, one page 80 mm wide, titled', async () => {
    const { res, pages, title } = await pdfOf(`/sales/${sale.id}/receipt`, owner.accessToken);
    expect(res.headers.get('content-type')).to.equal('application/pdf');
    expect(res.headers.get('content-disposition')).to.equal(`inline; filename="${sale.receipt_number}.pdf"`);
    expect(res.headers.get('vary')).to.match(/\bAccept\b/);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.bytes.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    // 80 mm = 226.77 pt wide; as tall as its content, far less than an A4 page
    expect(mediaBoxes(res.bytes)).to.have.length(1);
    expect(mediaBoxes(res.bytes)[0]![0]).to.equal(226.77);
    expect(pages).to.have.length(1);
    expect(pages[0]!.width).to.be.closeTo(226.77, 0.005);
    expect(pages[0]!.height).to.be.within(200, 600);
    expect(title).to.equal(sale.receipt_number);
  });

  it('the PDF says what the JSON receipt says: business, branch, number, Lagos time, cashier, lines, totals in ₦, payment', async () => {
    const json = (await get(`/sales/${sale.id}/receipt`, owner.accessToken)).json().data;
    const { text } = await pdfOf(`/sales/${sale.id}/receipt`, owner.accessToken);
    expect(json.date_time).to.equal(sale.created_at);
    expect(json.local_date_time.slice(0, 16).replace('T', ' ')).to.equal('2026-11-23 00:30');
    expect(lagos(sale.created_at)).to.equal('2026-11-23 00:30');
    for (const expected of [
      sale.receipt_number,
      'Mama Nkechi Provisions',
      '12 Allen Avenue, Ikeja',
      '+2348031112222',
      `Branch: ${json.branch.name}`,
      '2026-11-23 00:30',
      'Ada Obi',
      'Peak Milk 400g',
      '2 x ₦1,500.00',
      '₦3,000.00',
      '-₦500.00',
      'Sugar 500g',
      '3 x ₦350.25',
      '₦1,050.75',
      '₦3,550.75', // subtotal
      '-₦50.75', // sale discount
      'TOTAL',
      '₦3,500.00',
      'Bank transfer',
      '₦0.00', // balance due
      'Thank you',
    ]) {
      expect(text, expected).to.include(expected);
    }
    expect(text).to.match(/TOTAL\s+₦3,500\.00/);
    expect(text).to.not.include('VOIDED');
    expect(json).to.include({ total: 3500, subtotal: 3550.75, discount: 50.75, cashier: 'Ada Obi' });
  });

  it('by receipt number too; JSON stays the default for no Accept, */*, application/json, a browser and a PDF of lower q', async () => {
    const byNumber = await pdfOf(`/sales/receipts/${sale.receipt_number}`, owner.accessToken);
    expect(byNumber.res.headers.get('content-type')).to.equal('application/pdf');
    expect(byNumber.res.headers.get('content-disposition')).to.equal(`inline; filename="${sale.receipt_number}.pdf"`);
    expect(byNumber.text).to.include(sale.receipt_number).and.include('₦3,500.00');

    for (const accept of ['*/*', 'application/json', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/pdf;q=0.5, application/json', 'text/csv']) {
      for (const path of [`/sales/${sale.id}/receipt`, `/sales/receipts/${sale.receipt_number}`]) {
        const res = await get(path, owner.accessToken, accept);
        expect(res.status, `${path} ${accept}`).to.equal(200);
        expect(res.headers.get('content-type'), `${path} ${accept}`).to.match(/^application\/json/);
        expect(res.headers.get('content-disposition')).to.equal(null);
        expect(res.json()).to.include({ success: true, message: 'Receipt' });
        expect(res.json().data).to.include({ receipt_number: sale.receipt_number, total: 3500 });
      }
    }
    // no Accept header at all (fetch always sends one)
    const bare = await new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
      const req = httpRequest(`${app.baseUrl}/api/v1/sales/${sale.id}/receipt`, { headers: { authorization: `Bearer ${owner.accessToken}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(bare.status).to.equal(200);
    expect(bare.type).to.match(/^application\/json/);
    expect(JSON.parse(bare.body).data.receipt_number).to.equal(sale.receipt_number);
  });

  it("a voided sale's PDF says VOIDED, with the reason", async () => {
    const p = await aProduct({ name: 'Bread', price: 1200 });
    const voided = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 1 }] });
    const res = await app.request('POST', `/sales/${voided.id}/void`, { token: owner.accessToken, body: { reason: 'customer returned it' } });
    expect(res.status, res.text).to.equal(200);
    const { text } = await pdfOf(`/sales/${voided.id}/receipt`, owner.accessToken);
    expect(text).to.include('VOIDED').and.include('customer returned it').and.include(voided.receipt_number).and.include('₦1,200.00');
  });

  it('errors stay Problem Details JSON when a PDF is asked for: unknown or malformed sale, unknown receipt number, no token', async () => {
    for (const path of ['/sales/00000000-0000-4000-8000-000000000000/receipt', '/sales/not-a-uuid/receipt', '/sales/receipts/RCP-999999', '/sales/receipts/nonsense']) {
      const res = await get(path, owner.accessToken, 'application/pdf');
      expect(res.status, path).to.equal(404);
      expect(res.headers.get('content-type'), path).to.match(/^application\/json/);
      expect(res.headers.get('content-disposition')).to.equal(null);
      expect(res.json(), path).to.include({ success: false });
      expect(res.json().error, path).to.include({ status: 404, code: 'RESOURCE_NOT_FOUND' });
    }
    const anonymous = await get(`/sales/${sale.id}/receipt`, undefined, 'application/pdf');
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('content-type')).to.match(/^application\/json/);
    expect(anonymous.json().error.code).to.equal('TOKEN_MISSING');
  });

  it("a staff member gets the PDF of the owner's sale, and of their own with their name as cashier", async () => {
    const ofOwner = await pdfOf(`/sales/${sale.id}/receipt`, staff.token);
    expect(ofOwner.text).to.include(sale.receipt_number).and.include('Ada Obi').and.include('₦3,500.00');
    const p = await aProduct({ name: 'Indomie Chicken 70g', price: 250 });
    const mine = await sell(staff.token, { items: [{ product_id: p, quantity: 4 }] });
    const { text } = await pdfOf(`/sales/receipts/${mine.receipt_number}`, staff.token);
    expect(text).to.include(staff.name).and.include('4 x ₦250.00').and.include('₦1,000.00').and.include(lagos(mine.created_at));
  });

  it("another business's sale is 404, as JSON, whatever is asked for", async () => {
    const other = await registerOwner(app);
    for (const accept of ['application/pdf', 'application/json']) {
      for (const path of [`/sales/${sale.id}/receipt`, `/sales/receipts/${sale.receipt_number}`]) {
        const res = await get(path, other.accessToken, accept);
        expect(res.status, `${path} ${accept}`).to.equal(404);
        expect(res.headers.get('content-type')).to.match(/^application\/json/);
        expect(res.json().error.code).to.equal('RESOURCE_NOT_FOUND');
        expect(res.bytes.toString('utf8')).to.not.include('Mama Nkechi');
      }
    }
  });

  it('the OpenAPI document offers both media types for the 200 of both receipt operations', () => {
    const paths = (app.openApi as { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Record<string, unknown> }>; headers?: object }> }>> }).paths;
    for (const path of ['/sales/{id}/receipt', '/sales/receipts/{receipt_number}']) {
      const ok = paths[path]!.get!.responses['200']!;
      expect(Object.keys(ok.content), path).to.deep.equal(['application/json', 'application/pdf']);
      expect(ok.content['application/json']!.schema).to.have.nested.property('properties.data');
      expect(ok.content['application/pdf']!.schema).to.include({ type: 'string', contentMediaType: 'application/pdf' });
      expect(ok.headers).to.have.property('Content-Disposition');
      expect(paths[path]!.get!.responses['404']!.content).to.have.all.keys('application/json');
    }
  });
});
