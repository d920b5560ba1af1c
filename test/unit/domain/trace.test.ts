import { expect } from 'chai';
import { parseTraceparent, traceIdOf, traceparentOf } from '../../../domain/trace.js';

describe('W3C traceparent (domain/trace.ts)', () => {
  const trace = '4bf92f3577b34da6a3ce929d0e0e4736';

  it('parses a valid header, and a later version with more fields', () => {
    expect(parseTraceparent(`00-${trace}-00f067aa0ba902b7-01`)).to.deep.equal({ traceId: trace, parentId: '00f067aa0ba902b7', flags: '01' });
    expect(parseTraceparent(`01-${trace}-00f067aa0ba902b7-00-whatever`)).to.deep.equal({ traceId: trace, parentId: '00f067aa0ba902b7', flags: '00' });
  });

  it('ignores what the specification says to ignore', () => {
    for (const bad of [
      undefined,
      '',
      `00-${trace.toUpperCase()}-00f067aa0ba902b7-01`,
      `ff-${trace}-00f067aa0ba902b7-01`,
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
      `00-${trace}-${'0'.repeat(16)}-01`,
      `00-${trace}-00f067aa0ba902b7-01-more`,
      `00-${trace.slice(1)}-00f067aa0ba902b7-01`,
      `00-${trace}-00f067aa0ba902b7`,
      `0-${trace}-00f067aa0ba902b7-01`,
      `00-${trace}-00f067aa0ba902b7-01`.padEnd(600, 'x'),
    ]) expect(parseTraceparent(bad), String(bad)).to.equal(undefined);
  });

  it('writes our span in the caller’s trace, keeping its flags; reads the trace id back', () => {
    const ours = traceparentOf({ traceId: trace, flags: '01' }, 'aaaaaaaaaaaaaaaa');
    expect(ours).to.equal(`00-${trace}-aaaaaaaaaaaaaaaa-01`);
    expect(traceIdOf(ours)).to.equal(trace);
    expect(traceIdOf(null)).to.equal(undefined);
  });
});
