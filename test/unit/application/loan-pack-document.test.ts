import { expect } from 'chai';
import { LOAN_PACK_FORMAT, readLoanPackDocument } from '../../../application/loan-packs/document.js';
import { canonicalJson, Naira } from '../../../domain/loan-pack.js';
import type { Kobo } from '../../../domain/money.js';

// ADR 0046: the loan pack document holds naira with 2 decimals (bizops-loan-pack/2); packs made in
// bizops-loan-pack/1 (integer kobo in *_kobo keys) keep their bytes and are read under the same names.

const k = (n: number) => new Naira(n as Kobo);

describe('readLoanPackDocument: both formats read as Naira', () => {
  it('format 2: the written naira read back as the same kobo', () => {
    expect(LOAN_PACK_FORMAT).to.equal('bizops-loan-pack/2');
    const text = canonicalJson({
      format: LOAN_PACK_FORMAT,
      monthly: [{ month: '2026-11', revenue: k(2_700_050), sales_count: 4, transfer_share_pct: '3.70' }],
      totals: { revenue: k(3_200_000), sales_count: 5 },
      credit: { outstanding: k(50_000), customers_owing: 1, aging: { days_0_30: k(50_000), days_31_60: k(0) } },
      stock: { products: 3, units: 12, value_at_cost: k(19_400) },
    });
    expect(text).to.contain('"revenue":27000.50');
    const d = readLoanPackDocument(text);
    expect(d.monthly[0]).to.deep.equal({ month: '2026-11', revenue: k(2_700_050), sales_count: 4, transfer_share_pct: '3.70' });
    expect(d.totals).to.deep.equal({ revenue: k(3_200_000), sales_count: 5 });
    expect(d.credit).to.deep.include({ outstanding: k(50_000), customers_owing: 1, aging: { days_0_30: k(50_000), days_31_60: k(0) } });
    expect(d.stock).to.deep.equal({ products: 3, units: 12, value_at_cost: k(19_400) });
  });

  it('format 1: *_kobo keys read as the same names without _kobo, their integers as kobo', () => {
    const text = canonicalJson({
      format: 'bizops-loan-pack/1',
      monthly: [{ month: '2026-11', revenue_kobo: 2_700_050, sales_count: 4 }],
      totals: { revenue_kobo: 3_200_000, sales_count: 5 },
      credit: { outstanding_kobo: 50_000, customers_owing: 1, aging_kobo: { days_0_30: 50_000, days_31_60: 0 } },
    });
    const d = readLoanPackDocument(text);
    expect(d.monthly[0]).to.deep.equal({ month: '2026-11', revenue: k(2_700_050), sales_count: 4 });
    expect(d.totals).to.deep.equal({ revenue: k(3_200_000), sales_count: 5 });
    expect(d.credit).to.deep.include({ outstanding: k(50_000), customers_owing: 1, aging: { days_0_30: k(50_000), days_31_60: k(0) } });
  });

  it('sums past 2^53 kobo (docs/adr/0038) are read exactly, as a bigint, in both formats', () => {
    const big = 9_100_000_000_000_003n;
    const two = canonicalJson({ format: LOAN_PACK_FORMAT, totals: { revenue: new Naira(big), sales_count: 92 } });
    expect(two).to.contain('"revenue":91000000000000.03');
    expect(readLoanPackDocument(two).totals.revenue.kobo).to.equal(big);
    // a format-1 pack made on main past 2^53 held the bigint's digits: it reads back to the same kobo
    const one = canonicalJson({ format: 'bizops-loan-pack/1', totals: { revenue_kobo: big, sales_count: 92 } });
    expect(one).to.contain('"revenue_kobo":9100000000000003');
    expect(readLoanPackDocument(one).totals).to.deep.equal({ revenue: new Naira(big), sales_count: 92 });
  });
});
