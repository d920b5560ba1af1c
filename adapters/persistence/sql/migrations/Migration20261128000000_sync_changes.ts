import { Migration } from '@mikro-orm/migrations';

/**
 * The change feed (GET /sync/changes, docs/adr/0034 addendum): each row a till keeps carries the id
 * of the transaction that last changed what the feed shows of it. A column default stamps inserts, a
 * trigger stamps updates that change a field the feed carries. No counter row: a sale takes no extra
 * lock. The indexes include business_id first, as every feed query names one business.
 */
export class Migration20261128000000_sync_changes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function stamp_change_xid() returns trigger language plpgsql as $$
      begin
        new.change_xid := pg_current_xact_id();
        return new;
      end $$;

      alter table products add column change_xid xid8 not null default pg_current_xact_id();
      create trigger products_change_xid before update on products for each row
        when ((old.name, old.sku, old.price, old.type, old.category, old.barcode, old.unit, old.low_stock_threshold, old.archived_at)
          is distinct from (new.name, new.sku, new.price, new.type, new.category, new.barcode, new.unit, new.low_stock_threshold, new.archived_at))
        execute function stamp_change_xid();
      create index products_changes on products (business_id, change_xid);

      alter table product_stock add column change_xid xid8 not null default pg_current_xact_id();
      create trigger product_stock_change_xid before update on product_stock for each row
        when (old.quantity is distinct from new.quantity) execute function stamp_change_xid();
      create index product_stock_changes on product_stock (business_id, change_xid);

      alter table customers add column change_xid xid8 not null default pg_current_xact_id();
      create trigger customers_change_xid before update on customers for each row
        when ((old.name, old.phone, old.credit_limit, old.credit_balance) is distinct from (new.name, new.phone, new.credit_limit, new.credit_balance))
        execute function stamp_change_xid();
      create index customers_changes on customers (business_id, change_xid);

      -- sales enter the feed only when voided: the index holds those alone, so a sale's insert does not grow it
      alter table sales add column change_xid xid8 not null default pg_current_xact_id();
      create trigger sales_change_xid before update on sales for each row
        when (old.status is distinct from new.status) execute function stamp_change_xid();
      create index sales_changes on sales (business_id, change_xid) where status = 'VOIDED';
    `);
  }
}
