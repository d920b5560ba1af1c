import { AGING_BUCKETS, type AgingBucket } from '../../domain/credit.js';
import { lagosDate } from '../../domain/lagos-time.js';
import { Naira, parseCanonicalJson, shareOf, type LoanPackMonths } from '../../domain/loan-pack.js';
import { kobo, type Kobo, type KoboSum } from '../../domain/money.js';
import { averageOf } from '../../domain/report.js';
import type { CashFlowDay } from '../report-exports/ports.js';
import type { MonthActivity, ProfitLossSums, StockValue } from '../reports/ports.js';

// The content of a loan pack, in the shape it is frozen and hashed in: snake_case keys, money as
// naira with exactly 2 decimals (Naira, integer kobo inside), shares as per cent strings with 2
// decimals, days as YYYY-MM-DD (Lagos). `LOAN_PACK_FORMAT` names this shape; a change to it is a new
// format, never an edit of this one. bizops-loan-pack/1 held money as integer kobo in `*_kobo` keys
// (ADR 0046): packs made then keep their bytes and hash, and readLoanPackDocument reads both.

export const LOAN_PACK_FORMAT = 'bizops-loan-pack/2';
const FORMAT_1 = 'bizops-loan-pack/1';

/** What the books say, gathered by the use case from the reports, report-exports and credit ports. */
export interface LoanPackFigures {
  readonly reference: string;
  readonly createdAt: Date;
  readonly months: LoanPackMonths;
  readonly period: { readonly from: string; readonly to: string };
  readonly purpose: string | null;
  readonly lenderName: string | null;
  readonly business: {
    readonly name: string;
    readonly ownerName: string;
    /** The owner's phone when verified, else null. */
    readonly verifiedPhone: string | null;
    readonly registeredSince: Date;
    readonly branches: readonly string[];
  };
  /** Per month then the whole range (month null), as ReportQueries.profitLoss answers. */
  readonly profitLoss: readonly ProfitLossSums[];
  readonly activity: readonly MonthActivity[];
  readonly cashFlow: readonly CashFlowDay[];
  readonly stock: readonly StockValue[];
  readonly credit: { readonly buckets: Record<AgingBucket, Kobo>; readonly total: Kobo; readonly customers: number };
}

/**
 * An amount as the document holds it: a Naira, written by canonicalJson with exactly 2 decimals and, for
 * a sum past 2^53 kobo (a bigint: a year of sales can pass it, docs/adr/0038), with its exact digits.
 */
const N = (k: Kobo | KoboSum) => new Naira(k);
const sum = <T>(rows: readonly T[], f: (x: T) => number) => rows.reduce((n, x) => n + f(x), 0);
/** Money adds up exactly, in bigint (docs/adr/0038). */
const total = <T>(rows: readonly T[], f: (x: T) => number | bigint): KoboSum => rows.reduce((n, x) => n + BigInt(f(x)), 0n);
const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;

/** The pack's document: every figure a lender reads, per month and over the period. */
export const loanPackDocument = (f: LoanPackFigures) => {
  const months = f.activity.map((a) => {
    const pl = f.profitLoss.find((l) => l.month === a.month)!;
    const flow = f.cashFlow.filter((d) => d.day.startsWith(a.month));
    const gross = pl.revenue - pl.costOfGoods;
    const cashIn = total(flow, (d) => d.moneyIn);
    const cashOut = total(flow, (d) => d.moneyOut);
    return {
      month: a.month,
      revenue: N(pl.revenue),
      cost_of_goods: N(pl.costOfGoods),
      gross_profit: N(gross),
      expenses: N(pl.totalExpenses),
      net_profit: N(gross - pl.totalExpenses),
      sales_count: a.salesCount,
      average_sale: N(averageOf(a.salesTotal, a.salesCount)),
      cash_in: N(cashIn),
      cash_out: N(cashOut),
      net_cash_flow: N(cashIn - cashOut),
      credit_collected: N(total(flow, (d) => d.creditCollected)),
      // shares of what the sales charged (VAT included), by tender (docs/adr/0055)
      transfer_share_pct: shareOf(Number(a.transferTotal), Number(a.tenderedTotal)),
      card_share_pct: shareOf(Number(a.cardTotal), Number(a.tenderedTotal)),
      void_rate_pct: shareOf(a.voidedCount, a.salesCount + a.voidedCount),
      days_with_sales: a.daysWithSales,
      days_covered: flow.length,
    };
  });
  const whole = f.profitLoss.find((l) => l.month === null)!;
  const salesCount = sum(f.activity, (a) => a.salesCount);
  const salesTotal = total(f.activity, (a) => a.salesTotal);
  const tenderedTotal = total(f.activity, (a) => a.tenderedTotal);
  const voided = sum(f.activity, (a) => a.voidedCount);
  const cashIn = total(months, (m) => m.cash_in.kobo);
  const cashOut = total(months, (m) => m.cash_out.kobo);
  const gross = whole.revenue - whole.costOfGoods;
  const today = f.period.to;
  return {
    format: LOAN_PACK_FORMAT,
    reference: f.reference,
    created_at: f.createdAt.toISOString(),
    currency: 'NGN',
    months: f.months,
    period_start: f.period.from,
    period_end: f.period.to,
    purpose: f.purpose,
    lender_name: f.lenderName,
    business: {
      name: f.business.name,
      owner_name: f.business.ownerName,
      verified_phone: f.business.verifiedPhone,
      registered_since: lagosDate(f.business.registeredSince),
      branches: [...f.business.branches],
    },
    monthly: months,
    totals: {
      revenue: N(whole.revenue),
      cost_of_goods: N(whole.costOfGoods),
      gross_profit: N(gross),
      expenses: N(whole.totalExpenses),
      net_profit: N(gross - whole.totalExpenses),
      sales_count: salesCount,
      average_sale: N(averageOf(salesTotal, salesCount)),
      cash_in: N(cashIn),
      cash_out: N(cashOut),
      net_cash_flow: N(cashIn - cashOut),
    },
    stock: {
      as_of: today,
      products: sum(f.stock, (s) => s.products),
      units: sum(f.stock, (s) => s.units),
      value_at_cost: N(total(f.stock, (s) => s.atCost)),
      value_at_price: N(total(f.stock, (s) => s.atPrice)),
    },
    credit: {
      as_of: today,
      outstanding: N(f.credit.total),
      customers_owing: f.credit.customers,
      aging: Object.fromEntries(AGING_BUCKETS.map((b) => [b, N(f.credit.buckets[b])])) as Record<AgingBucket, Naira>,
      collected_in_period: N(total(months, (m) => m.credit_collected.kobo)),
    },
    data_quality: {
      transfer_share_pct: shareOf(Number(total(f.activity, (a) => a.transferTotal)), Number(tenderedTotal)),
      card_share_pct: shareOf(Number(total(f.activity, (a) => a.cardTotal)), Number(tenderedTotal)),
      void_rate_pct: shareOf(voided, salesCount + voided),
      days_with_sales: sum(f.activity, (a) => a.daysWithSales),
      days_in_period: daysBetween(f.period.from, f.period.to),
    },
  };
};

export type LoanPackDocument = ReturnType<typeof loanPackDocument>;

/** The money keys of a document (bizops-loan-pack/2); `aging` holds one amount per bucket. */
const MONEY_KEYS = new Set([
  'revenue', 'cost_of_goods', 'gross_profit', 'expenses', 'net_profit', 'average_sale', 'cash_in', 'cash_out', 'net_cash_flow',
  'credit_collected', 'value_at_cost', 'value_at_price', 'outstanding', 'collected_in_period',
]);

const revive = (v: unknown, format1: boolean): unknown => {
  if (Array.isArray(v)) return v.map((x) => revive(x, format1));
  if (v === null || typeof v !== 'object' || v instanceof Naira) return v;
  // format 1: integer kobo (a bigint past 2^53, docs/adr/0038); format 2: already a Naira (parseCanonicalJson)
  const amount = (x: unknown) => (format1 ? new Naira(typeof x === 'bigint' ? x : kobo(x as number)) : Naira.of(x));
  const out: Record<string, unknown> = {};
  for (const [key, x] of Object.entries(v)) {
    const name = format1 && key.endsWith('_kobo') ? key.slice(0, -'_kobo'.length) : key;
    const isMoney = format1 ? key.endsWith('_kobo') : MONEY_KEYS.has(name) || name === 'aging';
    out[name] = !isMoney ? revive(x, format1) : name === 'aging' ? Object.fromEntries(Object.entries(x as object).map(([b, n]) => [b, amount(n)])) : amount(x);
  }
  return out;
};

/**
 * A stored document, read back with its money as Naira, exactly at any size (parseCanonicalJson: no
 * amount goes through a double, a sum past 2^53 kobo is a bigint inside): this format (naira with 2
 * decimals) or bizops-loan-pack/1 (integer kobo in `*_kobo` keys, read under the same names without `_kobo`).
 */
export const readLoanPackDocument = (text: string): LoanPackDocument => {
  const raw = parseCanonicalJson(text) as { format?: unknown };
  return revive(raw, raw.format === FORMAT_1) as LoanPackDocument;
};
