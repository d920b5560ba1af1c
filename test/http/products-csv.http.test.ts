import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { stringify } from 'csv-stringify/sync';
import { lagosDate } from '../../domain/lagos-time.js';
import { EXPORT_BATCH } from '../../application/products/export-products.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

const HEADER = ['sku', 'name', 'price', 'cost_price', 'quantity', 'category', 'type', 'low_stock_threshold', 'barcode', 'unit'];
const csv = (rows: unknown[][]) => stringify(rows as string[][]);

type Owner = Awaited<ReturnType<typeof registerOwner>>;

describe('HTTP products CSV: export and import', () => {
  let app: TestApp;
  let owner: Owner;
  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
  });
  after(async () => app.close());

  const importCsv = (token: string, body: string | Uint8Array, options: { query?: string; contentType?: string } = {}) =>
    app.request('POST', `/products/import${options.query ?? ''}`, { token, rawBody: body, headers: { 'content-type': options.contentType ?? 'text/csv' } });
  const exportCsv = (token: string) => fetch(`${app.baseUrl}/api/v1/products/export`, { headers: { authorization: `Bearer ${token}` } });
  const exportRecords = async (token: string) => {
    const res = await exportCsv(token);
    expect(res.status).to.equal(200);
    return parse(await res.text(), { bom: true }) as string[][];
  };
  const newOwner = () => registerOwner(app, { phone: aPhone() });
  /**
   * `n` products BULK-00000… (price i.(i % 100) naira, i % 7 in stock at the default branch) written
   * straight into the tables in one statement: the export is under test here, and importing them over
   * HTTP costs some 15 ms a row on PGlite (the import has its own tests below and in the use case's).
   */
  const seedBulkProducts = async (token: string, n: number) => {
    const businessId = (await app.request('GET', '/businesses/me', { token })).body.data.id as string;
    const client = new pg.Client({ connectionString: app.databaseUrl });
    await client.connect();
    try {
      await client.query(
        // times to the millisecond, as the API writes them (a keyset cursor is a JavaScript Date)
        `with made as (
           insert into products (id, business_id, name, sku, price, cost_price, quantity, category, type, low_stock_threshold, barcode, unit, created_at, updated_at, archived_at, vat_exempt)
           select gen_random_uuid(), $1, 'Bulk item ' || i, 'BULK-' || lpad(i::text, 5, '0'), i * 100 + i % 100, null, i % 7, null, 'PRODUCT', null, null, null, date_trunc('milliseconds', now()), date_trunc('milliseconds', now()), null, false
             from generate_series(0, $2::integer - 1) i
           returning id, quantity)
         insert into product_stock (business_id, product_id, branch_id, quantity, updated_at)
         select $1, made.id, b.id, made.quantity, date_trunc('milliseconds', now()) from made, branches b where b.business_id = $1 and b.is_default and made.quantity > 0`,
        [businessId, n],
      );
    } finally {
      await client.end();
    }
  };
  const products = async (token: string) => (await app.request('GET', '/products?limit=100&sort_by=name&sort_dir=asc', { token })).body.data.content as any[];
  const importLedger = async (token: string) => (await app.request('GET', '/products/stock-adjustments?reason=IMPORT&limit=100', { token })).body.data.content as any[];
  const expectProblem = (res: { status: number; body: any }, status: number, code: string) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body.success).to.equal(false);
    expect(res.body.error.code).to.equal(code);
    return res.body.error;
  };

  describe('export', () => {
    it('answers an attachment with a Lagos-dated filename, a BOM, the header, and formula cells defused', async () => {
      const seller = await newOwner();
      const created = [
        { name: '=HYPERLINK("x")', price: 1500.5, quantity: 3, category: 'Grains, "Premium"', sku: 'HYP-1' },
        { name: '@SUM(1)', price: 20, sku: '-MINUS', barcode: '+2348031234567', unit: '\'=already quoted' },
        { name: "Mama's Rice", price: 0.05, cost_price: 0.01, sku: 'RICE', low_stock_threshold: 2, type: 'PRODUCT' },
        { name: 'Haircut', price: 2500, sku: 'CUT', type: 'SERVICE' },
      ];
      for (const body of created) {
        const res = await app.request('POST', '/products', { token: seller.accessToken, body });
        expect(res.status, res.text).to.equal(201);
      }

      const res = await exportCsv(seller.accessToken);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="products-${lagosDate(app.clock.now())}.csv"`);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
      const text = bytes.subarray(3).toString('utf8');
      expect(text.split('\r\n')[0]).to.equal(HEADER.join(','));
      // Raw text: the guard quote, CSV quoting of commas and quotes, naira with 2 decimals.
      expect(text).to.include('HYP-1,"\'=HYPERLINK(""x"")",1500.50,,3,"Grains, ""Premium""",PRODUCT,,,\r\n');
      expect(text).to.include("'-MINUS,'@SUM(1),20.00,,0,,PRODUCT,,'+2348031234567,''=already quoted\r\n");
      expect(text).to.include("RICE,Mama's Rice,0.05,0.01,0,,PRODUCT,2,,\r\n");
      expect(text).to.include('CUT,Haircut,2500.00,,0,,SERVICE,,,\r\n');
      expect(text.endsWith('\r\n')).to.equal(true);
      // Every text cell a spreadsheet would evaluate is defused.
      for (const record of parse(text) as string[][]) for (const cell of record) expect(cell, cell).to.not.match(/^[=+\-@\t\r]/);
    });

    it('round-trips: the exported file imported into another business gives the same products and the same file', async () => {
      const seller = await newOwner();
      const seed = csv([
        HEADER,
        ['HYP-1', '=HYPERLINK("x")', '1500.5', '', '3', 'Grains, "Premium"', 'PRODUCT', '', '', ''],
        ['AT-1', '@SUM(1)', '20', '7.25', '0', '', 'product', '5', '+234803', '-kg'],
        ['Q-1', "''=literal quote", '1', '', '1', '', '', '', '', ''],
        ['CUT', 'Haircut', '2500', '', '', 'Services', 'SERVICE', '', '', ''],
      ]);
      const seeded = await importCsv(seller.accessToken, seed);
      expect(seeded.status, seeded.text).to.equal(200);
      expect(seeded.body.data).to.deep.equal({ dry_run: false, created: 4, updated: 0, unchanged: 0, errors: [] });
      const original = await products(seller.accessToken);
      expect(original.map((p) => p.name).sort()).to.deep.equal(["'=literal quote", '=HYPERLINK("x")', '@SUM(1)', 'Haircut']);
      expect(original.find((p) => p.sku === 'HYP-1')).to.include({ price: 1500.5, category: 'Grains, "Premium"', quantity: 3 });
      expect(original.find((p) => p.sku === 'AT-1')).to.include({ cost_price: 7.25, unit: '-kg', barcode: '+234803', low_stock_threshold: 5 });

      const exported = await (await exportCsv(seller.accessToken)).text();
      const other = await newOwner();
      const imported = await importCsv(other.accessToken, exported);
      expect(imported.body.data).to.deep.equal({ dry_run: false, created: 4, updated: 0, unchanged: 0, errors: [] });
      const copy = await products(other.accessToken);
      const comparable = (ps: any[]) =>
        ps.map(({ id: _i, business_id: _b, created_at: _c, updated_at: _u, stock, ...rest }) => ({ ...rest, stock: stock.map(({ branch_id: _br, ...s }: any) => s) }));
      expect(comparable(copy)).to.deep.equal(comparable(original));
      // The same lines (rows created in the same millisecond come in id order, so the order may differ).
      const lines = (text: string) => [text.split('\r\n')[0], ...text.split('\r\n').slice(1).sort()];
      expect(lines(await (await exportCsv(other.accessToken)).text())).to.deep.equal(lines(exported));

      // Importing a business's own export changes nothing and writes no ledger row.
      const ledgerBefore = await importLedger(seller.accessToken);
      const again = await importCsv(seller.accessToken, exported);
      expect(again.body.data).to.deep.equal({ dry_run: false, created: 0, updated: 0, unchanged: 4, errors: [] });
      expect(await importLedger(seller.accessToken)).to.deep.equal(ledgerBefore);
      expect(await products(seller.accessToken)).to.deep.equal(original);
    });

    it('streams products across three export batches (chunked, no Content-Length), each exactly once', async function () {
      this.timeout(120_000);
      const seller = await newOwner();
      const n = 2 * EXPORT_BATCH + 300; // three batches, the last one short
      await seedBulkProducts(seller.accessToken, n);

      const exportStarted = performance.now();
      const download = await exportCsv(seller.accessToken);
      expect(download.headers.get('content-length')).to.equal(null);
      expect(download.headers.get('transfer-encoding')).to.equal('chunked');
      const records = parse(await download.text(), { bom: true }) as string[][];
      const exportMs = performance.now() - exportStarted;
      expect(records).to.have.length(n + 1);
      const skus = records.slice(1).map((r) => r[0]);
      expect(new Set(skus).size).to.equal(n);
      expect(records.find((r) => r[0] === 'BULK-01234')).to.deep.equal(['BULK-01234', 'Bulk item 1234', '1234.34', '', String(1234 % 7), '', 'PRODUCT', '', '', '']);
      // eslint-disable-next-line no-console
      console.log(`        export of ${n} products ${Math.round(exportMs)} ms`);
    });

    it('an empty catalogue exports the header alone', async () => {
      const seller = await newOwner();
      expect(await exportRecords(seller.accessToken)).to.deep.equal([HEADER]);
    });
  });

  describe('import', () => {
    it('creates and updates by sku ignoring case; each quantity change is one IMPORT ledger row', async () => {
      const seller = await newOwner();
      const rice = (await app.request('POST', '/products', { token: seller.accessToken, body: { name: 'Rice 5kg', sku: 'RICE-5', price: 9500, quantity: 10 } })).body.data;
      const res = await importCsv(
        seller.accessToken,
        csv([
          ['SKU', 'Name', 'Price', 'Quantity'], // header names are read ignoring case
          ['rice-5', 'Rice 5kg (new bag)', '9800', '25'],
          ['OIL-1', 'Palm oil 1L', '1500.50', '7'],
          ['SOAP', 'Soap', '300', '0'],
        ]),
      );
      expect(res.status, res.text).to.equal(200);
      expect(res.body.message).to.equal('Import applied: 2 created, 1 updated, 0 unchanged, 0 rows skipped');
      expect(res.body.data).to.deep.equal({ dry_run: false, created: 2, updated: 1, unchanged: 0, errors: [] });

      const updated = (await app.request('GET', `/products/${rice.id}`, { token: seller.accessToken })).body.data;
      expect(updated).to.include({ sku: 'RICE-5', name: 'Rice 5kg (new bag)', price: 9800, quantity: 25 });
      const oil = (await products(seller.accessToken)).find((p) => p.sku === 'OIL-1');
      expect(oil).to.include({ price: 1500.5, quantity: 7 });

      const ledger = await importLedger(seller.accessToken);
      expect(ledger.map((m) => [m.product_id, m.quantity_before, m.quantity_after]).sort()).to.deep.equal(
        [[rice.id, 10, 25], [oil.id, 0, 7]].sort(),
      );
      expect(ledger.every((m) => m.reason === 'IMPORT' && m.created_by === seller.userId)).to.equal(true);
    });

    it('turns a stocked product into a service when the row also sets quantity 0 (ledger row first), and refuses it otherwise', async () => {
      const seller = await newOwner();
      const cut = (await app.request('POST', '/products', { token: seller.accessToken, body: { name: 'Haircut', sku: 'CUT', price: 2000, quantity: 2 } })).body.data;
      await app.request('POST', '/products', { token: seller.accessToken, body: { name: 'Shave', sku: 'SHAVE', price: 500, quantity: 1 } });
      const res = await importCsv(seller.accessToken, csv([['sku', 'type', 'quantity'], ['cut', 'service', '0'], ['SHAVE', 'SERVICE', '']]));
      expect(res.body.data).to.deep.equal({
        dry_run: false,
        created: 0,
        updated: 1,
        unchanged: 0,
        errors: [{ row: 3, field: 'type', message: 'a product with stock cannot become a service; set quantity to 0 too' }],
      });
      expect((await app.request('GET', `/products/${cut.id}`, { token: seller.accessToken })).body.data).to.include({ type: 'SERVICE', quantity: 0 });
      expect((await importLedger(seller.accessToken)).map((m) => [m.product_id, m.quantity_before, m.quantity_after])).to.deep.equal([[cut.id, 2, 0]]);
    });

    it('reports invalid rows as {row, field, message} (header = row 1, blank rows counted) and applies the valid ones', async () => {
      const seller = await newOwner();
      await app.request('POST', '/products', { token: seller.accessToken, body: { name: 'Beans', sku: 'BEANS', price: 1200, quantity: 4 } });
      const body =
        csv([
          ['sku', 'name', 'price', 'quantity', 'type'],
          ['OK-1', 'Fine', '100', '1', 'PRODUCT'], // row 2
          ['BAD-PRICE', 'Too precise', '10.505', '1', ''], // row 3
          ['NEG', 'Negative', '-5', '1', ''], // row 4
        ]) +
        '\n' + // row 5: blank, skipped but counted, as a spreadsheet shows it
        csv([
          ['NO-NAME', '', '50', '', ''], // row 6
          ['BAD-TYPE', 'Typo', '50', '', 'GOODS'], // row 7
          ['ok-1', 'Again', '100', '', ''], // row 8: repeats row 2
          ['BEANS', '', '', '9', ''], // row 9: only the quantity of a known product
          ['NUM', 'Numbers', '1,500', '2.5', ''], // row 10
        ]);
      const res = await importCsv(seller.accessToken, body);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal({
        dry_run: false,
        created: 1,
        updated: 1,
        unchanged: 0,
        errors: [
          { row: 3, field: 'price', message: 'must have at most 2 decimals' },
          { row: 4, field: 'price', message: 'must not be negative' },
          { row: 6, field: 'name', message: 'is required for a new product' },
          { row: 7, field: 'type', message: 'must be one of PRODUCT, SERVICE' },
          { row: 8, field: 'sku', message: 'appears more than once in the file (first on row 2)' },
          { row: 10, field: 'price', message: 'must be an amount of naira with at most 2 decimals, e.g. 1500.50 (no currency sign or thousands separator)' },
          { row: 10, field: 'quantity', message: 'must be a whole number' },
        ],
      });
      expect(res.body.message).to.equal('Import applied: 1 created, 1 updated, 0 unchanged, 6 rows skipped');
      const now = await products(seller.accessToken);
      expect(now.map((p) => p.sku).sort()).to.deep.equal(['BEANS', 'OK-1']);
      expect(now.find((p) => p.sku === 'BEANS')).to.include({ quantity: 9, price: 1200, name: 'Beans' });
    });

    it('dry_run=true reports exactly what a real run does and writes nothing; a bad dry_run is 400', async () => {
      const seller = await newOwner();
      await app.request('POST', '/products', { token: seller.accessToken, body: { name: 'Beans', sku: 'BEANS', price: 1200, quantity: 4 } });
      const body = csv([
        ['sku', 'name', 'price', 'quantity'],
        ['beans', 'Beans', '1300', '6'],
        ['NEW', 'New thing', '10', '1'],
        ['new', 'Duplicate', '10', '1'],
        ['NEG', 'Negative', '-1', '1'],
      ]);
      const before = { products: await products(seller.accessToken), ledger: await app.request('GET', '/products/stock-adjustments', { token: seller.accessToken }) };

      const dry = await importCsv(seller.accessToken, body, { query: '?dry_run=true' });
      expect(dry.status, dry.text).to.equal(200);
      expect(dry.body.message).to.match(/^Dry run, nothing written: 1 created, 1 updated/);
      expect(dry.body.data).to.deep.equal({
        dry_run: true,
        created: 1,
        updated: 1,
        unchanged: 0,
        errors: [
          { row: 4, field: 'sku', message: 'appears more than once in the file (first on row 3)' },
          { row: 5, field: 'price', message: 'must not be negative' },
        ],
      });
      expect(await products(seller.accessToken)).to.deep.equal(before.products);
      expect((await app.request('GET', '/products/stock-adjustments', { token: seller.accessToken })).body.data).to.deep.equal(before.ledger.body.data);

      const real = await importCsv(seller.accessToken, body, { query: '?dry_run=false' });
      expect(real.body.data).to.deep.equal({ ...dry.body.data, dry_run: false });
      expect((await products(seller.accessToken)).find((p) => p.sku === 'BEANS')).to.include({ price: 1300, quantity: 6 });

      const error = expectProblem(await importCsv(seller.accessToken, body, { query: '?dry_run=yes' }), 400, 'VALIDATION_FAILED');
      expect(error.errors).to.deep.equal([{ field: 'dry_run', message: 'must be true or false' }]);
      expectProblem(await importCsv(seller.accessToken, body, { query: '?dryrun=true' }), 400, 'VALIDATION_FAILED');
    });

    it('takes a multipart/form-data upload in the field "file"; another field is 400', async () => {
      const seller = await newOwner();
      const upload = (fields: [string, string | Blob][]) => {
        const form = new FormData();
        for (const [name, value] of fields) form.append(name, value as Blob, ...(value instanceof Blob ? ['products.csv'] : []));
        return fetch(`${app.baseUrl}/api/v1/products/import`, { method: 'POST', headers: { authorization: `Bearer ${seller.accessToken}` }, body: form });
      };
      const file = new Blob([`\uFEFF${csv([['sku', 'name', 'price'], ['MP-1', 'Multipart', '12.34']])}`], { type: 'application/vnd.ms-excel' });
      const res = await upload([['file', file]]);
      const json = (await res.json()) as any;
      expect(res.status, JSON.stringify(json)).to.equal(200);
      expect(json.data).to.deep.equal({ dry_run: false, created: 1, updated: 0, unchanged: 0, errors: [] });
      expect((await products(seller.accessToken))[0]).to.include({ sku: 'MP-1', price: 12.34 });

      const wrongField = await upload([['upload', file]]);
      const wrong = (await wrongField.json()) as any;
      expect(wrongField.status).to.equal(400);
      expect(wrong.error.errors).to.deep.equal([{ field: 'upload', message: 'is not a known field' }]);
      const noFile = await upload([['note', 'hello']]);
      expect(noFile.status).to.equal(400);
      await noFile.arrayBuffer();
    });

    it('refuses a header with unknown, repeated or missing columns (400 naming them), an empty file and malformed CSV', async () => {
      const unknown = expectProblem(await importCsv(owner.accessToken, csv([['sku', 'name', 'price', 'colour', 'Stock'], ['A', 'B', '1', 'red', '2']])), 400, 'VALIDATION_FAILED');
      expect(unknown.errors.map((e: any) => e.field)).to.deep.equal(['colour', 'stock']);
      expect(unknown.detail).to.include('colour').and.include('stock');
      const repeated = expectProblem(await importCsv(owner.accessToken, csv([['sku', 'name', 'name'], ['A', 'B', 'C']])), 400, 'VALIDATION_FAILED');
      expect(repeated.errors).to.deep.equal([{ field: 'name', message: 'appears more than once in the header' }]);
      const noSku = expectProblem(await importCsv(owner.accessToken, csv([['name', 'price'], ['B', '1']])), 400, 'VALIDATION_FAILED');
      expect(noSku.errors).to.deep.equal([{ field: 'sku', message: 'is a required column' }]);
      expectProblem(await importCsv(owner.accessToken, '\r\n\r\n'), 400, 'VALIDATION_FAILED');
      const malformed = expectProblem(await importCsv(owner.accessToken, 'sku,name,price\nA,"unclosed,1\n'), 400, 'VALIDATION_FAILED');
      expect(malformed.detail).to.match(/^The CSV is malformed/);
      expect(await products(owner.accessToken)).to.deep.equal([]);
    });

    it('answers a body that is not CSV 415 and no body 400', async () => {
      const body = csv([['sku', 'name', 'price'], ['A', 'B', '1']]);
      expectProblem(await importCsv(owner.accessToken, body, { contentType: 'application/json' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expectProblem(await importCsv(owner.accessToken, body, { contentType: 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expectProblem(await app.request('POST', '/products/import', { token: owner.accessToken }), 400, 'VALIDATION_FAILED');
      expect(await products(owner.accessToken)).to.deep.equal([]);
    });

    it('takes 10,000 rows and answers 10,001 413, before touching the database', async function () {
      this.timeout(60_000);
      // Rows whose type cannot be read: checked row by row, nothing to write.
      const rows = (n: number) => csv([['sku', 'name', 'price', 'type'], ...Array.from({ length: n }, (_, i) => [`S${i}`, 'x', '1', 'WRONG'])]);
      const atLimit = await importCsv(owner.accessToken, rows(10_000));
      expect(atLimit.status, atLimit.text.slice(0, 300)).to.equal(200);
      expect(atLimit.body.data.errors).to.have.length(10_000);
      expect(atLimit.body.data.errors[9_999]).to.deep.equal({ row: 10_001, field: 'type', message: 'must be one of PRODUCT, SERVICE' });
      const over = expectProblem(await importCsv(owner.accessToken, rows(10_001)), 413, 'PAYLOAD_TOO_LARGE');
      expect(over.detail).to.include('10000 rows');
    });

    it('answers more than 5 MB 413: declared, streamed without a length, and in a multipart upload', async () => {
      const big = `sku,name,price\n${'A,B,1\n'.repeat(Math.ceil((5 * 1024 * 1024) / 6) + 10)}`;
      expect(Buffer.byteLength(big)).to.be.greaterThan(5 * 1024 * 1024);
      const declared = expectProblem(await importCsv(owner.accessToken, big), 413, 'PAYLOAD_TOO_LARGE');
      expect(declared.detail).to.include('5 MB');

      const chunked = await fetch(`${app.baseUrl}/api/v1/products/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.accessToken}`, 'content-type': 'text/csv' },
        body: new Blob([big]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).to.equal(413);
      expect(((await chunked.json()) as any).error.code).to.equal('PAYLOAD_TOO_LARGE');

      const form = new FormData();
      form.append('file', new Blob([big], { type: 'text/csv' }), 'big.csv');
      const multipart = await fetch(`${app.baseUrl}/api/v1/products/import`, { method: 'POST', headers: { authorization: `Bearer ${owner.accessToken}` }, body: form });
      expect(multipart.status).to.equal(413);
      expect(((await multipart.json()) as any).error.code).to.equal('PAYLOAD_TOO_LARGE');

      // The connection still serves the next request, and nothing was written.
      expect(await products(owner.accessToken)).to.deep.equal([]);
    });

    it('is the owner\'s: staff are answered 403 on import and export', async () => {
      const phone = aPhone();
      await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Sam', last_name: 'Staff' } });
      await app.request('POST', '/auth/login', { body: { phone } });
      const staff = (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } })).body.data.access_token as string;
      expectProblem(await app.request('GET', '/products/export', { token: staff }), 403, 'INSUFFICIENT_ROLE');
      expectProblem(await importCsv(staff, csv([['sku', 'name', 'price'], ['A', 'B', '1']])), 403, 'INSUFFICIENT_ROLE');
      expect(await products(owner.accessToken)).to.deep.equal([]);
    });
  });

  describe('the OpenAPI document', () => {
    it('documents the export as text/csv with its Content-Disposition and the import body as text/csv or multipart', () => {
      const paths = (app.openApi as any).paths;
      const exportOk = paths['/products/export'].get.responses['200'];
      expect(Object.keys(exportOk.content)).to.deep.equal(['text/csv; charset=utf-8']);
      expect(exportOk.content['text/csv; charset=utf-8'].schema).to.deep.equal({ $ref: '#/components/schemas/ProductCsv' });
      expect((app.openApi as any).components.schemas.ProductCsv).to.include({ type: 'string' });
      expect(exportOk.headers).to.have.property('Content-Disposition');
      const importOp = paths['/products/import'].post;
      expect(Object.keys(importOp.requestBody.content)).to.deep.equal(['text/csv', 'multipart/form-data']);
      expect(importOp.requestBody.content['multipart/form-data'].schema.required).to.deep.equal(['file']);
      expect(Object.keys(importOp.responses)).to.include.members(['200', '400', '403', '413', '415']);
      expect(importOp.parameters.map((p: any) => p.name)).to.deep.equal(['dry_run', 'Idempotency-Key']);
      expect(importOp.responses['200'].content['application/json'].schema.properties.data).to.deep.equal({ $ref: '#/components/schemas/ProductImportReport' });
      expect((app.openApi as any).components.schemas.ProductImportReport.required).to.deep.equal(['dry_run', 'created', 'updated', 'unchanged', 'errors']);
    });
  });
});
