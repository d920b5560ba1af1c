import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 35: customer invoices (docs/adr/0072). The business gains its invoice settings; an invoice has its
 * lines and payments, a gap-free number per business and series (invoice_counters, as receipt_counters)
 * once sent, and an unguessable share token. Stock taken by an invoice is an INVOICE ledger row.
 */
export class Migration20261206000000_invoices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      set constraints all immediate;
      alter table businesses
        add column payment_terms_days integer not null default 30 check (payment_terms_days between 0 and 365),
        add column bank_name text,
        add column account_number text check (account_number ~ '^[0-9]{10}$'),
        add column account_name text,
        add column invoice_footer text;
      create table invoice_counters (
        business_id uuid not null references businesses (id) deferrable initially deferred,
        series text not null check (series in ('INV', 'PRF')),
        value integer not null,
        primary key (business_id, series)
      );
      create table invoices (
        id uuid not null,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        type text not null check (type in ('INVOICE', 'PROFORMA', 'TAX_INVOICE')),
        number text,
        status text not null check (status in ('DRAFT', 'SENT', 'PARTIALLY_PAID', 'PAID', 'CANCELLED')),
        customer_id uuid not null,
        branch_id uuid not null,
        issue_date date not null,
        due_date date not null,
        payment_terms_days integer not null check (payment_terms_days between 0 and 365),
        subtotal bigint not null,
        discount_total bigint not null check (discount_total >= 0),
        vat_total bigint not null check (vat_total >= 0),
        total bigint not null check (total >= 0),
        amount_paid bigint not null check (amount_paid >= 0 and amount_paid <= total),
        prices_include_vat boolean,
        notes text,
        share_token text not null,
        converted_from uuid,
        created_by uuid not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        sent_at timestamptz,
        cancelled_at timestamptz,
        primary key (id, business_id),
        unique (business_id, number),
        -- unique within the business (Citus, docs/adr/0035); 190 random bits make a clash elsewhere as unlikely as a guess
        unique (business_id, share_token),
        check ((number is null) = (status = 'DRAFT')),
        foreign key (business_id, customer_id) references customers (business_id, id) deferrable initially deferred,
        foreign key (business_id, branch_id) references branches (business_id, id) deferrable initially deferred
      );
      create index invoices_created on invoices (business_id, created_at, id);
      create index invoices_total on invoices (business_id, total, id);
      create index invoices_due on invoices (business_id, due_date, id);
      create index invoices_customer on invoices (business_id, customer_id);
      -- the customer's page finds its invoice by the token alone
      create index invoices_share_token on invoices (share_token);
      create table invoice_lines (
        invoice_id uuid not null,
        business_id uuid not null,
        position integer not null,
        product_id uuid,
        description text not null,
        quantity integer not null check (quantity > 0),
        unit_price bigint not null check (unit_price >= 0),
        discount bigint not null check (discount >= 0),
        vat_rate integer not null check (vat_rate between 0 and 10000),
        vat_amount bigint not null check (vat_amount >= 0),
        line_total bigint not null check (line_total >= 0),
        unit_cost bigint,
        primary key (invoice_id, business_id, position),
        foreign key (business_id, invoice_id) references invoices (business_id, id) on delete cascade deferrable initially deferred
      );
      create table invoice_payments (
        id uuid not null,
        business_id uuid not null,
        invoice_id uuid not null,
        amount bigint not null check (amount > 0),
        method text not null check (method in ('CASH', 'TRANSFER', 'CARD', 'POS', 'ONLINE')),
        paid_at timestamptz not null,
        reference text,
        created_by uuid,
        created_at timestamptz not null,
        primary key (id, business_id),
        foreign key (business_id, invoice_id) references invoices (business_id, id) deferrable initially deferred
      );
      create index invoice_payments_invoice on invoice_payments (business_id, invoice_id, created_at);
      set constraints all deferred;
    `);
  }
}
