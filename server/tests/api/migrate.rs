use std::process::Command;

use crate::helpers::spawn_app;

/// Every tenant migration version, as `loyalty migrate` lists them: `[1, 2, ...]`.
fn all_tenant_versions() -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tenant_migrations");
    let mut versions: Vec<i32> = std::fs::read_dir(dir)
        .expect("tenant_migrations")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_prefix('V')?.split_once("__")?.0.parse().ok()
        })
        .collect();
    versions.sort();
    format!("{versions:?}")
}

fn run_migrate(db_url: &str, extra: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_loyalty"))
        .arg("migrate")
        .args(extra)
        .env("DATABASE_URL", db_url)
        .env("RUST_LOG", "warn")
        .output()
        .expect("run loyalty migrate");
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
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
        "drop schema tenant_bravo cascade; create schema tenant_bravo;
         update platform.companies set schema_version = null where prefix = 'bravo';
         drop table tenant_delta.refinery_schema_history;",
    )
    .await
    .unwrap();

    let (dry_ok, dry) = run_migrate(&app.db_url, &["--dry-run"]);
    assert!(dry_ok, "{dry}");
    let all = all_tenant_versions();
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
    db.batch_execute("drop schema tenant_delta cascade; create schema tenant_delta;").await.unwrap();
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
