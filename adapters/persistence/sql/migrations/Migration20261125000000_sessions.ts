import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 11: sessions (signed-in devices, docs/adr/0018). One row per refresh-token family, made from
 * the families that exist; access tokens name theirs in `sid` and are refused once it is revoked.
 */
export class Migration20261125000000_sessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table sessions (
        id uuid primary key,
        user_id uuid not null references users (id) deferrable initially deferred,
        created_at timestamptz not null,
        last_used_at timestamptz not null,
        expires_at timestamptz not null,
        user_agent text,
        ip text,
        revoked_at timestamptz
      );
      create index sessions_user_live on sessions (user_id, last_used_at) where revoked_at is null;
      -- a family is revoked all at once, so any revoked token means a revoked session
      insert into sessions (id, user_id, created_at, last_used_at, expires_at, revoked_at)
        select family_id, (array_agg(user_id))[1], min(created_at), max(created_at), max(expires_at), max(revoked_at)
        from refresh_tokens group by family_id;
      alter table refresh_tokens add constraint refresh_tokens_session
        foreign key (family_id) references sessions (id) deferrable initially deferred;
    `);
  }
}
