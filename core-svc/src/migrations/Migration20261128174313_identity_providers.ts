import { Migration } from '@mikro-orm/migrations';

export class Migration20261128174313_identity_providers extends Migration {

  override name = 'Migration20261128174313_identity_providers';

  override up(): void | Promise<void> {
    this.addSql(`create table "core"."identity_provider" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "display_name" varchar(100) not null, "issuer" varchar(500) not null, "client_id" varchar(255) not null, "client_secret" varchar(500) null, "password_login" boolean not null default false, "allowed_domain_list" text not null, "group_mapping_list" text not null);`);
    this.addSql(`create index "identity_provider_cr_process_id_index" on "core"."identity_provider" ("cr_process_id");`);

    this.addSql(`create table "core"."oidc_identity" ("id" bigserial primary key, "provider_id" bigint not null, "subject" varchar(255) not null, "user_code" varchar(64) not null, "created_at" timestamptz not null, "last_sign_in_at" timestamptz not null);`);
    this.addSql(`create index "oidc_identity_user_code_index" on "core"."oidc_identity" ("user_code");`);
    this.addSql(`alter table "core"."oidc_identity" add constraint "oidc_identity_provider_subject_unique" unique ("provider_id", "subject");`);

    this.addSql(`create table "core"."oidc_session" ("session_id" uuid not null, "provider_id" bigint not null, "id_token" text not null, "created_at" timestamptz not null, primary key ("session_id"));`);
    this.addSql(`create index "oidc_session_created_at_index" on "core"."oidc_session" ("created_at");`);

    this.addSql(`create table "core"."oidc_sign_in" ("state" varchar(128) not null, "provider_id" bigint not null, "nonce" varchar(128) not null, "code_verifier" varchar(128) not null, "redirect_uri" varchar(2000) not null, "return_to" varchar(1000) not null, "binding_hash" varchar(64) not null, "expires_at" timestamptz not null, primary key ("state"));`);
    this.addSql(`create index "oidc_sign_in_expires_at_index" on "core"."oidc_sign_in" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "core"."identity_provider" cascade;`);
    this.addSql(`drop table if exists "core"."oidc_identity" cascade;`);
    this.addSql(`drop table if exists "core"."oidc_session" cascade;`);
    this.addSql(`drop table if exists "core"."oidc_sign_in" cascade;`);
  }

}
