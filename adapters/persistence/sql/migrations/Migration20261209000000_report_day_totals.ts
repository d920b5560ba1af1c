import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 37, docs/adr/0086: each business's completed sales summed by Lagos day, and their lines by day and
 * product, for days that are over, so the dashboard and profit and loss read a row a day instead of every
 * sale of the period. The reports periodic task fills them (`rollUpReportDays`); a report sums the sales
 * itself for any day without a current row (today, a day not rolled up yet, a stale one).
 *
 * A write that changes what a rolled-up day sums (a sale voided the next day, a sale whose time is on a
 * day already over) marks that day stale, in its own transaction, by trigger: no write path can forget.
 * The trigger's WHEN is false for a sale of today (the hot path runs no function). The filler holds an
 * exclusive advisory lock on the business while it sums; the trigger takes it shared, so a write either
 * committed before the sums were read or marks the new rows stale after. Sales are never deleted.
 */
export class Migration20261209000000_report_day_totals extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table sales_day_totals (
        business_id uuid not null references businesses (id) deferrable initially deferred,
        day date not null,
        sales integer not null,
        revenue bigint not null,
        discounts bigint not null,
        credit bigint not null,
        cost_of_goods bigint not null,
        stale boolean not null default false,
        primary key (business_id, day)
      );
      create index sales_day_totals_stale on sales_day_totals (business_id, day) where stale;

      create table sales_day_products (
        business_id uuid not null,
        day date not null,
        product_id uuid not null,
        units bigint not null,
        revenue bigint not null,
        primary key (business_id, day, product_id)
      );

      -- 92364: the advisory lock class of the day totals (the other half of the key is the business).
      -- A sale's created_at never changes, so its day is the new row's.
      create function mark_sales_day_stale() returns trigger language plpgsql as $$
      begin
        perform pg_advisory_xact_lock_shared(92364, hashtext(new.business_id::text));
        update sales_day_totals set stale = true
          where business_id = new.business_id and day = ((new.created_at at time zone 'UTC') + interval '1 hour')::date and not stale;
        return null;
      end $$;

      -- "a day already over": before the start of today in Lagos (UTC+1 all year) by the database's clock
      create trigger sales_day_stale_insert after insert on sales for each row
        when (new.created_at < ((((now() at time zone 'UTC') + interval '1 hour')::date)::timestamp - interval '1 hour') at time zone 'UTC')
        execute function mark_sales_day_stale();
      create trigger sales_day_stale_update after update on sales for each row
        when (new.created_at < ((((now() at time zone 'UTC') + interval '1 hour')::date)::timestamp - interval '1 hour') at time zone 'UTC'
          and (old.status, old.total, old.vat_total, old.discount, old.line_discount_total, old.amount_paid, old.cost_of_goods, old.created_at, old.prices_include_vat)
            is distinct from (new.status, new.total, new.vat_total, new.discount, new.line_discount_total, new.amount_paid, new.cost_of_goods, new.created_at, new.prices_include_vat))
        execute function mark_sales_day_stale();
    `);
  }
}
