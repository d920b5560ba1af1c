import type { AgingBucket } from '../../domain/credit.js';
import { lagosDate } from '../../domain/lagos-time.js';
import { shareOf, type LoanPackMonths } from '../../domain/loan-pack.js';
import { isSafeKobo, type Kobo, type KoboSum } from '../../domain/money.js';
import { averageOf } from '../../domain/report.js';
import type { CashFlowDay } from '../report-exports/ports.js';
import type { MonthActivity, ProfitLossSums, StockValue } from '../reports/ports.js';

// The content of a loan pack, in the shape it is frozen and hashed in: snake_case keys, money as
// integer kobo (`*_kobo`), shares as per cent strings with 2 decimals, days as YYYY-MM-DD (Lagos).
// `LOAN_PACK_FORMAT` names this shape; a change to it is a new format, never an edit of this one.

export const LOAN_PACK_FORMAT = 'bizops-loan-pack/1';

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

const sum = <T>(rows: readonly T[], f: (x: T) => number) => rows.reduce((n, x) => n + f(x), 0);
/** Money adds up exactly, in bigint: a year of sales can pass 2^53 kobo (docs/adr/0038). */
const total = <T>(rows: readonly T[], f: (x: T) => number | bigint): KoboSum => rows.reduce((n, x) => n + BigInt(f(x)), 0n);
/**
 * A sum as the document holds it: a JSON integer of kobo, a number while exact as one (so packs below
 * 2^53 kobo are the same bytes as ever), else a bigint, which canonicalJson writes with its exact digits.
 */
const out = (k: KoboSum): number | bigint => (isSafeKobo(k) ? Number(k) : k);
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
      revenue_kobo: out(pl.revenue),
      cost_of_goods_kobo: out(pl.costOfGoods),
      gross_profit_kobo: out(gross),
      expenses_kobo: out(pl.totalExpenses),
      net_profit_kobo: out(gross - pl.totalExpenses),
      sales_count: a.salesCount,
      average_sale_kobo: averageOf(a.salesTotal, a.salesCount),
      cash_in_kobo: out(cashIn),
      cash_out_kobo: out(cashOut),
      net_cash_flow_kobo: out(cashIn - cashOut),
      credit_collected_kobo: out(total(flow, (d) => d.creditCollected)),
      transfer_share_pct: shareOf(Number(a.transferTotal), Number(a.salesTotal)),
      card_share_pct: shareOf(Number(a.cardTotal), Number(a.salesTotal)),
      void_rate_pct: shareOf(a.voidedCount, a.salesCount + a.voidedCount),
      days_with_sales: a.daysWithSales,
      days_covered: flow.length,
    };
  });
  const whole = f.profitLoss.find((l) => l.month === null)!;
  const salesCount = sum(f.activity, (a) => a.salesCount);
  const salesTotal = total(f.activity, (a) => a.salesTotal);
  const voided = sum(f.activity, (a) => a.voidedCount);
  const cashIn = total(months, (m) => m.cash_in_kobo);
  const cashOut = total(months, (m) => m.cash_out_kobo);
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
      revenue_kobo: out(whole.revenue),
      cost_of_goods_kobo: out(whole.costOfGoods),
      gross_profit_kobo: out(gross),
      expenses_kobo: out(whole.totalExpenses),
      net_profit_kobo: out(gross - whole.totalExpenses),
      sales_count: salesCount,
      average_sale_kobo: averageOf(salesTotal, salesCount),
      cash_in_kobo: out(cashIn),
      cash_out_kobo: out(cashOut),
      net_cash_flow_kobo: out(cashIn - cashOut),
    },
    stock: {
      as_of: today,
      products: sum(f.stock, (s) => s.products),
      units: sum(f.stock, (s) => s.units),
      value_at_cost_kobo: out(total(f.stock, (s) => s.atCost)),
      value_at_price_kobo: out(total(f.stock, (s) => s.atPrice)),
    },
    credit: {
      as_of: today,
      outstanding_kobo: f.credit.total,
      customers_owing: f.credit.customers,
      aging_kobo: { ...f.credit.buckets },
      collected_in_period_kobo: out(total(months, (m) => m.credit_collected_kobo)),
    },
    data_quality: {
      transfer_share_pct: shareOf(Number(total(f.activity, (a) => a.transferTotal)), Number(salesTotal)),
      card_share_pct: shareOf(Number(total(f.activity, (a) => a.cardTotal)), Number(salesTotal)),
      void_rate_pct: shareOf(voided, salesCount + voided),
      days_with_sales: sum(f.activity, (a) => a.daysWithSales),
      days_in_period: daysBetween(f.period.from, f.period.to),
    },
  };
};

export type LoanPackDocument = ReturnType<typeof loanPackDocument>;
