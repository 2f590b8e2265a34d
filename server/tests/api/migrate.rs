use crate::helpers::{run_loyalty, spawn_acme, spawn_app, TestApp};

fn run_migrate(db_url: &str, extra: &[&str]) -> (bool, String) {
    run_loyalty(db_url, &[&["migrate"], extra].concat())
}

/// Makes the company `acme` again as a release at tenant migration `version` left it: its schema
/// migrated up to `version` and no further, with its admin (password `admin-pass-1`).
async fn acme_as_left_at(app: &TestApp, version: i32) {
    let mut app_db = app.app_db().await;
    app_db.batch_execute("drop schema tenant_acme cascade; create schema tenant_acme").await.unwrap();
    let reached = loyalty::migrate::run_tenant_migrations_to(&mut app_db, "tenant_acme", version).await.unwrap();
    assert_eq!(reached, version);
    let hash = loyalty::session::hash_password("admin-pass-1".into()).await.unwrap();
    loyalty::tenant::users::insert_admin(&app_db, &hash).await.unwrap();
    app.sql_with("update platform.companies set schema_version = $1 where prefix = 'acme'", &[&version]).await;
}

#[tokio::test]
async fn migrate_brings_every_tenant_up_to_date_and_reports_a_broken_one_without_stopping() {
    let app = spawn_app().await;
    for prefix in ["alpha", "bravo", "charlie", "delta"] {
        app.create_company(prefix).await;
    }
    let db = app.db().await;
    // bravo lost its tables (it will be migrated from scratch); delta is broken: its history is
    // gone but its tables are not, so its first migration cannot apply.
    db.batch_execute(
        "drop schema tenant_bravo cascade; create schema tenant_bravo authorization loyalty_app;
         update platform.companies set schema_version = null where prefix = 'bravo';
         drop table tenant_delta.refinery_schema_history;",
    )
    .await
    .unwrap();

    let all = format!("{:?}", loyalty::migrate::tenant_versions());
    let (dry_ok, dry) = run_migrate(&app.db_url, &["--dry-run"]);
    assert!(dry_ok, "{dry}");
    assert!(dry.contains(&format!("tenant bravo: would apply {all}")), "{dry}");
    assert!(dry.contains("tenant alpha: up to date"), "{dry}");
    assert_eq!(app.count("select count(*) from pg_tables where schemaname = 'tenant_bravo'").await, 0);

    let (ok, first) = run_migrate(&app.db_url, &["--concurrency", "2"]);
    assert!(!ok, "a failed tenant makes the exit code non-zero:\n{first}");
    assert!(first.contains(&format!("tenant bravo: applied {all}")), "{first}");
    assert!(first.contains("tenant alpha: up to date"), "{first}");
    assert!(first.contains("tenant delta: FAILED"), "{first}");
    assert!(first.contains("4 tenants: migrated 1, up to date 2, failed 1"), "{first}");
    assert_eq!(
        app.count("select schema_version::bigint from platform.companies where prefix = 'bravo'").await,
        i64::from(loyalty::migrate::latest_tenant_version())
    );
    assert!(app.count("select count(*) from tenant_bravo.users").await == 0);

    // Repair delta by hand; a second run has nothing left to do.
    db.batch_execute("drop schema tenant_delta cascade; create schema tenant_delta authorization loyalty_app;")
        .await
        .unwrap();
    let (ok, second) = run_migrate(&app.db_url, &[]);
    assert!(ok, "{second}");
    let (ok, third) = run_migrate(&app.db_url, &[]);
    assert!(ok, "{third}");
    assert!(third.contains("4 tenants: migrated 0, up to date 4, failed 0"), "{third}");
}

#[tokio::test]
async fn migrate_can_target_one_company() {
    let app = spawn_app().await;
    app.create_company("alpha").await;
    app.create_company("bravo").await;
    let (ok, out) = run_migrate(&app.db_url, &["--company", "bravo"]);
    assert!(ok, "{out}");
    assert!(out.contains("1 tenants"), "{out}");
    let (ok, out) = run_migrate(&app.db_url, &["--company", "nosuch"]);
    assert!(!ok, "{out}");
}

#[tokio::test]
async fn the_till_and_ledger_migration_clears_generated_sentences_and_keys_each_invoice_once() {
    let (app, admin) = spawn_acme().await;
    let db = app.db().await;
    // The company as a release before V6 left it, with a ledger written by older servers and
    // tills.
    acme_as_left_at(&app, 5).await;
    db.batch_execute(
        "update tenant_acme.settings set points_per_peso = 0.01, redemption_rate = 1;
         insert into tenant_acme.customers (id, document, name, points) values (1, '100', 'Ana', 0);
         insert into tenant_acme.products (id, code, name, points_value) values (1, 'TAZ', 'Taza', 10);
         insert into tenant_acme.transactions (id, type, points, customer_id, description, invoice_reference, product_id, is_voided) values
             (1, 'accreditation', 50, 1, 'Purchase of 5000 COP', 'FV-1', null, false),
             (2, 'accreditation', 50, 1, 'Purchase of 5000 COP', 'fv-1', null, false),
             (3, 'redemption', -10, 1, 'Redención de puntos', null, null, false),
             (4, 'redemption', -10, 1, 'Points redemption', null, null, false),
             (5, 'redemption', -10, 1, 'Taza', null, 1, false),
             (6, 'redemption', -10, 1, 'Bono de bienvenida', null, null, false),
             (7, 'expiration', -10, 1, 'Points expired (fifo policy)', null, null, false),
             (8, 'accreditation', 50, 1, 'Purchase of 5000 COP', 'FV-2', null, true),
             (9, 'cancellation', -50, 1, 'Cancellation of transaction #8', 'FV-2', null, false);
         select setval('tenant_acme.transactions_id_seq', 100);",
    )
    .await
    .unwrap();

    let (ok, output) = run_migrate(&app.db_url, &[]);
    assert!(ok, "{output}");
    let rows =
        db.query("select id, description, invoice_key from tenant_acme.transactions order by id", &[]).await.unwrap();
    let rows: Vec<(i64, Option<String>, Option<String>)> =
        rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect();
    assert_eq!(
        rows,
        [
            (1, None, Some("FV-1".to_string())),
            (2, None, None),
            (3, None, None),
            (4, None, None),
            (5, None, None),
            (6, Some("Bono de bienvenida".to_string()), None),
            (7, None, None),
            (8, None, None),
            (9, None, None),
        ]
    );
    // The invoice credited before stays credited; the voided one's reference is free.
    let accredit = |reference: &str| {
        let body = serde_json::json!({ "invoiceAmount": 1000, "invoiceReference": reference });
        app.post("/api/customers/1/accredit", &admin, body)
    };
    let again = accredit("Fv-1").await;
    assert_eq!(again.status, reqwest::StatusCode::CONFLICT, "{}", again.body);
    assert_eq!(again.body["params"]["transactionId"], "1");
    let freed = accredit("FV-2").await;
    assert_eq!(freed.status, reqwest::StatusCode::OK, "{}", freed.body);
}

#[tokio::test]
async fn the_shared_ids_migration_gives_every_new_record_an_id_past_those_its_tables_hold() {
    let (app, _) = spawn_acme().await;
    let db = app.db().await;
    // The company as the release before V36 left it: eleven sequences of their own, one of them
    // at 30.
    acme_as_left_at(&app, 34).await;
    db.batch_execute(
        "insert into tenant_acme.points_of_sale (name) select 'Caja ' || g from generate_series(1, 30) g;
         insert into tenant_acme.categories (name, icon) values ('Bebidas', 'cup');",
    )
    .await
    .unwrap();

    let (ok, output) = run_migrate(&app.db_url, &[]);
    assert!(ok, "{output}");
    assert_eq!(
        app.count(
            "select count(*) from pg_sequences where schemaname = 'tenant_acme' and sequencename like '%_id_seq'"
        )
        .await,
        4,
        "the ledger's, the batches', the customers' and the outbox's"
    );
    let admin = app.login_ok("admin@acme", "admin-pass-1").await;
    let pos = app.post("/api/pos", &admin, serde_json::json!({ "name": "Caja nueva" })).await;
    assert_eq!(pos.status, reqwest::StatusCode::CREATED, "{}", pos.body);
    let category = app.post("/api/categories", &admin, serde_json::json!({ "name": "Snacks", "icon": "Tag" })).await;
    assert_eq!(category.status, reqwest::StatusCode::CREATED, "{}", category.body);
    let ids = [pos.body["id"].as_i64().unwrap(), category.body["id"].as_i64().unwrap()];
    assert!(ids.iter().all(|&id| id > 30) && ids[0] != ids[1], "{ids:?}");
}
