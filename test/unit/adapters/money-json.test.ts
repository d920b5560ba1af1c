import { expect } from 'chai';
import fc from 'fast-check';
import { nairaSumJson, nairaJson, nairaText, writeJson } from '../../../adapters/http/json-values.js';
import { MAX_KOBO, markedNaira, writeMoneyJson, type Kobo } from '../../../domain/money.js';

// Issue 32 / ADR 0046: money in a body is a JSON number written with exactly 2 decimals.

describe('writeJson: money as a number with exactly 2 decimals', () => {
  it('writes 8000.00, 7500.50, 0.05, -300.00 and null, nested in objects and arrays', () => {
    const body = { total: nairaJson(800_000 as Kobo), lines: [{ price: nairaJson(750_050 as Kobo) }], tip: nairaJson(5 as Kobo), refund: nairaJson(-30_000), none: nairaJson(null) };
    expect(writeJson(body)).to.equal('{"total":8000.00,"lines":[{"price":7500.50}],"tip":0.05,"refund":-300.00,"none":null}');
  });

  it('every amount of kobo up to the maximum: the text has 2 decimals and parses to kobo / 100 (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_KOBO, max: MAX_KOBO }), (k) => {
        const text = writeJson({ amount: nairaJson(k as Kobo) });
        expect(text).to.match(/^\{"amount":-?\d+\.\d{2}\}$/);
        expect(JSON.parse(text).amount).to.equal(k / 100);
        expect(nairaText(k)).to.equal(text.slice('{"amount":'.length, -1));
      }),
      { numRuns: 20_000 },
    );
  });

  it('a bigint sum past 2^53 kobo is written exactly', () => {
    expect(writeJson({ total: nairaSumJson(9_007_199_254_740_993n) })).to.equal('{"total":90071992547409.93}');
  });

  it('leaves strings alone, even ones that look like money, and survives a stored round trip (idempotent replays)', () => {
    expect(writeJson({ note: '8000.00', name: 'N:1.00' })).to.equal('{"note":"8000.00","name":"N:1.00"}');
    const stored = JSON.parse(JSON.stringify({ data: { total: nairaJson(155_000 as Kobo) } }));
    expect(writeJson(structuredClone(stored))).to.equal('{"data":{"total":1550.00}}');
  });

  it('writeMoneyJson (webhook bodies) writes marked money the same way, keeping key order', () => {
    expect(writeMoneyJson({ id: 'msg_1', data: { amount: markedNaira(4_000 as Kobo), total: markedNaira(155_050 as Kobo), note: 'N0' } }))
      .to.equal('{"id":"msg_1","data":{"amount":40.00,"total":1550.50,"note":"N0"}}');
    expect(writeMoneyJson({ a: 1 })).to.equal('{"a":1}');
  });
});
