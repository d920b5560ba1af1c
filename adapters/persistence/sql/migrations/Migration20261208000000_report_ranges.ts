import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 37 (flat in history, docs/performance.md): the reports' date ranges on tables that had no index
 * for them, so each range was a scan of the business's whole history. Credit collected (the dashboard,
 * the daily summary) reads PAYMENT entries by created_at; invoice money by issue date and payments by
 * paid_at (the dashboard's receivables, profit and loss, the daily summary).
 */
export class Migration20261208000000_report_ranges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create index credit_entries_payments on credit_entries (business_id, created_at) where kind = 'PAYMENT';
      create index invoices_issued on invoices (business_id, issue_date);
      create index invoice_payments_paid on invoice_payments (business_id, paid_at);
    `);
  }
}
