import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 34: split payments and VAT (docs/adr/0054, 0055).
 * - A sale's tenders in their own table, tenant-keyed; stored sales get theirs by the rule of
 *   `tendersOf` (domain/sale.ts): what was paid by the sale's method (a CREDIT sale's deposit as CASH),
 *   then the rest as CREDIT; a sale of 0 is one tender of its method for 0.
 * - POS is a sale's payment method. change_due is the cash tender's change, no longer amount_tendered -
 *   amount_paid (a split sale pays by transfer too).
 * - VAT: the business's settings, a product's exemption, each line's rate and VAT, the sale's VAT and
 *   whether its prices held it (null: the business was not registered), an expense's input VAT; a
 *   return's line may hand back more than its share of the line total (the VAT added on top).
 * After Migration20261204100000_returns (it alters its tables).
 */
export class Migration20261205000000_vat_and_tenders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      set constraints all immediate;
      alter table businesses
        add column vat_registered boolean not null default false,
        add column tin text,
        add column vat_rate integer not null default 750 check (vat_rate between 0 and 10000),
        add column prices_include_vat boolean not null default true;
      alter table products add column vat_exempt boolean not null default false;
      alter table expenses add column vat_amount bigint not null default 0 check (vat_amount >= 0 and vat_amount <= amount);

      alter table sales drop constraint sales_payment_method_check;
      alter table sales add constraint sales_payment_method_check check (payment_method in ('CASH', 'TRANSFER', 'CARD', 'POS', 'CREDIT'));
      alter table sales drop constraint sales_change_check;
      alter table sales add constraint sales_change_check check ((amount_tendered is null) = (change_due is null));
      alter table sales
        add column vat_total bigint not null default 0 check (vat_total >= 0),
        add column prices_include_vat boolean;
      alter table sales drop constraint sales_amounts_check;
      alter table sales add constraint sales_amounts_check
        check (total = subtotal - discount + case when prices_include_vat = false then vat_total else 0 end
          and (prices_include_vat is not null or vat_total = 0)
          and (balance_due = total - amount_paid or (status = 'VOIDED' and balance_due = 0)));
      alter table sale_items
        add column vat_rate integer check (vat_rate between 0 and 10000),
        add column vat_amount bigint not null default 0 check (vat_amount >= 0),
        add column vat_net bigint check (vat_net >= 0),
        add constraint sale_items_vat_check check ((vat_rate is null) = (vat_net is null));

      create table sale_payments (
        business_id uuid not null,
        sale_id uuid not null,
        position smallint not null check (position between 0 and 3),
        method text not null check (method in ('CASH', 'TRANSFER', 'CARD', 'POS', 'CREDIT')),
        amount bigint not null check (amount >= 0),
        primary key (sale_id, position, business_id),
        foreign key (business_id, sale_id) references sales (business_id, id) deferrable initially deferred
      );
      insert into sale_payments (business_id, sale_id, position, method, amount)
        select business_id, id, 0, case when payment_method = 'CREDIT' then 'CASH' else payment_method end, amount_paid from sales where amount_paid > 0;
      insert into sale_payments (business_id, sale_id, position, method, amount)
        select business_id, id, case when amount_paid > 0 then 1 else 0 end, 'CREDIT', total - amount_paid from sales where total > amount_paid;
      insert into sale_payments (business_id, sale_id, position, method, amount)
        select business_id, id, 0, payment_method, 0 from sales where total = 0 and amount_paid = 0;

      -- a return of a sale whose prices excluded VAT hands the VAT back too: its amount may pass its share of
      -- the line total (docs/adr/0054); its VAT is part of its amount
      alter table sale_return_items drop constraint sale_return_items_check;
      alter table sale_return_items add constraint sale_return_items_vat_check check (vat_amount <= amount);
      alter table sale_returns add constraint sale_returns_vat_check check (vat_amount <= amount);
      set constraints all deferred;
    `);
  }
}
