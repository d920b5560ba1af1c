import { expect } from 'chai';
import fc from 'fast-check';
import { nairaJson, nairaSumJson, writeJson } from '../../../adapters/http/json-values.js';
import { kobo, markedNaira, Naira, writeMoneyJson } from '../../../domain/money.js';

// Sums past 2^53 kobo in a JSON answer (issue 31, docs/adr/0038): their exact digits, as a JSON number
// with exactly 2 decimals, written by the one writer of bodies (writeJson, ADR 0046).

describe('nairaSumJson and writeJson: sums of kobo written exactly in JSON', () => {
  const big = 9_100_000_000_000_003n;

  it('writes a sum past 2^53 kobo as its exact digits: a JSON number, which JSON.parse reads as the nearest double', () => {
    const text = writeJson({ data: { revenue: { value: nairaSumJson(big), previous: nairaSumJson(-big) }, name: 'Ada' } });
    expect(text).to.equal('{"data":{"revenue":{"value":91000000000000.03,"previous":-91000000000000.03},"name":"Ada"}}');
    expect(JSON.parse(text).data.revenue.value).to.equal(91000000000000.03);
    expect(writeJson({ a: nairaSumJson(9_100_000_000_000_000n), b: nairaSumJson(10n ** 20n + 7n) })).to.equal('{"a":91000000000000.00,"b":1000000000000000000.07}');
  });

  it('below 2^53 kobo a sum is the same money value, and the same JSON, as nairaJson writes for one amount (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (k) => {
        expect(nairaSumJson(BigInt(k))).to.equal(nairaJson(kobo(k)));
        const text = writeJson({ a: nairaSumJson(BigInt(k)) });
        expect(text).to.equal(writeJson({ a: nairaJson(kobo(k)) }));
        expect(text).to.match(/^\{"a":-?\d+\.\d{2}\}$/);
      }),
    );
  });

  it('leaves strings alone, even ones that look like its mark', () => {
    const sneaky = '\\u0000N:12.34';
    const text = writeJson({ a: nairaSumJson(big), s: sneaky, t: `"${sneaky}"` });
    expect(JSON.parse(text)).to.deep.equal({ a: 91000000000000.03, s: sneaky, t: `"${sneaky}"` });
    expect(writeJson({ s: sneaky })).to.equal(JSON.stringify({ s: sneaky }));
  });

  it('a sum past 2^53 kobo survives a stored round trip (idempotent replays) with the same bytes', () => {
    const stored = structuredClone(JSON.parse(JSON.stringify({ data: { total: nairaSumJson(big) } })));
    expect(writeJson(stored)).to.equal('{"data":{"total":91000000000000.03}}');
  });

  it('Naira (documents) and writeMoneyJson (webhooks) write a sum past 2^53 kobo exactly too', () => {
    expect(new Naira(big).text).to.equal('91000000000000.03');
    expect(writeMoneyJson({ total: markedNaira(big), small: markedNaira(3n), neg: markedNaira(-big) })).to.equal('{"total":91000000000000.03,"small":0.03,"neg":-91000000000000.03}');
    expect(new Naira(3n).kobo).to.equal(3); // a sum exact as a number is held as one
    expect(Naira.parse('91000000000000.03').kobo).to.equal(big);
  });
});
