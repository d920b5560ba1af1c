import { expect } from 'chai';
import fc from 'fast-check';
import { formatNaira, lagosTextDate, lagosTextDateTime } from '../../../domain/message-format.js';
import { MAX_KOBO } from '../../../domain/money.js';

describe('message format: naira and Lagos dates in texts', () => {
  it('writes kobo as naira with thousands separators and two decimals', () => {
    expect(formatNaira(150050)).to.equal('₦1,500.50');
    expect(formatNaira(0)).to.equal('₦0.00');
    expect(formatNaira(5)).to.equal('₦0.05');
    expect(formatNaira(99999)).to.equal('₦999.99');
    expect(formatNaira(100000)).to.equal('₦1,000.00');
    expect(formatNaira(-150050)).to.equal('-₦1,500.50');
    expect(formatNaira(-5)).to.equal('-₦0.05');
    expect(formatNaira(MAX_KOBO)).to.equal('₦1,000,000,000,000.00');
    expect(formatNaira(Number.MAX_SAFE_INTEGER)).to.equal('₦90,071,992,547,409.91');
  });

  it('refuses what is not integer kobo', () => {
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) expect(() => formatNaira(bad)).to.throw(RangeError);
  });

  it('reads back to the same kobo for every safe integer (sign, groups of three, two decimals)', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger().filter((n) => n >= -Number.MAX_SAFE_INTEGER), (k) => {
        const text = formatNaira(k);
        expect(text).to.match(/^-?₦\d{1,3}(,\d{3})*\.\d{2}$/);
        const digits = text.replace(/[-₦,.]/g, '');
        return BigInt(digits) * (text.startsWith('-') ? -1n : 1n) === BigInt(k);
      }),
      { numRuns: 2000 },
    );
  });

  it('dates texts in Lagos time (UTC+1): late evening UTC is already the next day in Lagos', () => {
    const at = new Date('2026-11-22T23:30:00Z');
    expect(lagosTextDate(at)).to.equal('23 Nov 2026');
    expect(lagosTextDateTime(at)).to.equal('23 Nov 2026, 00:30');
    expect(lagosTextDateTime(new Date('2026-01-05T14:04:00Z'))).to.equal('5 Jan 2026, 15:04');
    expect(lagosTextDate(new Date('2026-12-31T22:59:59Z'))).to.equal('31 Dec 2026');
    expect(lagosTextDate(new Date('2026-12-31T23:00:00Z'))).to.equal('1 Jan 2027');
  });
});
