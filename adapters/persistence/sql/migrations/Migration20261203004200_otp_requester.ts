import { Migration } from '@mikro-orm/migrations';

/**
 * Who asked for each sign-in or verification code (the client IP), so the hourly ceiling on codes
 * sent is per requester: a stranger killing codes with wrong tries no longer locks the phone's owner
 * out (docs/adr/0042). Codes made before have none and count for no requester.
 */
export class Migration20261203004200_otp_requester extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table otp_codes add column requested_by text null;');
  }
}
