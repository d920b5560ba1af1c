import { Migration } from '@mikro-orm/migrations';

/**
 * Every change to what the per-request member check reads (a membership; a session signed out or
 * gone) notifies `member_changes` with the user's id, from the transaction that makes it, delivered
 * when it commits. Instances that remember member checks forget that user's on hearing it
 * (docs/adr/0036). A trigger, so no write path (the CLI, a migration, psql) can forget to say so.
 */
export class Migration20261201000000_member_change_notices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function notify_member_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify('member_changes', (case when tg_op = 'DELETE' then old.user_id else new.user_id end)::text);
        if tg_op = 'UPDATE' and old.user_id is distinct from new.user_id then
          perform pg_notify('member_changes', old.user_id::text);
        end if;
        return null;
      end $$;

      create trigger memberships_member_change after insert or update or delete on memberships
        for each row execute function notify_member_change();
      create trigger sessions_member_change after update on sessions
        for each row when (old.revoked_at is distinct from new.revoked_at or old.user_id is distinct from new.user_id)
        execute function notify_member_change();
      create trigger sessions_member_gone after delete on sessions
        for each row execute function notify_member_change();
    `);
  }
}
