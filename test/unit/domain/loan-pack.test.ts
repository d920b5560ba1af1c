import { expect } from 'chai';
import fc from 'fast-check';
import { canonicalJson, Naira, loanPackPeriod, parseCanonicalJson, loanPackPrice, loanPackReference, REFERENCE_PATTERN, shareOf } from '../../../domain/loan-pack.js';
import type { Kobo } from '../../../domain/money.js';
import { checkLoanPackDownload } from '../../../domain/plan.js';

describe('loan pack rules (domain/loan-pack.ts)', () => {
  it('canonical JSON: keys sorted by code point at every depth, no whitespace, integers only, undefined left out', () => {
    expect(canonicalJson({ b: 1, a: [{ z: null, y: 'é "q"' }, true], B: -2, c: undefined })).to.equal('{"B":-2,"a":[{"y":"é \\"q\\"","z":null},true],"b":1}');
    expect(() => canonicalJson({ a: 1.5 })).to.throw('integers only');
    expect(() => canonicalJson({ a: Number.MAX_SAFE_INTEGER + 1 })).to.throw();
  });

  it('canonical JSON writes money (Naira) as naira with exactly 2 decimals; Naira.of reads it back exactly (ADR 0046)', () => {
    expect(canonicalJson({ revenue: new Naira(800_000 as Kobo), average_sale: new Naira(750_050 as Kobo), tip: new Naira(5 as Kobo), none: new Naira(0 as Kobo) }))
      .to.equal('{"average_sale":7500.50,"none":0.00,"revenue":8000.00,"tip":0.05}');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000_000 }), (k) => {
        const text = canonicalJson({ a: new Naira(k as Kobo) });
        expect(text).to.match(/^\{"a":\d+\.\d{2}\}$/);
        expect(Naira.of(JSON.parse(text).a).kobo).to.equal(k);
      }),
      { numRuns: 5_000 },
    );
    expect(() => Naira.of(1.005)).to.throw();
    expect(() => Naira.of('1.00')).to.throw();
  });

  it('canonical JSON is JSON, parses back to the same value, and does not depend on key order', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        const text = canonicalJson(v);
        expect(JSON.parse(text)).to.deep.equal(v);
        const reversed = JSON.parse(text, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).reverse()) : x));
        expect(canonicalJson(reversed)).to.equal(text);
      }),
    );
  });

  it('shares: per cent with 2 decimals, half up, integer arithmetic; 0.00 of nothing', () => {
    expect(shareOf(1000, 27000)).to.equal('3.70');
    expect(shareOf(1, 6)).to.equal('16.67');
    expect(shareOf(1, 8)).to.equal('12.50');
    expect(shareOf(5, 5)).to.equal('100.00');
    expect(shareOf(0, 0)).to.equal('0.00');
  });

  it('period: the months ending with the current Lagos month, across a year end', () => {
    expect(loanPackPeriod('2026-11-21', 6)).to.deep.equal({ from: '2026-06-01', to: '2026-11-21' });
    expect(loanPackPeriod('2026-11-21', 12)).to.deep.equal({ from: '2025-12-01', to: '2026-11-21' });
    expect(loanPackPeriod('2027-01-01', 6)).to.deep.equal({ from: '2026-08-01', to: '2027-01-01' });
  });

  it('reference: LP-, the Lagos day, and 6 of the unambiguous characters', () => {
    expect(loanPackReference(new Date('2026-11-20T23:30:00Z'), 'K7M2QX')).to.equal('LP-20261121-K7M2QX');
    expect(REFERENCE_PATTERN.test('LP-20261121-K7M2QX')).to.equal(true);
    for (const bad of ['LP-20261121-K7M2Q0', 'LP-20261121-K7M2QI', 'LP-2026112-K7M2QX', 'lp-20261121-K7M2QX']) expect(REFERENCE_PATTERN.test(bad), bad).to.equal(false);
  });

  it('price and download gate: FREE and STARTER pay per pack; BUSINESS and PRO include packs', () => {
    const price = 500_000 as Kobo;
    expect(['FREE', 'STARTER', 'BUSINESS', 'PRO'].map((p) => loanPackPrice(p as 'FREE', price))).to.deep.equal([500_000, 500_000, 0, 0]);
    expect(checkLoanPackDownload('FREE', { reference: 'LP-20261121-K7M2QX', ready: false, price })).to.deep.equal({ _tag: 'LoanPackPaymentRequired', plan: 'FREE', reference: 'LP-20261121-K7M2QX', price });
    expect(checkLoanPackDownload('STARTER', { reference: 'r', ready: true, price })).to.equal(undefined);
    expect(checkLoanPackDownload('BUSINESS', { reference: 'r', ready: false, price })).to.equal(undefined);
  });
});

describe('loan pack: canonical JSON with sums past 2^53 kobo (docs/adr/0038)', () => {
  it('writes a bigint with its exact digits, and reads every integer back exactly (bigint past 2^53, number below)', () => {
    const doc = { name: 'Shop 12345678901234567890', revenue_kobo: 9_100_000_000_000_003n, sales_count: 92, safe: 9_007_199_254_740_991, list: [-(10n ** 20n)] };
    const text = canonicalJson(doc);
    expect(text).to.equal('{"list":[-100000000000000000000],"name":"Shop 12345678901234567890","revenue_kobo":9100000000000003,"safe":9007199254740991,"sales_count":92}');
    expect(parseCanonicalJson(text)).to.deep.equal(doc);
    expect(parseCanonicalJson('{"a":"\\"12345678901234567\\"","b":1234567890123456}')).to.deep.equal({ a: '"12345678901234567"', b: 1234567890123456 });
  });

  it('format 2: a Naira past 2^53 kobo is written with its exact digits and 2 decimals, and read back exactly (a Naira holding a bigint)', () => {
    const doc = { revenue: new Naira(9_100_000_000_000_003n), stock: new Naira(10n ** 20n), average_sale: new Naira(150_050 as Kobo), loss: new Naira(-9_100_000_000_000_000n), sales_count: 92 };
    const text = canonicalJson(doc);
    expect(text).to.equal('{"average_sale":1500.50,"loss":-91000000000000.00,"revenue":91000000000000.03,"sales_count":92,"stock":1000000000000000000.00}');
    const back = parseCanonicalJson(text) as Record<string, unknown>;
    expect(back).to.deep.equal(doc);
    expect((back.revenue as Naira).kobo).to.equal(9_100_000_000_000_003n);
    expect((back.average_sale as Naira).kobo).to.equal(150_050); // a number below 2^53
    expect(canonicalJson(back)).to.equal(text); // the same bytes, so the same hash
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }), (k) => {
        const t = canonicalJson({ a: new Naira(k) });
        expect(t).to.match(/^\{"a":-?\d+\.\d{2}\}$/);
        expect(BigInt((parseCanonicalJson(t) as { a: Naira }).a.kobo)).to.equal(k);
      }),
    );
  });
});
