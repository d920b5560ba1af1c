import { expect } from 'chai';
import fc from 'fast-check';
import { formatNaira, isSafeKobo, kobo, koboToNaira, MAX_KOBO, nairaText, nairaToKobo, sumKobo } from '../../../domain/money.js';

describe('money: naira <-> kobo', () => {
  it('survives naira -> kobo -> naira for every 2-decimal amount up to the maximum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_KOBO }), (k) => {
        const naira = koboToNaira(k as never);
        const back = nairaToKobo(naira);
        return back.ok && back.value === k;
      }),
      { numRuns: 5000 },
    );
  });

  it('gives the very number its 2-decimal text would (the JSON a client reads), for every kobo amount, negative ones too', () => {
    const asText = (k: number) => Number(`${k < 0 ? '-' : ''}${Math.floor(Math.abs(k) / 100)}.${String(Math.abs(k) % 100).padStart(2, '0')}`);
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -MAX_KOBO, max: MAX_KOBO }), fc.integer({ min: -10_000, max: 10_000 })), (k) => Object.is(koboToNaira(k as never), asText(k))),
      { numRuns: 20_000 },
    );
    for (const k of [0, 1, 5, 10, 99, 100, 101, 12345, 3333, 999_999_999_99, MAX_KOBO, -1, -5, -12345, -MAX_KOBO]) expect(koboToNaira(k as never), String(k)).to.equal(asText(k));
    expect(JSON.stringify(koboToNaira(12345 as never))).to.equal('123.45');
    expect(JSON.stringify(koboToNaira(10 as never))).to.equal('0.1');
  });

  it('reads amounts written with 0, 1 or 2 decimals exactly', () => {
    expect(nairaToKobo(1500)).to.deep.equal({ ok: true, value: 150000 });
    expect(nairaToKobo(1500.5)).to.deep.equal({ ok: true, value: 150050 });
    expect(nairaToKobo(1500.75)).to.deep.equal({ ok: true, value: 150075 });
    expect(nairaToKobo(0.1)).to.deep.equal({ ok: true, value: 10 });
    expect(nairaToKobo(33.33)).to.deep.equal({ ok: true, value: 3333 });
    expect(nairaToKobo(-12.5)).to.deep.equal({ ok: true, value: -1250 });
    expect(nairaToKobo(1_000_000_000_000)).to.deep.equal({ ok: true, value: MAX_KOBO });
  });

  it('refuses more than 2 decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 9 }), (cents, extra) => {
        const naira = Number(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${extra}`);
        const r = nairaToKobo(naira);
        return !r.ok && r.reason === 'TOO_MANY_DECIMALS';
      }),
    );
    expect(nairaToKobo(0.000001)).to.deep.equal({ ok: false, reason: 'TOO_MANY_DECIMALS' });
  });

  it('refuses amounts above 1,000,000,000,000.00 and non-numbers', () => {
    expect(nairaToKobo(1_000_000_000_000.01)).to.deep.equal({ ok: false, reason: 'TOO_LARGE' });
    expect(nairaToKobo(1e21)).to.deep.equal({ ok: false, reason: 'TOO_LARGE' });
    expect(nairaToKobo(Number.NaN)).to.deep.equal({ ok: false, reason: 'NOT_A_NUMBER' });
    expect(nairaToKobo(Number.POSITIVE_INFINITY)).to.deep.equal({ ok: false, reason: 'NOT_A_NUMBER' });
  });
});

describe('money: sums of kobo past 2^53 (KoboSum, docs/adr/0038)', () => {
  const big = 9_100_000_000_000_003n; // past Number.MAX_SAFE_INTEGER (9,007,199,254,740,991)

  it('nairaText writes kobo as naira with exactly 2 decimals, exact at any size', () => {
    expect(nairaText(big)).to.equal('91000000000000.03');
    expect(nairaText(-big)).to.equal('-91000000000000.03');
    expect(nairaText(10n ** 20n + 27n)).to.equal('1000000000000000000.27');
    expect(nairaText(0n)).to.equal('0.00');
    expect(nairaText(kobo(150050))).to.equal('1500.50');
    expect(nairaText(-5)).to.equal('-0.05');
    expect(() => nairaText(1.5)).to.throw(RangeError);
  });

  it('formatNaira takes a bigint sum: separators and 2 decimals, the same text as for a number', () => {
    expect(formatNaira(big)).to.equal('₦91,000,000,000,000.03');
    expect(formatNaira(-big)).to.equal('-₦91,000,000,000,000.03');
    expect(formatNaira(10n ** 20n + 27n)).to.equal('₦1,000,000,000,000,000,000.27');
    fc.assert(fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (k) => formatNaira(BigInt(k)) === formatNaira(k)));
    expect(() => formatNaira(Number(big))).to.throw(RangeError); // a number past 2^53 is still refused
  });

  it('sumKobo adds exactly; isSafeKobo says when a sum is still exact as a number', () => {
    expect(sumKobo(Array.from({ length: 91 }, () => MAX_KOBO).concat([3]))).to.equal(big);
    expect(sumKobo([1n, 2, -3])).to.equal(0n);
    expect(isSafeKobo(BigInt(Number.MAX_SAFE_INTEGER))).to.equal(true);
    expect(isSafeKobo(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).to.equal(false);
    expect(isSafeKobo(-BigInt(Number.MAX_SAFE_INTEGER) - 1n)).to.equal(false);
  });
});
