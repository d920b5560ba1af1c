import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 34: returns of sales (docs/adr/0058). A return has its own gap-free number per business
 * (return_counters, as receipt_counters), its lines name the sale line they return (its position), and
 * carry what the goods were sold for (amount), the same share of the line total (line_amount), their VAT
 * (0 until sales carry VAT) and the cost that leaves the cost of goods. The credit ledger gains RETURN
 * entries, and a customer's balance may go below zero by a credit note (docs/adr/0059); offline tills
 * make returns under client ids.
 */
export class Migration20261204100000_returns extends Migration {
  override async up(): Promise<void> {
    // Earlier migrations of the same run may leave deferred foreign-key checks pending on tables altered below.
    this.addSql(`
      set constraints all immediate;
      create table return_counters (
        business_id uuid primary key references businesses (id) deferrable initially deferred,
        value integer not null
      );
      create table sale_returns (
        id uuid not null,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        sale_id uuid not null,
        branch_id uuid not null,
        return_number text not null,
        customer_id uuid,
        restock boolean not null,
        refund_method text not null check (refund_method in ('CASH', 'TRANSFER', 'CARD', 'POS', 'CREDIT_NOTE')),
        reason text not null,
        amount bigint not null check (amount >= 0),
        vat_amount bigint not null default 0 check (vat_amount >= 0),
        debt_reduced bigint not null check (debt_reduced >= 0),
        refund_amount bigint not null check (refund_amount >= 0),
        cost_returned bigint not null check (cost_returned >= 0),
        created_by uuid not null,
        created_at timestamptz not null,
        device_id text,
        client_created_at timestamptz,
        primary key (id, business_id),
        unique (business_id, return_number),
        foreign key (business_id, sale_id) references sales (business_id, id) deferrable initially deferred,
        foreign key (business_id, branch_id) references branches (business_id, id) deferrable initially deferred,
        check (amount = debt_reduced + refund_amount)
      );
      create index sale_returns_sale on sale_returns (business_id, sale_id, created_at);
      create index sale_returns_created on sale_returns (business_id, created_at, id);
      create index sale_returns_amount on sale_returns (business_id, amount, id);
      create table sale_return_items (
        return_id uuid not null,
        position integer not null,
        business_id uuid not null,
        sale_id uuid not null,
        sale_position integer not null,
        product_id uuid not null,
        name text not null,
        sku text not null,
        quantity integer not null check (quantity > 0),
        amount bigint not null check (amount >= 0),
        line_amount bigint not null check (line_amount >= amount),
        vat_amount bigint not null default 0 check (vat_amount >= 0),
        unit_cost bigint,
        cost_returned bigint not null check (cost_returned >= 0),
        primary key (return_id, position, business_id),
        foreign key (business_id, return_id) references sale_returns (business_id, id) deferrable initially deferred,
        foreign key (business_id, sale_id, sale_position) references sale_items (business_id, sale_id, position) deferrable initially deferred
      );
      create index sale_return_items_sale on sale_return_items (business_id, sale_id);
      create index sale_return_items_product on sale_return_items (business_id, product_id);

      alter table credit_entries drop constraint credit_entries_kind_check;
      alter table credit_entries add constraint credit_entries_kind_check check (kind in ('SALE', 'PAYMENT', 'VOID', 'RETURN'));
      -- a credit note not used yet is a balance below zero (docs/adr/0059)
      alter table credit_entries drop constraint credit_entries_balance_after_check;
      alter table customers drop constraint customers_balance_not_negative;
      alter table client_records drop constraint client_records_kind_check;
      alter table client_records add constraint client_records_kind_check
        check (kind in ('SALE', 'CUSTOMER', 'CREDIT_PAYMENT', 'EXPENSE', 'STOCK_ADJUSTMENT', 'RETURN'));
      set constraints all deferred;
    `);
  }
}
