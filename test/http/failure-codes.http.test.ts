import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { codesOfFailures } from '../../adapters/http/failure-codes.js';
import { openApiPath } from '../../adapters/http/openapi.js';
import { FAILURES } from '../../bootstrap/failures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// docs/adr/0051: a route's error codes for its use case's failures are derived from its failure union
// (`failures: failuresOf<FailureOf<typeof uc.x>>({...})`, compile-checked), not kept by hand.

/** Routes that answer a use case's failures (successOf) without declaring them yet: none. */
const NOT_YET: readonly string[] = [];

describe('Error codes derived from the failures (adapters/http/failure-codes.ts)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  it("every code a route's use case failures can be answered with is in the document's x-error-codes of its operation", () => {
    const doc = t.openApi as { paths: Record<string, Record<string, { 'x-error-codes': string[] }>> };
    const missing: string[] = [];
    let checked = 0;
    for (const r of t.routes) {
      if (!r.failures) continue;
      checked++;
      const documented = doc.paths[openApiPath(r.path)]![r.method]!['x-error-codes'];
      for (const code of codesOfFailures(FAILURES, r.failures)) if (!documented.includes(code)) missing.push(`${r.operationId}: ${code}`);
    }
    expect(missing).to.deep.equal([]);
    expect(checked).to.be.greaterThan(80);
  });

  it('the failures the document learnt it was missing are listed (register, listMyBranches, setPartnerBranding, resolveSyncConflict)', () => {
    const doc = t.openApi as { paths: Record<string, Record<string, { operationId: string; 'x-error-codes': string[] }>> };
    const codes = new Map(Object.values(doc.paths).flatMap((item) => Object.values(item)).map((op) => [op.operationId, op['x-error-codes']]));
    expect(codes.get('register')).to.include('OTP_RESEND_TOO_SOON');
    expect(codes.get('listMyBranches')).to.include('RESOURCE_NOT_FOUND');
    expect(codes.get('setPartnerBranding')).to.include('RESOURCE_NOT_FOUND');
    expect(codes.get('resolveSyncConflict')).to.include.members(['CLIENT_ID_CONFLICT', 'NEGATIVE_PRICE', 'SERVICE_HAS_NO_STOCK', 'UNKNOWN_BRANCH', 'WRONG_BRANCH']);
  });

  it('every route that hands a use case failure to successOf declares its failures', () => {
    const dir = new URL('../../adapters/http/routes/', import.meta.url);
    const undeclared: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      // each route({ ... }) up to the next one
      for (const block of readFileSync(new URL(file, dir), 'utf8').split(/\broute\(\{/).slice(1)) {
        const operationId = /operationId: ([^,\n]+)/.exec(block)?.[1] ?? '?';
        if (block.includes('successOf(') && !block.includes('failures: failuresOf<')) undeclared.push(`${file} ${operationId}`);
      }
    }
    expect(undeclared.filter((u) => !NOT_YET.some((id) => u.includes(id)))).to.deep.equal([]);
  });
});
