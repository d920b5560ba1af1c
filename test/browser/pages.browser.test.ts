import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { inMemory } from '../../bootstrap/persistence.js';
import { browserMissing, launchBrowser } from '../support/browser.js';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// The pages a person reads, in headless Chromium as the person sees them: the sandbox checkout a
// payer clicks through, and Swagger UI's "Try it out" a client developer starts with. The API under
// them is the real Koa app; the database does not matter to a page, so these run in memory.

const missing = browserMissing();

describe('pages in headless Chromium', function () {
  this.timeout(90_000);
  if (missing) {
    // Reported as pending with the reason, never dropped from the counts.
    it(`the sandbox checkout and Swagger UI (pending: ${missing})`);
    return;
  }
  let app: TestApp;
  let browser: Browser;
  let token: string;
  before(async () => {
    app = await createTestApp({ persistence: await inMemory() });
    browser = await launchBrowser();
    token = (await registerOwner(app, { email: `pages-${Date.now()}@example.com` })).accessToken;
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  /** A FREE business's pack waiting for payment, and its checkout page on this test server. */
  const packAtCheckout = async () => {
    const made = await app.request('POST', '/reports/loan-pack', { token, body: { purpose: 'Restock', lender_name: 'LAPO Microfinance Bank' } });
    expect(made.status, made.text).to.equal(201);
    const reference = made.body.data.reference as string;
    const checkout = await app.request('POST', `/reports/loan-pack/${reference}/checkout`, { token, body: { callback_url: 'https://app.example.com/paid' } });
    expect(checkout.status, checkout.text).to.equal(200);
    // PUBLIC_BASE_URL is the default localhost:8080; the page is the same on this test server's port.
    const page = `${app.baseUrl}${new URL(checkout.body.data.authorization_url as string).pathname}`;
    return { reference, page };
  };
  const statusOf = async (reference: string) =>
    (await app.request('POST', '/reports/loan-pack/payment/verify', { token, body: { reference } })).body.data.status as string;

  it('the sandbox checkout: the payer sees a sandbox and the price, clicks Pay, is sent back to the app, and the pack is READY', async () => {
    const { reference, page: url } = await packAtCheckout();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The app the payer returns to is not on this machine: answer for it.
    await page.route('https://app.example.com/**', (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<title>back in the app</title>' }));
    await page.goto(url);
    const text = await page.locator('body').innerText();
    expect(text).to.include('SANDBOX').and.include(reference).and.include('₦5,000.00');
    await Promise.all([page.waitForURL(/\/pay$/), page.getByRole('button', { name: /^Pay ₦5,000\.00$/ }).click()]);
    expect(await page.locator('body').innerText()).to.include('Payment complete (sandbox).');
    await page.waitForURL(`https://app.example.com/paid?trxref=${reference}&reference=${reference}`, { timeout: 10_000 });
    expect(await page.title()).to.equal('back in the app');
    expect(errors).to.deep.equal([]);
    expect(await statusOf(reference)).to.equal('READY');
    await page.close();
  });

  it('the sandbox checkout: Cancel leaves the pack waiting for payment', async () => {
    const { reference, page: url } = await packAtCheckout();
    const page = await browser.newPage();
    await page.route('https://app.example.com/**', (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<title>back in the app</title>' }));
    await page.goto(url);
    await Promise.all([page.waitForURL(/\/cancel$/), page.getByRole('button', { name: 'Cancel' }).click()]);
    expect(await page.locator('body').innerText()).to.include('Payment cancelled (sandbox).');
    expect(await statusOf(reference)).to.equal('PENDING_PAYMENT');
    await page.close();
  });

  it("Swagger UI: the document renders, and Try it out on GET /actuator/health answers 200 from this server", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${app.baseUrl}/api/v1/swagger-ui/`);
    const health = page.locator('.opblock-get', { has: page.locator('[data-path="/actuator/health"]') }).first();
    await health.waitFor({ timeout: 30_000 });
    // Every operation of the document is in Swagger UI's model. Past 150 tags and operations together it
    // renders only those in view (its list virtualization), so the DOM holds a window of them, not all.
    const operations = Object.values((app.openApi as { paths: Record<string, Record<string, unknown>> }).paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(await page.evaluate(() => (window as unknown as { ui: { specSelectors: { operations(): { size: number } } } }).ui.specSelectors.operations().size)).to.equal(operations);
    expect(operations).to.be.greaterThan(100);
    await health.locator('.opblock-summary').click();
    await health.getByRole('button', { name: 'Try it out' }).click();
    await health.getByRole('button', { name: 'Execute' }).click();
    const code = health.locator('.live-responses-table .response .response-col_status').first();
    await code.waitFor({ timeout: 15_000 });
    expect((await code.innerText()).trim()).to.equal('200');
    // An operation with a request body: the document's own example registers a business.
    const register = page.locator('.opblock-post', { has: page.locator('[data-path="/auth/register"]') }).first();
    await register.locator('.opblock-summary').click();
    await register.getByRole('button', { name: 'Try it out' }).click();
    await register.getByRole('button', { name: 'Execute' }).click();
    const created = register.locator('.live-responses-table .response .response-col_status').first();
    await created.waitFor({ timeout: 15_000 });
    expect((await created.innerText()).trim()).to.equal('201');
    expect(errors).to.deep.equal([]);
    await page.close();
  });
});
