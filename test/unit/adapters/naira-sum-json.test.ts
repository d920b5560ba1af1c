import { expect } from 'chai';
import fc from 'fast-check';
import { jsonText, nairaJson, nairaSumJson } from '../../../adapters/http/json-values.js';
import { kobo } from '../../../domain/money.js';

// Sums past 2^53 kobo in a JSON answer (issue 31, docs/adr/0038): their exact digits, as a JSON number.

describe('nairaSumJson and jsonText: sums of kobo written exactly in JSON', () => {
  const big = 9_100_000_000_000_003n;

  it('writes a sum past 2^53 kobo as its exact digits: a JSON number, which JSON.parse reads as the nearest double', () => {
    const text = jsonText({ data: { revenue: { value: nairaSumJson(big), previous: nairaSumJson(-big) }, name: 'Ada' } });
    expect(text).to.equal('{"data":{"revenue":{"value":91000000000000.03,"previous":-91000000000000.03},"name":"Ada"}}');
    expect(JSON.parse(text).data.revenue.value).to.equal(91000000000000.03);
  });

  it('below 2^53 kobo a sum is the same JSON as nairaJson writes for one amount (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (k) => {
        expect(jsonText({ a: nairaSumJson(BigInt(k)) })).to.equal(JSON.stringify({ a: nairaJson(kobo(k)) }));
      }),
    );
  });

  it('leaves strings alone, even ones that look like its mark', () => {
    const sneaky = '\\u000012.34\\u0000';
    const text = jsonText({ a: nairaSumJson(big), s: sneaky, t: `"${sneaky}"` });
    expect(JSON.parse(text)).to.deep.equal({ a: 91000000000000.03, s: sneaky, t: `"${sneaky}"` });
    expect(jsonText({ s: sneaky })).to.equal(JSON.stringify({ s: sneaky }));
  });
});
