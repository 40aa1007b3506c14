import { Migration } from '@mikro-orm/migrations';

/**
 * The access stamp (core-svc/src/access-stamp.ts,
 * docs/adr/0062-a-kept-live-access-and-its-access.md): the rows of one counter, one of which every transaction changing what a live access
 * reads moves, as it commits. The triggers are the entities' (migration:create wrote them); the
 * function they call and the rows are written here.
 */
export class Migration20261127031720_access_stamp extends Migration {

  override name = 'Migration20261127031720_access_stamp';

  override up(): void | Promise<void> {
    this.addSql(`create table "core"."access_stamp" ("shard" smallint not null, "stamp" bigint not null default '0', primary key ("shard"));`);
    // STAMP_SHARDS (core-svc/src/access-stamp.ts) rows
    this.addSql(`insert into "core"."access_stamp" (shard, stamp) select shard, 0 from generate_series(0, 31) as shard;`);

    // the connection's shard, once per transaction: the first trigger to fire notes it in a transaction-local setting
    this.addSql(`create or replace function "core"."access_stamp_bump"() returns trigger as \$\$ begin if current_setting('core.access_stamp_moved', true) is distinct from 'yes' then perform set_config('core.access_stamp_moved', 'yes', true); update "core"."access_stamp" set stamp = stamp + 1 where shard = pg_backend_pid() % 32; end if; return null; end; \$\$ language plpgsql;`);
    this.addSql(`create constraint trigger "account_access_changed" after update on "core"."account" deferrable initially deferred for each row when (old.id is distinct from new.id or old.cr_process_id is distinct from new.cr_process_id or old.status is distinct from new.status) execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "account_access_added_removed" after insert or delete on "core"."account" deferrable initially deferred for each row execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "security_group_access_changed" after update on "core"."security_group" deferrable initially deferred for each row when (old.id is distinct from new.id or old.cr_process_id is distinct from new.cr_process_id or old.status is distinct from new.status) execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "security_group_access_added_removed" after insert or delete on "core"."security_group" deferrable initially deferred for each row execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "role_type_access_changed" after update on "core"."role_type" deferrable initially deferred for each row when (old.id is distinct from new.id or old.cr_process_id is distinct from new.cr_process_id or old.role_code is distinct from new.role_code or old.status is distinct from new.status) execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "role_type_access_added_removed" after insert or delete on "core"."role_type" deferrable initially deferred for each row execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "group_role_access_changed" after update on "core"."group_role" deferrable initially deferred for each row when (old.group_id is distinct from new.group_id or old.role_type_id is distinct from new.role_type_id or old.cr_process_id is distinct from new.cr_process_id or old.status is distinct from new.status) execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "group_role_access_added_removed" after insert or delete on "core"."group_role" deferrable initially deferred for each row execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "session_log_access_changed" after update on "core"."session_log" deferrable initially deferred for each row when (old.session_id is distinct from new.session_id or old.user_code is distinct from new.user_code or old.active is distinct from new.active or old.expires_at is distinct from new.expires_at) execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "session_log_access_removed" after delete on "core"."session_log" deferrable initially deferred for each row execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "user_info_access_changed" after update on "core"."user_info" deferrable initially deferred for each row when (old.user_code is distinct from new.user_code or old.status is distinct from new.status or old.token_version is distinct from new.token_version or old.super_user is distinct from new.super_user) execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "user_info_access_added_removed" after insert or delete on "core"."user_info" deferrable initially deferred for each row execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "group_member_access_changed" after update on "core"."group_member" deferrable initially deferred for each row when (old.user_code is distinct from new.user_code or old.group_id is distinct from new.group_id or old.cr_process_id is distinct from new.cr_process_id or old.status is distinct from new.status) execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "group_member_access_added_removed" after insert or delete on "core"."group_member" deferrable initially deferred for each row execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "user_process_access_changed" after update on "core"."user_process" deferrable initially deferred for each row when (old.id is distinct from new.id or old.user_code is distinct from new.user_code or old.status is distinct from new.status) execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "user_process_access_added_removed" after insert or delete on "core"."user_process" deferrable initially deferred for each row execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "user_process_select_access_changed" after update on "core"."user_process_select" deferrable initially deferred for each row when (old.user_process_id is distinct from new.user_process_id or old.account_id is distinct from new.account_id) execute function "core"."access_stamp_bump"();`);
    this.addSql(`create constraint trigger "user_process_select_access_added_removed" after insert or delete on "core"."user_process_select" deferrable initially deferred for each row execute function "core"."access_stamp_bump"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "account_access_changed" on "core"."account";`);
    this.addSql(`drop trigger if exists "account_access_added_removed" on "core"."account";`);
    this.addSql(`drop trigger if exists "security_group_access_changed" on "core"."security_group";`);
    this.addSql(`drop trigger if exists "security_group_access_added_removed" on "core"."security_group";`);
    this.addSql(`drop trigger if exists "role_type_access_changed" on "core"."role_type";`);
    this.addSql(`drop trigger if exists "role_type_access_added_removed" on "core"."role_type";`);
    this.addSql(`drop trigger if exists "group_role_access_changed" on "core"."group_role";`);
    this.addSql(`drop trigger if exists "group_role_access_added_removed" on "core"."group_role";`);
    this.addSql(`drop trigger if exists "session_log_access_changed" on "core"."session_log";`);
    this.addSql(`drop trigger if exists "session_log_access_removed" on "core"."session_log";`);
    this.addSql(`drop trigger if exists "user_info_access_changed" on "core"."user_info";`);
    this.addSql(`drop trigger if exists "user_info_access_added_removed" on "core"."user_info";`);
    this.addSql(`drop trigger if exists "group_member_access_changed" on "core"."group_member";`);
    this.addSql(`drop trigger if exists "group_member_access_added_removed" on "core"."group_member";`);
    this.addSql(`drop trigger if exists "user_process_access_changed" on "core"."user_process";`);
    this.addSql(`drop trigger if exists "user_process_access_added_removed" on "core"."user_process";`);
    this.addSql(`drop trigger if exists "user_process_select_access_changed" on "core"."user_process_select";`);
    this.addSql(`drop trigger if exists "user_process_select_access_added_removed" on "core"."user_process_select";`);
    this.addSql(`drop function if exists "core"."access_stamp_bump"();`);
    this.addSql(`drop table if exists "core"."access_stamp";`);
  }

}
