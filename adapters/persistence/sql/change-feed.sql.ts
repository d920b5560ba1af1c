import type { Sql } from './sql-session.js';
import type { Change, ChangeData, ChangeFeed, ChangeKind } from '../../../application/sync/ports.js';
import { asDate } from './keyset.sql.js';
import { MAX_IN_FLIGHT } from '../../../application/sync/changes.js';
import { kobo } from '../../../domain/money.js';
import { optionalKobo, type Row } from './sql-helpers.js';

// The change feed over SQL (docs/adr/0034 addendum): rows whose change_xid (the transaction that last
// changed them) the till's snapshot did not see, in (change_xid, kind, key) order; xmin bounds the index scan.

const num = (v: unknown): number => Number(v);
const orNum = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

const dataOf = (kind: ChangeKind, id: string, d: Row | null): ChangeData | null => {
  if (d === null) return null;
  switch (kind) {
    case 'product':
      return {
        kind, id, name: String(d.name), sku: String(d.sku), price: kobo(num(d.price)), type: String(d.type), category: (d.category as string | null) ?? null,
        barcode: (d.barcode as string | null) ?? null, unit: (d.unit as string | null) ?? null, lowStockThreshold: orNum(d.low_stock_threshold), vatExempt: d.vat_exempt === true,
      };
    case 'stock':
      return { kind, productId: id, branchId: String(d.branch_id), quantity: num(d.quantity) };
    case 'customer':
      return { kind, id, name: String(d.name), phone: (d.phone as string | null) ?? null, creditLimit: optionalKobo(d.credit_limit), creditBalance: kobo(num(d.credit_balance)) };
    case 'sale':
      return { kind, id, receiptNumber: String(d.receipt_number), status: 'VOIDED', voidedAt: asDate(d.voided_at) };
  }
};

export const sqlChangeFeed = (db: Sql): ChangeFeed => ({
  horizon: async () => {
    // a snapshot naming too many in-flight transactions keeps only its xmin: more comes again, nothing is missed
    const [row] = await db.execute<{ snapshot: string; next: string }[]>(
      `select case when (select count(*) from pg_snapshot_xip(s)) <= ? then s::text
        else pg_snapshot_xmin(s)::text || ':' || pg_snapshot_xmin(s)::text || ':' end as snapshot,
        pg_snapshot_xmax(s)::text as next from pg_current_snapshot() s`,
      [MAX_IN_FLIGHT],
    );
    return { snapshot: row!.snapshot, next: row!.next };
  },
  changes: async (businessId, q) => {
    const stockBranch = q.branchId ? 'and ps.branch_id = ?' : '';
    const after = q.after ? `where (c.version, c.kind collate "C", c.key collate "C") > (?::xid8, ? collate "C", ? collate "C")` : '';
    const xmin = q.since.split(':')[0];
    const params: unknown[] = [0, 1, 2, 3].flatMap(() => [businessId, xmin, q.since]);
    if (q.branchId) params.push(q.branchId);
    if (q.after) params.push(q.after.version, q.after.kind, q.after.key);
    params.push(q.limit);
    const rows = await db.execute<{ kind: ChangeKind; id: string; key: string; version: string; data: Row | null }[]>(
      `select c.kind, c.id, c.key, c.version::text as version, c.data from (
        select 'customer' as kind, c.id::text as id, c.id::text as key, c.change_xid as version,
          json_build_object('name', c.name, 'phone', c.phone, 'credit_limit', c.credit_limit, 'credit_balance', c.credit_balance) as data
          from customers c where c.business_id = ? and c.change_xid >= ?::xid8 and not pg_visible_in_snapshot(c.change_xid, ?::pg_snapshot)
        union all
        select 'product', p.id::text, p.id::text, p.change_xid,
          case when p.archived_at is null then json_build_object('name', p.name, 'sku', p.sku, 'price', p.price, 'type', p.type, 'category', p.category,
            'barcode', p.barcode, 'unit', p.unit, 'low_stock_threshold', p.low_stock_threshold, 'vat_exempt', p.vat_exempt) end
          from products p where p.business_id = ? and p.change_xid >= ?::xid8 and not pg_visible_in_snapshot(p.change_xid, ?::pg_snapshot)
        union all
        select 'sale', s.id::text, s.id::text, s.change_xid, json_build_object('receipt_number', s.receipt_number, 'voided_at', s.voided_at)
          from sales s where s.business_id = ? and s.change_xid >= ?::xid8 and not pg_visible_in_snapshot(s.change_xid, ?::pg_snapshot) and s.status = 'VOIDED'
        union all
        select 'stock', ps.product_id::text, ps.product_id::text || ':' || ps.branch_id::text, ps.change_xid, json_build_object('branch_id', ps.branch_id, 'quantity', ps.quantity)
          from product_stock ps where ps.business_id = ? and ps.change_xid >= ?::xid8 and not pg_visible_in_snapshot(ps.change_xid, ?::pg_snapshot) ${stockBranch}
      ) c ${after}
      order by c.version, c.kind collate "C", c.key collate "C" limit ?`,
      params,
    );
    return rows.map((r): Change => ({ kind: r.kind, id: r.id, key: r.key, version: r.version, data: dataOf(r.kind, r.id, typeof r.data === 'string' ? JSON.parse(r.data) : r.data) }));
  },
});
