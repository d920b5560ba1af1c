import { Migration } from '@mikro-orm/migrations';

/** Customers (as far as sales need them), sales, their lines, receipt and monthly counters. */
export class Migration20261122030000_sales extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table customers (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        name text not null,
        phone text,
        email text,
        address text,
        notes text,
        credit_limit bigint check (credit_limit >= 0),
        credit_balance bigint not null default 0,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (business_id, id)
      );
      create unique index customers_phone on customers (business_id, phone) where phone is not null;
      create index customers_created on customers (business_id, created_at, id);
      -- one row a business: the receipt counter, locked by each sale until it commits (gap-free numbers)
      create table receipt_counters (
        business_id uuid primary key references businesses (id) deferrable initially deferred,
        value integer not null
      );
      -- sales a business recorded in each Lagos month (voided ones too): the Free plan's gate
      create table monthly_sale_counts (
        business_id uuid not null,
        month text not null,
        count integer not null,
        primary key (business_id, month)
      );
      create table sales (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        branch_id uuid not null,
        receipt_number text not null,
        customer_id uuid,
        payment_method text not null check (payment_method in ('CASH', 'TRANSFER', 'CARD', 'CREDIT')),
        subtotal bigint not null check (subtotal >= 0),
        discount bigint not null check (discount >= 0),
        total bigint not null check (total >= 0),
        amount_paid bigint not null check (amount_paid >= 0),
        balance_due bigint not null check (balance_due >= 0),
        status text not null check (status in ('COMPLETED', 'VOIDED')),
        note text,
        created_by uuid not null,
        created_at timestamptz not null,
        voided_at timestamptz,
        void_reason text,
        voided_by uuid,
        unique (business_id, receipt_number),
        foreign key (business_id, branch_id) references branches (business_id, id) deferrable initially deferred,
        foreign key (business_id, customer_id) references customers (business_id, id) deferrable initially deferred,
        check (total = subtotal - discount and balance_due = total - amount_paid)
      );
      create index sales_created on sales (business_id, created_at, id);
      create index sales_total on sales (business_id, total, id);
      create index sales_customer on sales (business_id, customer_id, created_at) where customer_id is not null;
      create index sales_branch on sales (business_id, branch_id);
      create index sales_receipt_search on sales using gin (receipt_number gin_trgm_ops);
      create table sale_items (
        sale_id uuid not null references sales (id) deferrable initially deferred,
        position integer not null,
        business_id uuid not null,
        product_id uuid not null references products (id) deferrable initially deferred,
        name text not null,
        sku text not null,
        quantity integer not null check (quantity > 0),
        unit_price bigint not null check (unit_price >= 0),
        discount bigint not null check (discount >= 0),
        line_total bigint not null check (line_total >= 0),
        cost_price bigint,
        primary key (sale_id, position)
      );
      create index sale_items_product on sale_items (business_id, product_id);
      alter table stock_movements add column sale_id uuid;
      create index stock_movements_sale on stock_movements (business_id, sale_id) where sale_id is not null;
    `);
  }
}
