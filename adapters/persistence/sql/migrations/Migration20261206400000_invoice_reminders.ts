import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 35 part 4 (docs/adr/0077): one row per invoice reminder sent (the day before the due date, the first
 * day overdue), its key making each one go exactly once whatever the number of workers; notifications gain
 * the INVOICE_REMINDER template (beside INVOICE_SHARE, which the share migration before it added).
 */
export class Migration20261206400000_invoice_reminders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table invoice_reminders (
        business_id uuid not null,
        invoice_id uuid not null,
        kind text not null check (kind in ('BEFORE_DUE', 'OVERDUE')),
        sent_at timestamptz not null,
        primary key (business_id, invoice_id, kind),
        foreign key (invoice_id, business_id) references invoices (id, business_id) on delete cascade
      );
      alter table notifications drop constraint notifications_template_check;
      alter table notifications add constraint notifications_template_check
        check (template in ('RECEIPT', 'CREDIT_REMINDER', 'CUSTOM', 'LOW_STOCK', 'DAILY_SUMMARY', 'AUDIT_ALERT', 'INVOICE_SHARE', 'INVOICE_REMINDER'));
    `);
  }
}
