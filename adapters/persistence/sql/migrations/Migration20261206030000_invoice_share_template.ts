import { Migration } from '@mikro-orm/migrations';

/** Issue 35: notifications gain INVOICE_SHARE, an invoice's share link sent to its customer (docs/adr/0076). */
export class Migration20261206030000_invoice_share_template extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table notifications drop constraint notifications_template_check;
      alter table notifications add constraint notifications_template_check
        check (template in ('RECEIPT', 'CREDIT_REMINDER', 'CUSTOM', 'LOW_STOCK', 'DAILY_SUMMARY', 'AUDIT_ALERT', 'INVOICE_SHARE'));
    `);
  }
}
