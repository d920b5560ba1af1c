import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 35 part 2 (docs/adr/0073): a sent invoice is a debt in its customer's credit ledger. Its entries
 * (INVOICE, INVOICE_PAYMENT, INVOICE_CANCEL) are keyed to the invoice; what is still owed on it is the
 * invoice's own total - amount_paid, so no outstanding column is added.
 */
export class Migration20261207000000_invoice_credit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table credit_entries add column invoice_id uuid;
      alter table credit_entries drop constraint credit_entries_kind_check;
      alter table credit_entries add constraint credit_entries_kind_check
        check (kind in ('SALE', 'PAYMENT', 'VOID', 'RETURN', 'INVOICE', 'INVOICE_PAYMENT', 'INVOICE_CANCEL'));
      alter table credit_entries add constraint credit_entries_invoice_kinds check ((invoice_id is not null) = (kind like 'INVOICE%'));
      -- open invoices by customer (aging, the credit summary)
      create index invoices_open on invoices (business_id, customer_id, due_date) where status in ('SENT', 'PARTIALLY_PAID') and type <> 'PROFORMA';
    `);
  }
}
