import { Migration } from '@mikro-orm/migrations';
import { ensureExtension, withExtensionSchema } from '@platform/service-kit/db/extension-sql.ts';

/**
 * Files' text and the words it is searched by (dms-svc/src/db.ts DmsFileTextEntity and
 * DmsTextWordEntity, docs/adr/0159-documents-found-by-their-words.md). The tables as
 * migration:create wrote them, after what they need beyond the schema: the trusted extensions
 * unaccent, pg_trgm and btree_gin (the owner may create them), and the two folded text search
 * configurations, English and Turkish, whose words pass unaccent before their stemmer, so that
 * "sozlesme" is "sözleşme" and "ISIK" is "ışık". A file's existing rows get a PENDING text row, so
 * the worker reads the files stored before this migration too.
 */
export class Migration20261129153850_file_text extends Migration {

  override name = 'Migration20261129153850_file_text';

  override up(): void | Promise<void> {
    this.addSql(ensureExtension('unaccent'));
    this.addSql(ensureExtension('pg_trgm'));
    this.addSql(ensureExtension('btree_gin'));
    for (const language of ['english', 'turkish']) {
      this.addSql(`create text search configuration "dms"."${language}_folded" (copy = pg_catalog.${language});`);
      this.addSql(
        withExtensionSchema(
          'unaccent',
          `alter text search configuration "dms"."${language}_folded" alter mapping for hword, hword_part, word with @ext.unaccent, pg_catalog.${language}_stem`,
        ),
      );
    }
    this.addSql(`create table "dms"."dms_file_text" ("file_id" bigint not null, "cr_process_id" bigint not null, "status" varchar(16) not null default 'PENDING', "reason" varchar(500) null, "attempts" int not null default 0, "language" varchar(16) null, "method" varchar(16) null, "pages" int null, "content" text null, "truncated" boolean not null default false, "search" tsvector null, "queued_at" timestamptz not null default now(), "lease_until" timestamptz null, "finished_at" timestamptz null, primary key ("file_id"));`);
    this.addSql(`create index "dms_file_text_search_index" on "dms"."dms_file_text" using gin ("cr_process_id", "search");`);
    this.addSql(`create index "dms_file_text_open_index" on "dms"."dms_file_text" ("queued_at") where status in ('PENDING', 'RUNNING');`);

    this.addSql(`create table "dms"."dms_text_word" ("cr_process_id" bigint not null, "word" varchar(100) not null, primary key ("cr_process_id", "word"));`);
    this.addSql(withExtensionSchema('pg_trgm', `create index "dms_text_word_trigram_index" on "dms"."dms_text_word" using gin ("cr_process_id", "word" @ext.gin_trgm_ops)`));

    this.addSql(`alter table "dms"."dms_file_text" add constraint "dms_file_text_file_id_foreign" foreign key ("file_id") references "dms"."dms_file" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dms"."dms_file_text" add constraint "dms_file_text_status_check" check (status in ('PENDING', 'RUNNING', 'DONE', 'FAILED', 'SKIPPED'));`);
    this.addSql(`alter table "dms"."dms_file_text" add constraint "dms_file_text_attempts_check" check (attempts >= 0);`);
    this.addSql(`alter table "dms"."dms_file_text" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "dms"."dms_file_text" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`alter table "dms"."dms_text_word" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "dms"."dms_text_word" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    // a soft delete takes the file's text out of the search, whichever path deletes it (dms-svc/src/db.ts fileTextDeleted)
    this.addSql(`create or replace function "dms"."dms_file_dms_file_text_deleted_fn"() returns trigger as \$\$ begin delete from "dms"."dms_file_text" where file_id = new.id; return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "dms_file_text_deleted" after update on "dms"."dms_file" for each row when (new.deleted and not old.deleted) execute function "dms"."dms_file_dms_file_text_deleted_fn"();`);

    // the tenant's language, for a file whose text is too short to tell its own
    this.addSql(`alter table "dms"."dms_account_config" add "text_language" varchar(32) null;`);

    this.addSql(`insert into "dms"."dms_file_text" ("file_id", "cr_process_id") select "id", "cr_process_id" from "dms"."dms_file" where not "deleted";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "dms"."dms_account_config" drop column "text_language";`);
    this.addSql(`drop trigger if exists "dms_file_text_deleted" on "dms"."dms_file";`);
    this.addSql(`drop function if exists "dms"."dms_file_dms_file_text_deleted_fn"();`);
    this.addSql(`drop table if exists "dms"."dms_file_text" cascade;`);
    this.addSql(`drop table if exists "dms"."dms_text_word" cascade;`);
    this.addSql(`drop text search configuration if exists "dms"."english_folded";`);
    this.addSql(`drop text search configuration if exists "dms"."turkish_folded";`);
  }

}
