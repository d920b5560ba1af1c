import { expect } from 'chai';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { canonicalJson, strictCanonicalJson } from '../../../domain/canonical-json.js';
import { canonicalJson as loanPackJson } from '../../../domain/loan-pack.js';

// The three writers there were before domain/canonical-json.ts, as they were: their bytes are in stored
// fingerprints (idempotency keys, client ids) and on printed loan packs, so the one writer must keep them.
const idempotencyBefore = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(idempotencyBefore).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${idempotencyBefore((v as Record<string, unknown>)[k])}`).join(',')}}`
      : JSON.stringify(v);
const clientIdBefore = (v: unknown): string =>
  v instanceof Date
    ? JSON.stringify(v.toISOString())
    : Array.isArray(v)
      ? `[${v.map(clientIdBefore).join(',')}]`
      : v && typeof v === 'object'
        ? `{${Object.keys(v).filter((k) => (v as Record<string, unknown>)[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${clientIdBefore((v as Record<string, unknown>)[k])}`).join(',')}}`
        : JSON.stringify(v ?? null);
const loanPackBefore = (v: unknown): string => {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`canonical JSON holds integers only, not ${v}`);
    return String(v);
  }
  if (Array.isArray(v)) return `[${v.map(loanPackBefore).join(',')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${loanPackBefore(o[k])}`).join(',')}}`;
  }
  throw new Error(`canonical JSON cannot hold ${typeof v}`);
};

/** Any JSON value, as a request body parses (keys of any text, astral characters included). */
const jsonValue = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'grapheme' }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'grapheme' }), tie('node'), { maxKeys: 4 }),
  ),
})).node;
/** A command as a use case gets it: JSON values, Dates, and optional fields left undefined. */
const commandValue = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 }),
  ),
})).node;
/** A loan pack document's values: strings, integers (a bigint past 2^53), booleans, null. */
const documentValue = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'grapheme' }),
    fc.integer(),
    fc.bigInt({ min: 2n ** 53n, max: 2n ** 80n }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'grapheme' }), tie('node'), { maxKeys: 4 }),
  ),
})).node;

describe('canonical JSON: one writer (domain/canonical-json.ts, docs/adr/0050)', () => {
  it('writes the bytes the idempotency fingerprint wrote for any parsed JSON body', () => {
    fc.assert(
      fc.property(jsonValue, (v) => {
        expect(canonicalJson(v)).to.equal(idempotencyBefore(v));
      }),
      { numRuns: 500 },
    );
    expect(canonicalJson({ b: [1, 2.5, 'x'], a: { d: null, c: true }, é: -0 })).to.equal('{"a":{"c":true,"d":null},"b":[1,2.5,"x"],"é":0}');
  });

  it('writes the bytes the client-id fingerprint wrote for any command (Dates as ISO strings, undefined left out)', () => {
    fc.assert(
      fc.property(commandValue, (v) => {
        expect(canonicalJson(v)).to.equal(clientIdBefore(v));
      }),
      { numRuns: 500 },
    );
    expect(canonicalJson({ id: 'x', clientCreatedAt: new Date('2026-01-02T03:04:05.000Z'), note: undefined })).to.equal('{"clientCreatedAt":"2026-01-02T03:04:05.000Z","id":"x"}');
  });

  it("strict, writes the bytes the loan pack's writer wrote, and refuses what it refused", () => {
    fc.assert(
      fc.property(documentValue, (v) => {
        expect(strictCanonicalJson(v)).to.equal(loanPackBefore(v));
      }),
      { numRuns: 500 },
    );
    expect(loanPackJson).to.equal(strictCanonicalJson);
    expect(() => strictCanonicalJson({ a: 1.5 })).to.throw('integers only');
    expect(() => strictCanonicalJson([undefined])).to.throw('cannot hold undefined');
  });

  it('is the only canonical JSON writer in the code', () => {
    // the mark of a writer: a sorted key list written as `"key":value`
    const writers = ['domain', 'application', 'adapters', 'bootstrap'].flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `${dir}/${f}`)
        .filter((f) => /\.sort\([^)]*\)[\s\S]{0,200}JSON\.stringify\(k\)\}:/.test(readFileSync(f, 'utf8'))),
    );
    expect(writers).to.deep.equal(['domain/canonical-json.ts']);
  });
});
