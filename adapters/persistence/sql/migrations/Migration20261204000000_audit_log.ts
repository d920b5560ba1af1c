import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 36: the owners' audit log (docs/adr/0069, 0070). One row per entry, written in the transaction
 * of the change it records. Tenant keys like every tenant table: (id, business_id). before/after are
 * JSON text, not jsonb: their money values carry the API's money mark (a NUL, domain/money.ts), which
 * jsonb cannot hold. A trigger refuses every UPDATE, DELETE and TRUNCATE, whoever the role: the log is
 * append-only even for the API's own connection.
 */
export class Migration20261204000000_audit_log extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table audit_log (
        id uuid not null,
        business_id uuid not null,
        at timestamptz not null,
        action text not null,
        actor_type text not null check (actor_type in ('USER', 'PARTNER_KEY', 'SYSTEM', 'DEVICE')),
        actor_user_id uuid,
        actor_name text,
        actor_role text,
        actor_device_id text,
        actor_api_key_id uuid,
        subject_type text not null,
        subject_id text not null,
        subject_label text,
        branch_id uuid,
        before_json text,
        after_json text,
        request_id text,
        primary key (id, business_id)
      );
      create index audit_log_by_time on audit_log (business_id, at, id);
      create index audit_log_by_subject on audit_log (business_id, subject_type, subject_id, at);
      create index audit_log_by_actor on audit_log (business_id, (coalesce(actor_user_id, actor_api_key_id)), at);

      create function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$;
      create trigger audit_log_no_change before update or delete on audit_log for each row execute function audit_log_append_only();
      create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_append_only();
    `);
  }
}
