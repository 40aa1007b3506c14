import { Migration } from '@mikro-orm/migrations';

export class Migration20261128183618_second_factor extends Migration {

  override name = 'Migration20261128183618_second_factor';

  override up(): void | Promise<void> {
    this.addSql(`create table "core"."second_factor_challenge" ("challenge_hash" varchar(64) not null, "user_code" varchar(64) not null, "language_code" varchar(2) not null, "enrol_secret" varchar(64) null, "expires_at" timestamptz not null, "used_at" timestamptz null, primary key ("challenge_hash"));`);
    this.addSql(`create index "second_factor_challenge_user_code_index" on "core"."second_factor_challenge" ("user_code");`);
    this.addSql(`create index "second_factor_challenge_expires_at_index" on "core"."second_factor_challenge" ("expires_at");`);

    this.addSql(`create table "core"."second_factor" ("id" bigserial primary key, "user_code" varchar(64) not null, "secret" varchar(64) not null, "confirmed_at" timestamptz null, "last_step" bigint null, "wrong_codes" int not null default 0, "wrong_since" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "core"."second_factor" add constraint "second_factor_user_code_unique" unique ("user_code");`);

    this.addSql(`create table "core"."second_factor_recovery_code" ("id" bigserial primary key, "user_code" varchar(64) not null, "code_hash" varchar(64) not null, "used_at" timestamptz null);`);
    this.addSql(`alter table "core"."second_factor_recovery_code" add constraint "second_factor_recovery_code_unique" unique ("user_code", "code_hash");`);

    this.addSql(`alter table "core"."account" add "second_factor_required" boolean not null default false;`);

    this.addSql(`alter table "core"."second_factor_challenge" add constraint "second_factor_challenge_user_code_foreign" foreign key ("user_code") references "core"."user_info" ("user_code") on update no action on delete cascade;`);

    this.addSql(`alter table "core"."second_factor" add constraint "second_factor_user_code_foreign" foreign key ("user_code") references "core"."user_info" ("user_code") on update no action on delete cascade;`);

    this.addSql(`alter table "core"."second_factor_recovery_code" add constraint "second_factor_recovery_code_user_code_foreign" foreign key ("user_code") references "core"."user_info" ("user_code") on update no action on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "core"."second_factor_challenge" cascade;`);
    this.addSql(`drop table if exists "core"."second_factor" cascade;`);
    this.addSql(`drop table if exists "core"."second_factor_recovery_code" cascade;`);

    this.addSql(`alter table "core"."account" drop column "second_factor_required";`);
  }

}
