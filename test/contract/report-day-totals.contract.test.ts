import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../adapters/crypto/node-crypto.js';
import { rollUpReportDays } from '../../application/reports/roll-up-days.js';
import { recordSale } from '../../application/sales/record-sale.js';
import { voidSale } from '../../application/sales/void-sale.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import type { Actor } from '../../domain/roles.js';
import { freshDatabaseUrl } from '../support/database.js';
import { seedTenant } from '../support/builders.js';
import { buildReportsFixture, type ReportsFixture } from '../support/reports-fixture.js';
import { testClock } from '../support/test-app.js';

// The reports' day totals (docs/adr/0086) on both adapters: the SQL adapter reads days that are over from
// sales_day_totals and sales_day_products once rolled up; the in-memory one keeps nothing by day. The figures
// are the same either way, and a change to a day already rolled up (a sale voided the next day, a sale whose
// time is on that day) counts at once, before the day is rolled up again.

const S = (naira: number) => BigInt(Math.round(naira * 100));

const contract = (name: string, open: () => Promise<Persistence>, keepsDays: boolean) =>
  describe(`report day totals: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    let f: ReportsFixture;
    let actor: Actor;
    let shop: string;
    before(async () => {
      p = await open();
      const tenant = await seedTenant(p.uow);
      actor = tenant.actor;
      shop = tenant.business.id;
      f = await buildReportsFixture(p, tenant.actor, tenant.branch.id);
      await seedTenant(p.uow); // a business without sales: nothing to roll up
    });
    after(async () => p.close());

    const figures = () =>
      p.uow.read(async (r) => ({
        // the fixture's 20th and 21st of November against its October (apart: the days between are summed too, counted in neither)
        period: await r.reports.periodSums(shop, { from: '2026-11-20', to: '2026-11-21' }, { from: '2026-10-01', to: '2026-10-31' }),
        top: await r.reports.topProducts(shop, { from: '2026-10-01', to: '2026-11-21' }, undefined, 5),
        services: await r.reports.topProducts(shop, { from: '2026-10-15', to: '2026-11-20' }, 'SERVICE', 5),
        profitLoss: await r.reports.profitLoss(shop, { from: '2026-10-01', to: '2026-11-30' }),
      }));
    const rollUp = () => rollUpReportDays({ uow: p.uow })();
    const toRollUp = () => p.uow.read((r) => r.reportDayTotals.businessesToRollUp(10));

    let asSold: Awaited<ReturnType<typeof figures>>;
    it('the figures are the same from days rolled up as from their sales; a second run has nothing to do', async () => {
      asSold = await figures();
      expect(asSold.profitLoss[0]!.revenue).to.equal(S(5000)); // the fixture's October
      expect(await toRollUp()).to.deep.equal(keepsDays ? [shop] : []);
      const rolled = await rollUp();
      // from the first sale's day (2026-10-15) through at least the fixture's last (2026-11-21): 38 days
      if (keepsDays) expect(rolled).to.be.at.least(38);
      else expect(rolled).to.equal(0);
      expect(await figures()).to.deep.equal(asSold);
      expect(await toRollUp()).to.deep.equal([]);
      expect(await rollUp()).to.equal(0);
    });

    it('a sale on a day already rolled up counts at once, and so does its void; the day rolls up again', async () => {
      const clock = testClock(new Date('2026-10-15T12:00:00Z'));
      const deps = { uow: p.uow, clock, crypto: nodeCrypto(new Uint8Array(32)) };
      const made = await recordSale(deps)(actor, { items: [{ productId: f.products.rice, quantity: 1 }, { productId: f.products.delivery, quantity: 1 }], paymentMethod: 'CASH' });
      if (E.isLeft(made)) throw new Error(JSON.stringify(made.left));
      const withSale = await figures();
      expect(withSale.profitLoss[0]!.revenue).to.equal(S(11000)); // October: 5,000 + 5,000 of rice + 1,000 of delivery
      expect(withSale.period.previous.salesCount).to.equal(2);
      expect(withSale.period.previous.costOfGoods).to.equal(asSold.period.previous.costOfGoods + S(3500));
      expect(withSale.top.find((t) => t.productId === f.products.rice)!.units).to.equal(asSold.top.find((t) => t.productId === f.products.rice)!.units + 1);
      expect(withSale.services).to.deep.equal([{ productId: f.products.delivery, name: 'Delivery', units: 2, revenue: S(2000) }]);
      expect(await toRollUp()).to.deep.equal(keepsDays ? [shop] : []); // its day is stale

      clock.set(new Date('2026-11-22T09:00:00Z'));
      const voided = await voidSale(deps)(actor, made.right.sale.id, 'rung up twice');
      if (E.isLeft(voided)) throw new Error(JSON.stringify(voided.left));
      expect(await figures()).to.deep.equal(asSold);

      if (keepsDays) expect(await rollUp()).to.equal(1);
      else expect(await rollUp()).to.equal(0);
      expect(await figures()).to.deep.equal(asSold);
      expect(await toRollUp()).to.deep.equal([]);

      // voided after its day was rolled up again: the void alone marks it
      clock.set(new Date('2026-10-15T13:00:00Z'));
      const again = await recordSale(deps)(actor, { items: [{ productId: f.products.soap, quantity: 2 }], paymentMethod: 'CASH' });
      if (E.isLeft(again)) throw new Error(JSON.stringify(again.left));
      await rollUp();
      expect((await figures()).profitLoss[0]!.revenue).to.equal(S(6000));
      clock.set(new Date('2026-11-22T10:00:00Z'));
      if (E.isLeft(await voidSale(deps)(actor, again.right.sale.id, 'rung up twice'))) throw new Error('void refused');
      expect(await figures()).to.deep.equal(asSold);
    });
  });

contract('in-memory', async () => inMemory(), false);
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }), true);
