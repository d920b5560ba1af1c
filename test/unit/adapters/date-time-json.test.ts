import { expect } from 'chai';
import fc from 'fast-check';
import { dateTimeJson } from '../../../adapters/http/json-values.js';

describe('dateTimeJson: the JSON edge writes a time as toISOString does', () => {
  it('agrees with toISOString on every valid time (property), the four-digit years and both sides of them', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (time) => {
        const d = new Date(time);
        expect(dateTimeJson(d)).to.equal(d.toISOString());
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000 - 1000, max: 253_402_300_799_999 + 1000 }), (time) => {
        const d = new Date(time);
        expect(dateTimeJson(d)).to.equal(d.toISOString());
      }),
      { numRuns: 50_000 },
    );
  });

  it('at the edges: the epoch, leap days, year 0, 999, 1000, 9999 and 10000, before 1970, every millisecond width', () => {
    for (const s of [
      '1970-01-01T00:00:00.000Z', '2024-02-29T23:59:59.999Z', '2100-02-28T12:00:00.001Z', '2000-02-29T00:00:00.010Z', '1969-12-31T23:59:59.999Z',
      '0000-01-01T00:00:00.000Z', '0999-12-31T23:59:59.999Z', '1000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '+010000-01-01T00:00:00.000Z',
      '-000001-12-31T23:59:59.999Z', '1600-03-01T01:02:03.100Z',
    ]) {
      const d = new Date(s);
      expect(dateTimeJson(d), s).to.equal(d.toISOString());
      expect(dateTimeJson(d), s).to.equal(s);
    }
  });

  it('an invalid date throws the RangeError toISOString throws', () => {
    expect(() => dateTimeJson(new Date(Number.NaN))).to.throw(RangeError);
  });
});
