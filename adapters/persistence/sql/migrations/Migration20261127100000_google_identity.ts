import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 14: Google sign-in (docs/adr/0027). A Google account (its `sub`) linked to a user: one per
 * user and one user per Google account, so a sign-in finds its user by `sub`.
 */
export class Migration20261127100000_google_identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table google_identities (
        subject text primary key check (length(subject) between 1 and 255),
        user_id uuid not null unique references users (id) deferrable initially deferred,
        email text not null,
        linked_at timestamptz not null
      );
    `);
  }
}
