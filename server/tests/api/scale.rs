//! Many companies on one database: a company's schema copied from the tenant template, the
//! metrics' cardinality.

use std::time::Duration;

use loyalty::platform::spares::{CHECK_EVERY, QUIET_AFTER};
use reqwest::StatusCode;
use serde_json::json;
use tokio_postgres::Client;

use crate::helpers::{run_loyalty, spawn_app, TestApp};
use crate::points::support::{acme_with_customer, balance, post_with_key};

/// Everything the catalog says about a schema's objects, one line each, sorted, with the
/// schema's own name written `S`: tables, columns, defaults, constraints, indexes, sequences,
/// functions and triggers, the migration history and the rows (the times a row took when it
/// was made left out).
async fn describe(db: &Client, schema: &str) -> Vec<String> {
    db.batch_execute(&format!("set search_path to \"{schema}\"")).await.unwrap();
    let queries = [
        "select format('relation %s kind %s am %s options %s persistence %s acl %s', c.relname, c.relkind, \
           coalesce(am.amname, ''), coalesce(array_to_string(c.reloptions, ','), ''), c.relpersistence, \
           coalesce(c.relacl::text, '')) \
         from pg_class c left join pg_am am on am.oid = c.relam where c.relnamespace = $1::text::regnamespace",
        "select format('column %s.%s #%s %s notnull %s generated %s identity %s collation %s default %s', \
           c.relname, a.attname, row_number() over (partition by a.attrelid order by a.attnum), \
           format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attgenerated, a.attidentity, \
           a.attcollation::regcollation, coalesce(pg_get_expr(d.adbin, d.adrelid), '')) \
         from pg_attribute a join pg_class c on c.oid = a.attrelid \
         left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum \
         where c.relnamespace = $1::text::regnamespace and a.attnum > 0 and not a.attisdropped",
        "select format('constraint %s.%s type %s %s deferrable %s deferred %s validated %s', c.relname, \
           k.conname, k.contype, pg_get_constraintdef(k.oid), k.condeferrable, k.condeferred, k.convalidated) \
         from pg_constraint k join pg_class c on c.oid = k.conrelid where c.relnamespace = $1::text::regnamespace",
        "select format('index %s primary %s unique %s clustered %s replident %s %s', c.relname, i.indisprimary, \
           i.indisunique, i.indisclustered, i.indisreplident, replace(pg_get_indexdef(i.indexrelid), ' ON ' || $1 || '.', ' ON S.')) \
         from pg_index i join pg_class c on c.oid = i.indexrelid where c.relnamespace = $1::text::regnamespace",
        "select format('sequence %s type %s start %s increment %s min %s max %s cache %s cycle %s last %s', \
           sequencename, data_type, start_value, increment_by, min_value, max_value, cache_size, cycle, \
           coalesce(last_value::text, 'none')) from pg_sequences where schemaname = $1",
        "select format('sequence %s owned by %s.%s (%s)', s.relname, t.relname, a.attname, d.deptype) \
         from pg_depend d join pg_class s on s.oid = d.objid join pg_class t on t.oid = d.refobjid \
         join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid \
         where d.classid = 'pg_class'::regclass and s.relkind = 'S' and s.relnamespace = $1::text::regnamespace",
        "select format('function %s', p.oid::regprocedure) from pg_proc p where p.pronamespace = $1::text::regnamespace",
        "select format('trigger %s %s', tgname, pg_get_triggerdef(g.oid)) from pg_trigger g \
         join pg_class c on c.oid = g.tgrelid where c.relnamespace = $1::text::regnamespace and not g.tgisinternal",
        "select format('type %s %s', typname, typtype) from pg_type where typnamespace = $1::text::regnamespace",
        "select format('history %s %s %s', version, name, checksum) from refinery_schema_history where $1::text is not null",
    ];
    let mut lines = Vec::new();
    for sql in queries {
        for row in db.query(sql, &[&schema]).await.expect(sql) {
            lines.push(row.get::<_, String>(0));
        }
    }
    // Every table's rows but the accounts (the admin's password differs) and the history's times.
    let tables = db
        .query(
            "select c.relname, coalesce((select array_agg(attname::text) from pg_attribute \
               where attrelid = c.oid and atttypid in ('timestamptz'::regtype, 'timestamp'::regtype)), '{}') \
             from pg_class c where c.relnamespace = $1::text::regnamespace and c.relkind = 'r' \
               and c.relname not in ('users', 'refinery_schema_history')",
            &[&schema],
        )
        .await
        .unwrap();
    for table in tables {
        let name: String = table.get(0);
        let times: Vec<String> = table.get(1);
        let sql = format!(
            "select coalesce(jsonb_agg(to_jsonb(t) - $1::text[] order by to_jsonb(t)::text)::text, '[]') from \"{name}\" t"
        );
        let rows: String = db.query_one(&sql, &[&times]).await.expect(&sql).get(0);
        lines.push(format!("rows of {name}: {rows}"));
    }
    let mut lines: Vec<String> = lines.into_iter().map(|l| l.replace(schema, "S")).collect();
    lines.sort();
    lines
}

/// Asserts that `schema` is, object by object and row by row (the accounts' passwords and the
/// times aside), what running every tenant migration makes, as `loyalty migrate` makes a schema.
async fn assert_made_as_by_migrations(app: &TestApp, schema: &str) {
    let mut db = app.app_db().await;
    db.batch_execute("drop schema if exists tenant_migrated cascade; create schema tenant_migrated").await.unwrap();
    let version = loyalty::migrate::run_tenant_migrations(&mut db, "tenant_migrated").await.unwrap();
    assert_eq!(version, loyalty::migrate::latest_tenant_version());
    // With its admin, as a company is made.
    db.batch_execute("insert into users (username, password_hash, role) values ('admin', 'x', 'admin')").await.unwrap();

    let made = describe(&db, schema).await;
    let migrated = describe(&db, "tenant_migrated").await;
    assert!(made.iter().any(|l| l.starts_with("index customers_name_idx")), "{made:#?}");
    assert!(made.iter().any(|l| l.starts_with("rows of settings: [{")), "{made:#?}");
    let only_made: Vec<_> = made.iter().filter(|l| !migrated.contains(l)).collect();
    let only_migrated: Vec<_> = migrated.iter().filter(|l| !made.contains(l)).collect();
    assert!(
        only_made.is_empty() && only_migrated.is_empty(),
        "{schema} differs from the migrations:\nonly in {schema}: {only_made:#?}\nonly migrated: {only_migrated:#?}"
    );
    assert_eq!(made.len(), migrated.len());
    db.batch_execute("drop schema tenant_migrated cascade").await.unwrap();
}

/// Whether the times a new company's rows were given (its settings', its migration history's)
/// are of the last minute.
async fn stamped_now(db: &Client, schema: &str) -> bool {
    db.query_one(
        &format!(
            "select (select bool_and(updated_at > now() - interval '1 minute') from {schema}.settings) \
               and (select bool_and(applied_on::timestamptz > now() - interval '1 minute') \
                    from {schema}.refinery_schema_history)"
        ),
        &[],
    )
    .await
    .unwrap()
    .get(0)
}

#[tokio::test]
async fn a_cloned_schema_is_what_the_migrations_make() {
    let app = spawn_app().await;
    // Made through the API: a copy of the tenant template.
    let (_, acme) = app.create_company("acme").await;
    assert!(app.schema_exists(loyalty::migrate::template::TEMPLATE_SCHEMA).await, "the template is made on first use");
    let template = app.state.tenant_template.get().expect("read on first use");
    assert!(template.is_some(), "the company was made by migrating, not as a copy");
    assert_made_as_by_migrations(&app, "tenant_acme").await;
    let db = app.app_db().await;

    // The times of the copied rows are the copy's own.
    assert!(stamped_now(&db, "tenant_acme").await);
    let version: i32 =
        db.query_one("select schema_version from platform.companies where prefix = 'acme'", &[]).await.unwrap().get(0);
    assert_eq!(version, loyalty::migrate::latest_tenant_version());

    // And the copy works: its sequences start where a new company's do (the admin took the
    // first of its record ids).
    let pos = app.post("/api/pos", &acme, json!({ "name": "Centro" })).await;
    assert_eq!(pos.status, StatusCode::CREATED, "{}", pos.body);
    assert_eq!(pos.body["id"], 2);
    let (_, globex) = app.create_company("globex").await;
    assert_eq!(app.post("/api/pos", &globex, json!({ "name": "Centro" })).await.body["id"], 2);
    // `loyalty migrate` finds nothing to do in a copy.
    let summary = loyalty::migrate::migrate_all(
        &app.db_url,
        &loyalty::migrate::MigrateOptions { concurrency: 2, ..Default::default() },
    )
    .await
    .unwrap();
    assert!(summary.tenants.iter().all(|t| t.applied.is_empty() && t.error.is_none()), "{summary:?}");
}

/// The spare schemas ready, by id, once there are `count` of them (the filler works in the
/// background); fails after ten seconds.
async fn spares_when(app: &TestApp, count: usize) -> Vec<i64> {
    for _ in 0..200 {
        let rows = app.db().await.query("select id from platform.spare_schemas order by id", &[]).await.unwrap();
        if rows.len() == count {
            return rows.iter().map(|r| r.get(0)).collect();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("never {count} spare schemas");
}

/// A schema's catalog row as it stands: its identity and the transaction that last wrote it
/// (a rename writes it anew).
async fn namespace_row(app: &TestApp, schema: &str) -> Option<(u32, String)> {
    app.db()
        .await
        .query_opt("select oid, xmin::text from pg_namespace where nspname = $1", &[&schema])
        .await
        .unwrap()
        .map(|row| (row.get(0), row.get(1)))
}

#[tokio::test]
async fn companies_take_spare_schemas_made_ahead_that_are_what_the_migrations_make() {
    let app = spawn_app().await;
    loyalty::platform::spares::spawn(app.state.clone(), 2, CHECK_EVERY, QUIET_AFTER);
    // No company, no spare; the first company is built while asked, in a schema of its own
    // name, then spares are made.
    app.create_company("first").await;
    assert_eq!(app.schema_of("first").await, "tenant_first");
    let spares = spares_when(&app, 2).await;
    let spare_schemas: Vec<String> = spares.iter().map(|id| format!("tenant_{id}")).collect();
    let mut spare_rows = Vec::new();
    for schema in &spare_schemas {
        spare_rows.push(namespace_row(&app, schema).await.expect("the spare's schema"));
        // Made long before the company that will take it.
        app.sql(&format!(
            "update {schema}.settings set updated_at = now() - interval '3 days'; \
             update {schema}.refinery_schema_history set applied_on = '2020-01-01T00:00:00Z'"
        ))
        .await;
    }

    // Three companies at once: two take the spares, one each, and the third is built. A company
    // that takes a spare keeps its schema as it is, name and all: no schema is renamed (a rename
    // writes the schema's catalog row, which every PostgreSQL backend then applies to its plans).
    let prefixes = ["sone", "stwo", "sthree"];
    let created = futures::future::join_all(prefixes.map(|p| app.create_company(p))).await;
    assert_eq!(created.len(), 3);
    let mut schemas = Vec::new();
    for prefix in prefixes {
        schemas.push(app.schema_of(prefix).await);
    }
    let from_spares: Vec<usize> = (0..3).filter(|i| spare_schemas.contains(&schemas[*i])).collect();
    assert_eq!(from_spares.len(), 2, "schemas {schemas:?}, spares {spare_schemas:?}");
    for (schema, row) in spare_schemas.iter().zip(&spare_rows) {
        assert_eq!(namespace_row(&app, schema).await.as_ref(), Some(row), "{schema} was renamed or made again");
    }

    // A company made from a spare is what the migrations make, with the times of its making,
    // and serves its requests in its own schema.
    let from_spare = &schemas[from_spares[0]];
    assert_made_as_by_migrations(&app, from_spare).await;
    assert!(stamped_now(&app.db().await, from_spare).await);
    let (_, token) = &created[from_spares[0]];
    let pos = app.post("/api/pos", token, json!({ "name": "Centro" })).await;
    assert_eq!(pos.status, StatusCode::CREATED, "{}", pos.body);
    assert_eq!(pos.body["id"], 2, "the record id after the admin's");
    assert_eq!(app.count(&format!("select count(*) from {from_spare}.points_of_sale")).await, 1);
    let other = &schemas[from_spares[1]];
    assert_eq!(app.count(&format!("select count(*) from {other}.points_of_sale")).await, 0);

    // Its figures are there at once: the spare's size, no customer yet.
    let stats = app
        .db()
        .await
        .query_one(
            "select s.schema_version, s.size_bytes, s.customers from platform.company_stats s \
             join platform.companies c on c.id = s.company_id where c.schema_name = $1",
            &[from_spare],
        )
        .await
        .unwrap();
    assert_eq!(stats.get::<_, i32>(0), loyalty::migrate::latest_tenant_version());
    assert!(stats.get::<_, Option<i64>>(1).unwrap_or(0) > 100_000, "size {:?}", stats.get::<_, Option<i64>>(1));
    assert_eq!(stats.get::<_, i64>(2), 0);

    // And the spares are made again, once the two are taken (half of them or fewer left).
    let again = spares_when(&app, 2).await;
    assert!(again.iter().all(|id| !spares.contains(id)), "{again:?}");

    // A prefix in use is refused with its error while spares are ready, and the spare stays.
    let create = |prefix: &str| {
        let body =
            json!({ "name": "Again", "prefix": prefix, "taxId": "900100200-1", "adminPassword": "admin-pass-1" });
        app.post("/api/super/companies", &app.super_token, body)
    };
    let twice = create("sone").await;
    assert_eq!(twice.status, StatusCode::CONFLICT, "{}", twice.body);
    assert_eq!(spares_when(&app, 2).await, again);

    // A company whose own schema name is taken gets its error when no spare is ready, and
    // nothing of it stays.
    app.sql("delete from platform.spare_schemas").await;
    app.sql("create schema tenant_taken").await;
    let taken = create("taken").await;
    assert_eq!(taken.status, StatusCode::CONFLICT, "{}", taken.body);
    assert_eq!(app.count("select count(*) from platform.companies where prefix = 'taken'").await, 0);
}

#[tokio::test]
async fn a_company_taking_a_spare_leaves_its_replacement_to_be_made_once_companies_are_no_longer_created() {
    let app = spawn_app().await;
    loyalty::platform::spares::spawn(app.state.clone(), 4, CHECK_EVERY, Duration::from_secs(3));
    app.create_company("first").await;
    let spares = spares_when(&app, 4).await;
    // One taken, three left: no spare is made right after it...
    app.create_company("second").await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let left: Vec<i64> = app
        .db()
        .await
        .query("select id from platform.spare_schemas order by id", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(left, spares[1..], "a spare was made right after a company took one of four");
    // ...but once no company was created for a while.
    let again = spares_when(&app, 4).await;
    assert_eq!(again[..3], spares[1..]);
    assert!(!spares.contains(&again[3]), "{again:?}");
}

/// A process keeps the schema name it read for a company; when the company is deleted and its
/// prefix taken by a new company through another process, the first process serves the new
/// company in the new company's schema, not the deleted one's.
#[tokio::test]
async fn a_prefix_taken_again_through_another_process_is_served_in_its_new_schema() {
    let app = spawn_app().await;
    let (id, token) = app.create_company("again").await;
    let pos = app.post("/api/pos", &token, json!({ "name": "Centro" })).await;
    assert_eq!(pos.status, StatusCode::CREATED, "{}", pos.body);

    // Another process, with a spare ready: it deletes the company and makes a new one under the
    // same prefix, which takes the spare.
    let other = loyalty::AppState::new(app.state.config.as_ref().clone()).unwrap();
    loyalty::platform::spares::spawn(other.clone(), 1, CHECK_EVERY, QUIET_AFTER);
    other.spares_wanted.notify_one();
    spares_when(&app, 1).await;
    loyalty::platform::delete_company(&other, id, "root").await.unwrap();
    let input: loyalty::platform::CompanyInput = serde_json::from_value(json!({ "name": "Again",
        "prefix": "again", "taxId": "900100200-1", "adminPassword": "admin-pass-1" }))
    .unwrap();
    let company = loyalty::platform::create_company(&other, input.into_new().unwrap(), "root").await.unwrap();
    let schema = app.schema_of("again").await;
    assert_ne!(schema, "tenant_again", "the new company did not take the spare");

    // A session of the new company's admin (issued as the other process would), on this
    // process, which still has the deleted company's schema for the prefix: served in the new
    // schema.
    let session_version: i32 = app
        .db()
        .await
        .query_one(&format!("select session_version from {schema}.users where id = 1"), &[])
        .await
        .unwrap()
        .get(0);
    let claims = loyalty::session::Claims {
        uid: 1,
        username: "admin".into(),
        role: "admin".into(),
        company_id: Some(company.id),
        prefix: Some("again".into()),
        pos_id: None,
        impersonated_by: None,
        sv: session_version,
        iat: 0,
        exp: 0,
    };
    let new_token = app.state.keys.issue(claims).unwrap();
    let listed = app.get("/api/pos", &new_token).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    assert_eq!(listed.body.as_array().map(Vec::len), Some(0), "the deleted company's points of sale: {}", listed.body);
    let pos = app.post("/api/pos", &new_token, json!({ "name": "Norte" })).await;
    assert_eq!(pos.status, StatusCode::CREATED, "{}", pos.body);
    assert_eq!(app.count(&format!("select count(*) from {schema}.points_of_sale")).await, 1);

    // The old token is refused; the new admin logs in.
    assert_eq!(app.get("/api/pos", &token).await.status, StatusCode::UNAUTHORIZED);
    let token = app.login_ok("admin@again", "admin-pass-1").await;
    assert_eq!(app.get("/api/pos", &token).await.status, StatusCode::OK);
}

#[tokio::test]
async fn spares_at_another_migration_are_never_taken_and_are_dropped() {
    let app = spawn_app().await;
    loyalty::platform::spares::spawn(app.state.clone(), 1, CHECK_EVERY, QUIET_AFTER);
    app.create_company("first").await;
    let stale = spares_when(&app, 1).await[0];
    let stale_schema = format!("tenant_{stale}");
    // As if made before a migration that this build has.
    app.sql("update platform.spare_schemas set version = version - 1").await;

    app.create_company("second").await;
    assert_eq!(app.schema_of("second").await, "tenant_second", "a spare of another migration was taken");
    for _ in 0..200 {
        if !app.schema_exists(&stale_schema).await {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(!app.schema_exists(&stale_schema).await, "the stale spare was not dropped");
    assert_ne!(spares_when(&app, 1).await, [stale]);
    let version: i32 =
        app.db().await.query_one("select version from platform.spare_schemas", &[]).await.unwrap().get(0);
    assert_eq!(version, loyalty::migrate::latest_tenant_version());
}

#[tokio::test]
async fn spares_are_ready_after_a_restart_and_an_upgrade_without_a_company_asked_for() {
    let app = spawn_app().await;
    app.create_company("first").await;
    // A process started on that platform (a state of its own, as after a restart), whose filler
    // no company creation has woken: it makes the spares at once.
    let restarted = loyalty::AppState::new(app.state.config.as_ref().clone()).unwrap();
    loyalty::platform::spares::spawn(restarted, 2, Duration::from_millis(200), QUIET_AFTER);
    let spares = spares_when(&app, 2).await;

    // As if made before an upgrade that brought a migration: the next check makes two at this
    // build's version, then drops the old ones, with no company asked for.
    app.sql("update platform.spare_schemas set version = version - 1").await;
    let latest = loyalty::migrate::latest_tenant_version();
    let mut now = Vec::new();
    for _ in 0..200 {
        now = app.db().await.query("select id, version from platform.spare_schemas order by id", &[]).await.unwrap();
        if now.len() == 2 && now.iter().all(|r| r.get::<_, i32>(1) == latest) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let ids: Vec<(i64, i32)> = now.iter().map(|r| (r.get(0), r.get(1))).collect();
    assert!(ids.len() == 2 && ids.iter().all(|(id, v)| *v == latest && !spares.contains(id)), "{ids:?}");
    for id in spares {
        assert!(!app.schema_exists(&format!("tenant_{id}")).await, "the old spare {id} was not dropped");
    }
}

#[tokio::test]
async fn a_platform_without_a_company_makes_no_spare() {
    let app = spawn_app().await;
    loyalty::platform::spares::spawn(app.state.clone(), 2, Duration::from_millis(50), QUIET_AFTER);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(app.count("select count(*) from platform.spare_schemas").await, 0);
}

/// Each index of a company's schema costs every insert into its table a page and every new
/// company a sync of its file when the schema is made: none may be one that another index on the
/// same rows serves as well (the same leading columns in the same order and directions, no
/// column of its own, not unique).
#[tokio::test]
async fn no_index_of_a_company_is_one_another_serves_as_well() {
    let app = spawn_app().await;
    app.create_company("lean").await;
    let redundant = app
        .texts(
            "select format('%s within %s', a.indexrelid::regclass, b.indexrelid::regclass) \
             from pg_index a join pg_index b on b.indrelid = a.indrelid and b.indexrelid <> a.indexrelid \
             join pg_class t on t.oid = a.indrelid \
             where t.relnamespace = 'tenant_lean'::regnamespace and not a.indisunique \
               and a.indexprs is null and b.indexprs is null and a.indnatts = a.indnkeyatts \
               and a.indnkeyatts <= b.indnkeyatts \
               and pg_get_expr(a.indpred, a.indrelid) is not distinct from pg_get_expr(b.indpred, b.indrelid) \
               and (string_to_array(a.indkey::text, ' '))[1:a.indnkeyatts] \
                 = (string_to_array(b.indkey::text, ' '))[1:a.indnkeyatts] \
               and (string_to_array(a.indoption::text, ' '))[1:a.indnkeyatts] \
                 = (string_to_array(b.indoption::text, ' '))[1:a.indnkeyatts] \
             order by 1",
        )
        .await;
    assert!(redundant.is_empty(), "{redundant:?}");
}

/// What a company costs the platform follows the relations of its schema: each is catalog rows in
/// the database, an entry in every backend that meets the company, and, for an index, a page
/// written by every insert into its table and a sync of its file when the schema is made
/// (docs/performance.md, "Fewer relations a company"). A tenant migration that adds one raises
/// this budget with the figures of `make bench` beside it.
#[tokio::test]
async fn a_company_costs_no_more_relations_than_its_budget() {
    const RELATIONS: i64 = 121;
    const INDEXES: i64 = 56;
    let app = spawn_app().await;
    app.create_company("budget").await;
    let schema = app.schema_of("budget").await;
    // The schema's own relations, then its TOAST tables and their indexes.
    let own = format!("with own as (select * from pg_class where relnamespace = '{schema}'::regnamespace)");
    let relations = app
        .count(&format!(
            "{own} select (select count(*) from own) + (select count(*) from own where reltoastrelid <> 0) \
               + (select count(*) from pg_index where indrelid in (select reltoastrelid from own))"
        ))
        .await;
    let indexes = app.count(&format!("{own} select count(*) from own where relkind = 'i'")).await;
    assert!(indexes <= INDEXES, "{indexes} indexes in a company's schema, {INDEXES} budgeted");
    assert!(relations <= RELATIONS, "{relations} relations in a company's schema, {RELATIONS} budgeted");
}

/// A sale changes its customer's points and last activity: with neither column in an index (key,
/// expression or predicate) and room kept on the customers' pages, the update is a heap-only
/// tuple that writes no index page, however many indexes the customers have.
#[tokio::test]
async fn a_sale_updates_its_customer_without_writing_an_index() {
    let (app, acme, customer) = acme_with_customer().await;
    let accredit = format!("/api/customers/{customer}/accredit");
    let sales: i64 = 10;
    for sale in 0..sales {
        let key = format!("k-{sale}");
        let (status, body, _) =
            post_with_key(&app, &accredit, &acme.admin, &key, json!({ "invoiceAmount": 10_000 })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    assert_eq!(balance(&app, &acme, customer).await, 100 * sales);

    let updates = format!(
        "select n_tup_upd, n_tup_hot_upd from pg_stat_user_tables \
         where schemaname = '{}' and relname = 'customers'",
        acme.schema()
    );
    let row = reported(&app.db().await, &updates, sales).await;
    let (updates, heap_only): (i64, i64) = (row.get(0), row.get(1));
    assert_eq!(updates, sales, "the customer's updates counted");
    assert_eq!(heap_only, updates, "heap-only updates of the customer's");
}

#[tokio::test]
async fn metrics_carry_no_label_per_company_however_many_there_are() {
    let app = spawn_app().await;
    let prefixes = ["cardone", "cardtwo", "cardthree", "cardfour"];
    for prefix in prefixes {
        let (_, admin) = app.create_company(prefix).await;
        let pos = app.post("/api/pos", &admin, json!({ "name": format!("Centro {prefix}") })).await;
        assert_eq!(pos.status, StatusCode::CREATED);
        let id = pos.body["id"].as_i64().unwrap();
        app.get("/api/pos", &admin).await;
        app.get(&format!("/api/pos/{id}/usage"), &admin).await;
        app.get("/api/pos/999999/usage", &admin).await;
    }
    let text = app
        .http
        .get(format!("{}/metrics", app.address))
        .bearer_auth(crate::helpers::METRICS_TOKEN)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let series: Vec<&str> = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
    for line in &series {
        for prefix in prefixes {
            assert!(!line.contains(prefix), "a company's prefix in a metric: {line}");
        }
        // Routes are the matched paths, never a request's own ids.
        if let Some(route) = line.split("route=\"").nth(1).and_then(|r| r.split('"').next()) {
            assert!(!route.split('/').any(|segment| segment.parse::<i64>().is_ok()), "an id in a route label: {line}");
        }
    }
    // One series per route, method and status, whichever company asked (the recorder is the
    // process's, shared with the tests running beside this one).
    let usage: Vec<_> =
        series.iter().filter(|l| l.starts_with("http_requests_total") && l.contains("/api/pos/{id}/usage")).collect();
    assert!((2..=4).contains(&usage.len()), "{usage:#?}");
    assert!(series.iter().any(|l| l.starts_with("loyalty_tenants ")), "{text}");
}

#[tokio::test]
async fn migrate_checks_many_schemas_at_once_by_version_and_checksum() {
    let app = spawn_app().await;
    for prefix in ["mone", "mtwo", "mthree"] {
        app.create_company(prefix).await;
    }
    // A platform record that lags, and a schema whose applied migration was edited since.
    app.sql(
        "update platform.companies set schema_version = null where prefix = 'mone'; \
         update tenant_mtwo.refinery_schema_history set checksum = '1' where version = 1",
    )
    .await;
    let opts = loyalty::migrate::MigrateOptions { concurrency: 2, ..Default::default() };
    let summary = loyalty::migrate::migrate_all(&app.db_url, &opts).await.unwrap();
    let outcome = |prefix: &str| summary.tenants.iter().find(|t| t.prefix == prefix).unwrap();
    assert!(outcome("mone").error.is_none() && outcome("mone").applied.is_empty());
    assert!(outcome("mthree").error.is_none() && outcome("mthree").applied.is_empty());
    let edited = outcome("mtwo").error.clone().expect("an edited migration is reported");
    assert!(edited.contains("1"), "{edited}");
    assert_eq!(summary.failed(), 1);
    let version: i32 = app
        .db()
        .await
        .query_one("select schema_version from platform.companies where prefix = 'mone'", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(version, loyalty::migrate::latest_tenant_version());
}

/// Autovacuum leaves a sale's tables to the nightly upkeep (tenant migration V38): `loyalty
/// maintain` vacuums and analyses the tables of the companies that sold since their last upkeep,
/// and no other company's.
#[tokio::test]
async fn the_nightly_upkeep_looks_after_the_tables_of_the_companies_that_sold_and_no_others() {
    let (app, acme, customer) = acme_with_customer().await;
    app.create_company("bravo").await;
    let accredit = format!("/api/customers/{customer}/accredit");
    let sales: i64 = 6;
    for sale in 0..sales {
        let (status, body, _) =
            post_with_key(&app, &accredit, &acme.admin, &format!("k-{sale}"), json!({ "invoiceAmount": 10_000 })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let stats = |schema: String| {
        format!(
            "select coalesce(n_mod_since_analyze, 0), last_vacuum is not null, last_analyze is not null \
             from pg_stat_user_tables where schemaname = '{schema}' and relname = 'transactions'"
        )
    };
    let (acme_stats, bravo_stats) = (stats(acme.schema()), stats(app.schema_of("bravo").await));
    let db = app.db().await;
    let row = reported(&db, &acme_stats, sales).await;
    assert!(row.get::<_, i64>(0) >= sales, "the sales never showed in pg_stat_user_tables");
    let options = app
        .texts(&format!(
            "select unnest(reloptions) from pg_class where oid = '{}.transactions'::regclass order by 1",
            acme.schema()
        ))
        .await;
    assert!(options.contains(&"autovacuum_analyze_threshold=50000".to_string()), "{options:?}");
    assert!(options.contains(&"autovacuum_vacuum_insert_threshold=50000".to_string()), "{options:?}");

    let maintain = |min_changes: i64| {
        let (ok, output) = run_loyalty(&app.db_url, &["maintain", "--min-changes", &min_changes.to_string()]);
        assert!(ok, "{output}");
        output
    };
    let first = maintain(sales);
    assert!(first.starts_with("vacuumed and analysed ") && !first.contains(" 0 tables"), "{first}");
    let row = db.query_one(&acme_stats, &[]).await.unwrap();
    assert_eq!((row.get::<_, i64>(0), row.get(1), row.get(2)), (0, true, true), "acme's transactions after the upkeep");
    let row = db.query_one(&bravo_stats, &[]).await.unwrap();
    assert_eq!((row.get::<_, bool>(1), row.get::<_, bool>(2)), (false, false), "bravo sold nothing");

    let again = maintain(sales);
    assert!(again.contains("vacuumed and analysed 0 tables (0 companies)"), "{again}");
}

/// The row `sql` reads from `pg_stat_user_tables` once its first column has reached `at_least`,
/// or after 30 s as it then is: the server's backend reports its counts within a second or so of
/// going idle.
async fn reported(db: &Client, sql: &str, at_least: i64) -> tokio_postgres::Row {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let row = db.query_one(sql, &[]).await.unwrap();
        if row.get::<_, i64>(0) >= at_least || std::time::Instant::now() > deadline {
            return row;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
