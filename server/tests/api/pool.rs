//! Which pooled connection a company's request gets: with many companies active, its own one
//! (each connection that serves a company prepares its statements and holds its catalog
//! entries), waiting a little for it rather than spreading over its neighbours.

use std::time::Duration;

use loyalty::config::{DbConfig, Secret};
use loyalty::db::{Pools, TenantTx, COUNT_STATEMENTS_EVERY};
use loyalty::domain::Prefix;

/// A request pool of four connections on the test server, waiting `patience` for a busy home.
fn pools(patience: Duration) -> Pools {
    let url = std::env::var("DATABASE_URL").expect("DATABASE_URL must point at a PostgreSQL server");
    sized_pools(url, 4, 4_000, patience)
}

fn sized_pools(url: String, pool_size: usize, statements_per_connection: usize, patience: Duration) -> Pools {
    Pools::new(&DbConfig {
        url: Secret::new(url),
        pool_size,
        min_choices: 2,
        conn_max_age: Duration::from_secs(600),
        statements_per_connection,
        home_patience: patience,
    })
    .expect("pool")
}

fn prefix(name: &str) -> Prefix {
    Prefix::parse(name).expect("a valid prefix")
}

/// The PostgreSQL backend behind a connection the pool handed out for `company`.
async fn backend(connection: &deadpool_postgres::Object) -> i32 {
    connection.query_one("select pg_backend_pid()", &[]).await.expect("pid").get(0)
}

/// Makes the pool see `count` companies asking, more than its connections serve comfortably.
async fn many_companies_ask(pools: &Pools, count: usize) {
    for n in 0..count {
        drop(pools.get_for(&prefix(&format!("crowd{n}"))).await.expect("connection"));
    }
}

#[tokio::test]
async fn with_many_companies_a_request_waits_for_its_companys_own_connection() {
    let pools = pools(Duration::from_secs(30));
    many_companies_ask(&pools, 40).await;
    let company = prefix("shopone");
    let held = pools.get_for(&company).await.unwrap();
    let home = backend(&held).await;

    let waiting = {
        let pools = pools.clone();
        let company = company.clone();
        tokio::spawn(async move {
            let connection = pools.get_for(&company).await.unwrap();
            backend(&connection).await
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!waiting.is_finished(), "the request took another connection while its own was busy");
    drop(held);
    let got = tokio::time::timeout(Duration::from_secs(10), waiting).await.expect("served").unwrap();
    assert_eq!(got, home, "the request went to another connection than its company's own");
}

/// Holds `company`'s home connection (a slow report, say) while the company asks again, and
/// checks that the request is served, by another connection, well before the held one is free.
async fn served_by_a_neighbour_while_home_is_held(pools: &Pools, company: &str) {
    let company = prefix(company);
    let held = pools.get_for(&company).await.unwrap();
    let home = backend(&held).await;
    let other = tokio::time::timeout(Duration::from_secs(10), pools.get_for(&company))
        .await
        .expect("the request waited for its company's busy connection without end")
        .unwrap();
    assert_ne!(backend(&other).await, home);
    drop(held);
}

#[tokio::test]
async fn with_many_companies_a_request_takes_a_neighbour_once_its_patience_runs_out() {
    let pools = pools(Duration::from_millis(50));
    many_companies_ask(&pools, 40).await;
    served_by_a_neighbour_while_home_is_held(&pools, "shoptwo").await;
}

#[tokio::test]
async fn a_company_alone_spreads_over_the_pool_without_waiting() {
    // A patience far longer than the test waits: a company alone must not use it.
    let pools = pools(Duration::from_secs(30));
    served_by_a_neighbour_while_home_is_held(&pools, "shopalone").await;
}

/// The cap on a connection's prepared statements holds though it is counted only every few
/// requests: a connection passes it by at most the statements of those requests, then drops them.
#[tokio::test]
async fn a_connection_keeps_about_as_many_statements_as_its_cap() {
    let cap = 5;
    // On a platform's database: a company's first transaction reads its schema's name there.
    let app = crate::helpers::spawn_app().await;
    let pools = sized_pools(app.db_url.clone(), 1, cap, Duration::from_millis(20));
    let company = prefix("capped");
    let mut most = 0;
    for n in 0..COUNT_STATEMENTS_EVERY * 6 {
        let tx = TenantTx::connect(&pools, &company).await.expect("connection");
        tx.prepare_cached(&format!("select {n}")).await.expect("prepared");
        most = most.max(tx.statement_cache.size());
    }
    assert!(most <= cap + COUNT_STATEMENTS_EVERY, "{most} statements kept on a connection capped at {cap}");
}
