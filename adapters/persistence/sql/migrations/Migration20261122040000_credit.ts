import { Migration } from '@mikro-orm/migrations';

/** The customers' credit ledger, payment allocations, and what of each sale is still owed. */
export class Migration20261122040000_credit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table customers add constraint customers_balance_not_negative check (credit_balance >= 0);
      alter table sales add column credit_outstanding bigint not null default 0 check (credit_outstanding >= 0);
      alter table sales add column refund_amount bigint;
      -- open debts, oldest first (FIFO allocation, aging)
      create index sales_open_debts on sales (business_id, customer_id, created_at, id) where credit_outstanding > 0;
      create table credit_entries (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        customer_id uuid not null,
        kind text not null check (kind in ('SALE', 'PAYMENT', 'VOID')),
        amount bigint not null,
        balance_after bigint not null check (balance_after >= 0),
        sale_id uuid,
        method text,
        note text,
        created_by uuid not null,
        created_at timestamptz not null,
        foreign key (business_id, customer_id) references customers (business_id, id) deferrable initially deferred
      );
      create index credit_entries_customer on credit_entries (business_id, customer_id, created_at, id);
      create table credit_allocations (
        payment_id uuid not null references credit_entries (id) deferrable initially deferred,
        sale_id uuid not null references sales (id) deferrable initially deferred,
        amount bigint not null check (amount > 0),
        primary key (payment_id, sale_id)
      );
      create index customers_name on customers (business_id, name, id);
      create index customers_balance on customers (business_id, credit_balance, id);
      create index customers_search on customers using gin ((name || ' ' || coalesce(phone, '') || ' ' || coalesce(email, '')) gin_trgm_ops);
    `);
  }
}
