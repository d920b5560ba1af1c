import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 11: cash tendered and change on a sale, the sum of its line discounts, a voided sale owes
 * nothing (balance_due 0), and archived products (docs/adr/0015).
 */
export class Migration20261124100000_features extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table sales add column amount_tendered bigint check (amount_tendered >= 0);
      alter table sales add column change_due bigint check (change_due >= 0);
      alter table sales add column line_discount_total bigint not null default 0 check (line_discount_total >= 0);
      alter table sales add constraint sales_change_check
        check ((amount_tendered is null and change_due is null) or change_due = amount_tendered - amount_paid);
      update sales s set line_discount_total = d.total
        from (select sale_id, sum(discount) as total from sale_items group by sale_id) d
        where d.sale_id = s.id and d.total > 0;
      -- a voided sale owes nothing: its balance_due is 0 (what was unpaid stays readable as total - amount_paid)
      alter table sales drop constraint sales_check;
      update sales set balance_due = 0 where status = 'VOIDED';
      alter table sales add constraint sales_amounts_check
        check (total = subtotal - discount and (balance_due = total - amount_paid or (status = 'VOIDED' and balance_due = 0)));
      alter table products add column archived_at timestamptz;
    `);
  }
}
