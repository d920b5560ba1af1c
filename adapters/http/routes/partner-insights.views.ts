import * as t from 'io-ts';
import type { NetworkCompared, NetworkReport } from '../../../application/partners/insights.js';
import { MERCHANT_ACTIVITY, type MerchantDetail, type MerchantSummary } from '../../../application/partners/ports.js';
import type { Kobo, KoboSum } from '../../../domain/money.js';
import { PLANS } from '../../../domain/plan.js';
import { dateTime, doc, Documented, int, jsonSchemaOf, nullableStr, shape, str, uuid } from '../codecs.js';
import { nairaJson, nairaSchema, nairaSumJson, NAIRA_SUM, dateTimeJsonOrNull, dateTimeJson } from '../json-values.js';

// The JSON views of the partner's read side (docs/adr/0033): money in naira, percentages with 2 decimals.

const DAY_MS = 86_400_000;
const naira = doc('naira', nairaSchema({ minimum: 0 }));
/** A sum: may pass 90 trillion naira (2^53 kobo), written exactly (docs/adr/0038). */
const nairaSum = doc('naira', nairaSchema({ minimum: 0, description: NAIRA_SUM }));
const pct = doc('per cent or null', { type: ['number', 'null'], description: 'per cent, 2 decimals; null when the previous value is 0' });
const lagosDay = doc('Lagos day', { type: 'string', format: 'date' });
const naira_ = (k: Kobo) => nairaJson(k)!;
const sum_ = (k: KoboSum) => nairaSumJson(k);
const nullableDateTime = doc('date-time or null', { type: ['string', 'null'], format: 'date-time' });
const arrayOf = (name: string, item: t.Mixed) => doc(name, { type: 'array', items: jsonSchemaOf(item) });

/** A https URL (a logo shown in apps and on receipts): nothing else is fetched by a merchant's app. */
export const httpsOnlyUrl = new Documented<string>('https url', { type: 'string', format: 'uri', pattern: '^https://', maxLength: 2000 }, (u, c) => {
  if (typeof u !== 'string' || u.length > 2000 || u.includes('\u0000')) return t.failure(u, c, 'must be an https URL of at most 2000 characters');
  try {
    const url = new URL(u);
    return url.protocol === 'https:' && url.hostname !== '' && url.toString().length <= 2000 ? t.success(url.toString()) : t.failure(u, c, 'must be an https URL');
  } catch {
    return t.failure(u, c, 'must be an https URL');
  }
});

export const hexColor = new Documented<string>('colour', { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$', minLength: 7, maxLength: 7, examples: ['#0A7F3D'] }, (u, c) =>
  typeof u === 'string' && /^#[0-9A-Fa-f]{6}$/.test(u) ? t.success(u.toUpperCase()) : t.failure(u, c, 'must be a colour #RRGGBB'),
);

const summaryProps = {
  id: uuid,
  name: str,
  owner_name: nullableStr,
  owner_phone: nullableStr,
  plan: doc('plan', { type: 'string', enum: [...PLANS] }),
  status: doc('merchant activity', { type: 'string', enum: [...MERCHANT_ACTIVITY] }),
  joined_at: dateTime,
  last_sale_at: nullableDateTime,
  sales_count_30d: int,
  gmv_30d: nairaSum,
};
const summaryDocs = {
  id: 'the business id',
  status: 'ACTIVE: a completed sale in the last 30 days (30 x 24 h); DORMANT otherwise',
  joined_at: "when the business joined the partner's network",
  last_sale_at: 'its last completed sale, null when it has none',
  gmv_30d: 'total of its completed sales in the last 30 days, less what the returns made in them were sold for (docs/adr/0060)',
};
export const merchantShape = shape('PartnerMerchant', summaryProps, summaryDocs);
export const merchantJson = (m: MerchantSummary) => ({
  id: m.businessId,
  name: m.name,
  owner_name: m.ownerName,
  owner_phone: m.ownerPhone,
  plan: m.plan,
  status: m.salesCount30d > 0 ? 'ACTIVE' : 'DORMANT',
  joined_at: dateTimeJson(m.joinedAt),
  last_sale_at: dateTimeJsonOrNull(m.lastSaleAt),
  sales_count_30d: m.salesCount30d,
  gmv_30d: sum_(m.gmv30d),
});

const monthShape = shape('PartnerMerchantMonth', { month: doc('month', { type: 'string', pattern: '^\\d{4}-\\d{2}$' }), gmv: nairaSum, sales_count: int });
export const merchantDetailShape = shape(
  'PartnerMerchantDetail',
  { ...summaryProps, monthly: arrayOf('PartnerMerchantMonths', monthShape), credit_outstanding: naira, staff_count: int },
  { ...summaryDocs, monthly: 'the last 12 Lagos months, the current one (to date) last; completed sales', credit_outstanding: "what the merchant's customers owe it now", staff_count: 'active staff members (owners not counted)' },
);
export const merchantDetailJson = (d: MerchantDetail) => ({
  ...merchantJson(d),
  monthly: d.months.map((m) => ({ month: m.month, gmv: sum_(m.gmv), sales_count: m.salesCount })),
  credit_outstanding: naira_(d.creditOutstanding),
  staff_count: d.staffCount,
});

const comparedAmount = shape('NetworkComparedAmount', { value: nairaSum, previous: nairaSum, change_pct: pct });
const comparedCount = shape('NetworkComparedCount', { value: int, previous: int, change_pct: pct });
const comparedRate = shape('NetworkComparedRate', { value: doc('per cent', { type: 'number', minimum: 0, maximum: 100 }), previous: doc('per cent', { type: 'number', minimum: 0, maximum: 100 }), change_pct: pct });
const amountJson = (c: NetworkCompared<KoboSum>) => ({ value: sum_(c.value), previous: sum_(c.previous), change_pct: c.changePct });
const countJson = (c: NetworkCompared<number>) => ({ value: c.value, previous: c.previous, change_pct: c.changePct });

const atRiskShape = shape('MerchantAtRisk', { id: uuid, name: str, owner_phone: nullableStr, last_sale_at: dateTime, days_since_last_sale: int });
export const analyticsShape = shape(
  'PartnerAnalytics',
  {
    period: doc('network period', { type: 'string', enum: ['7d', '30d', '90d'] }),
    start_date: lagosDay,
    end_date: lagosDay,
    previous_start_date: lagosDay,
    previous_end_date: lagosDay,
    merchants_total: comparedCount,
    merchants_active: comparedCount,
    active_rate_pct: comparedRate,
    gmv: comparedAmount,
    transactions: comparedCount,
    average_ticket: comparedAmount,
    daily_gmv: arrayOf('NetworkDailyGmv', shape('NetworkDay', { date: lagosDay, gmv: nairaSum, transactions: int })),
    merchants_at_risk: shape('MerchantsAtRisk', { count: int, merchants: arrayOf('MerchantAtRiskList', atRiskShape) }),
  },
  {
    daily_gmv: 'each Lagos day of the period, empty days too (a day with more returned than sold is below zero)',
    merchants_at_risk: 'merchants whose last completed sale is 14 days old or more (the 100 most recently lapsed listed; count covers all)',
  },
);
export const analyticsJson = (r: NetworkReport, now: Date) => ({
  period: r.period,
  start_date: r.current.from,
  end_date: r.current.to,
  previous_start_date: r.previous.from,
  previous_end_date: r.previous.to,
  merchants_total: countJson(r.merchantsTotal),
  merchants_active: countJson(r.merchantsActive),
  active_rate_pct: countJson(r.activeRatePct),
  gmv: amountJson(r.gmv),
  transactions: countJson(r.transactions),
  average_ticket: amountJson(r.averageTicket),
  daily_gmv: r.daily.map((d) => ({ date: d.day, gmv: sum_(d.gmv), transactions: d.transactions })),
  merchants_at_risk: {
    count: r.atRiskCount,
    merchants: r.atRisk.map((m) => ({
      id: m.businessId,
      name: m.name,
      owner_phone: m.ownerPhone,
      last_sale_at: dateTimeJson(m.lastSaleAt),
      days_since_last_sale: Math.floor((now.getTime() - m.lastSaleAt.getTime()) / DAY_MS),
    })),
  },
});
