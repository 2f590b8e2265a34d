use chrono::{Duration, Utc};
use loyalty::db::TenantTx;
use loyalty::domain::Prefix;
use loyalty::points::expiration::{run_daily, run_daily_for_all};
use loyalty::points::store;

use super::support::*;
use crate::helpers::{spawn_app, spawn_app_with_pool};

#[tokio::test]
async fn the_daily_job_runs_each_company_once_a_day_even_when_two_processes_start_it_together() {
    let app = spawn_app().await;
    let acme = shop(&app, "acme").await;
    let globex = shop(&app, "globex").await;
    with_fifo_after_30_days(&app, &acme).await;
    sql(&app, &globex, "update settings set expiration_policy = 'inactivity', inactivity_days = 90").await;
    let now = bogota(2025, 6, 15, 1, 0);
    let ana = add_customer(&app, &acme, "1", None).await;
    let beto = add_customer(&app, &globex, "1", None).await;
    Clock::new(&app, &acme).await.earn(ana, 10_000, now - Duration::days(31)).await;
    Clock::new(&app, &globex).await.earn(beto, 20_000, now - Duration::days(91)).await;
    // An idempotency key older than a week (at the job's clock) goes; a recent one stays.
    sql(
        &app,
        &acme,
        "insert into idempotency_keys (key, user_id, operation, request_hash, status, response, created_at) values \
         ('old', 1, 'accredit', 'x', 200, '{}', '2025-06-07 12:00-05'), \
         ('new', 1, 'accredit', 'x', 200, '{}', '2025-06-14 12:00-05')",
    )
    .await;

    // Two servers start their daily pass at the same moment.
    let (a, b) = tokio::join!(run_daily_for_all(&app.state, now), run_daily_for_all(&app.state, now));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!((a.companies, b.companies), (2, 2));
    assert_eq!(a.ran + b.ran, 2, "each company ran once: {a:?} {b:?}");
    assert_eq!(a.failed + b.failed, 0);
    assert_eq!(a.points + b.points, 300);
    assert_eq!(balance(&app, &acme, ana).await, 0);
    assert_eq!(balance(&app, &globex, beto).await, 0);

    // Later the same day: nothing runs.
    let later = run_daily_for_all(&app.state, now + Duration::hours(20)).await.unwrap();
    assert_eq!(later.ran, 0);
    for shop in [&acme, &globex] {
        assert_eq!(number(&app, shop, "select count(*) from expiration_runs where trigger = 'daily'").await, 1);
        let audited =
            number(&app, shop, "select count(*) from audit_log where action = 'points.expire' and actor = 'system'")
                .await;
        assert_eq!(audited, 1);
    }
    assert_eq!(number(&app, &acme, "select count(*) from idempotency_keys").await, 1);

    // The next local day runs again, and expires nothing more.
    let next_day = run_daily_for_all(&app.state, now + Duration::days(1)).await.unwrap();
    assert_eq!((next_day.ran, next_day.points), (2, 0));
    assert_ledger_consistent(&app, &acme).await;
    assert_ledger_consistent(&app, &globex).await;
}

#[tokio::test]
async fn the_daily_job_runs_on_connections_of_its_own_and_leaves_the_request_pool_as_it_was() {
    let app = spawn_app_with_pool(1).await;
    let acme = shop(&app, "acme").await;
    with_fifo_after_30_days(&app, &acme).await;
    let now = bogota(2025, 6, 15, 1, 0);
    let ana = add_customer(&app, &acme, "1", None).await;
    Clock::new(&app, &acme).await.earn(ana, 10_000, now - Duration::days(31)).await;

    let summary = run_daily_for_all(&app.state, now).await.unwrap();
    assert_eq!((summary.ran, summary.points, summary.failed), (1, 100, 0));
    assert_eq!(balance(&app, &acme, ana).await, 0);

    // The pool's one connection served the sale, and none of the job's statements: a pass over
    // every company each hour would leave each one's in the backends that serve the tills.
    let pooled = app.state.pool.get().await.unwrap();
    let prepared = pooled
        .query_one(
            "select count(*) filter (where statement ~ 'insert into transactions'), \
                    count(*) filter (where statement ~ 'expiration_runs') \
             from pg_prepared_statements where statement !~ 'pg_prepared_statements'",
            &[],
        )
        .await
        .unwrap();
    let (sales, daily): (i64, i64) = (prepared.get(0), prepared.get(1));
    assert!(sales > 0, "the pooled connection is the one that served the company");
    assert_eq!(daily, 0, "the daily job prepared its statements on a pooled connection");
}

#[tokio::test]
async fn the_daily_run_skips_a_company_whose_expiration_is_running_elsewhere() {
    let app = spawn_app().await;
    let acme = shop(&app, "acme").await;
    let prefix = Prefix::parse("acme").unwrap();
    let now = Utc::now();

    let elsewhere = TenantTx::begin(&app.state.pool, &prefix).await.unwrap();
    assert!(store::lock_expiration(&elsewhere, false).await.unwrap());
    assert_eq!(run_daily(&app.state.pool, &prefix, now).await.unwrap(), None, "the lock is taken");
    drop(elsewhere);
    // The rollback of the dropped transaction releases its lock shortly.
    let mut ran = None;
    for _ in 0..50 {
        ran = run_daily(&app.state.pool, &prefix, now).await.unwrap();
        if ran.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(ran.is_some(), "the daily run happens once the lock is free");
    assert_eq!(run_daily(&app.state.pool, &prefix, now).await.unwrap(), None, "once a day");
    assert_eq!(number(&app, &acme, "select count(*) from expiration_runs where trigger = 'daily'").await, 1);
}
