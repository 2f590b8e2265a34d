//! Which pooled connection a company's request gets: with many companies active, its own one
//! (each connection that serves a company prepares its statements and holds its catalog
//! entries), waited for in turn rather than spreading over its neighbours, unless it is held by
//! one slow request or the company has a request in flight already.

use std::time::Duration;

use loyalty::config::{DbConfig, Secret};
use loyalty::db::{requests_until_next_count, Pools, TenantTx};
use loyalty::domain::Prefix;

use crate::helpers::server_url;

/// A request pool of four connections on the test server, waiting `patience` for a busy home.
fn pools(patience: Duration) -> Pools {
    sized_pools(server_url(), 4, 4_000, patience)
}

fn sized_pools(url: String, pool_size: usize, statements_per_connection: usize, patience: Duration) -> Pools {
    pools_at(url, None, pool_size, statements_per_connection, patience)
}

fn pools_at(
    url: String,
    pool_url: Option<String>,
    pool_size: usize,
    statements_per_connection: usize,
    patience: Duration,
) -> Pools {
    Pools::new(&DbConfig {
        url: Secret::new(url),
        pool_url: pool_url.map(Secret::new),
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

/// `count` companies other than `company` whose requests the pool sends to the same home
/// connection, found by asking while the pool is idle.
async fn sharing_its_home(pools: &Pools, company: &Prefix, count: usize) -> Vec<Prefix> {
    let home = backend(&pools.get_for(company).await.unwrap()).await;
    let mut found = Vec::new();
    for n in 0.. {
        let other = prefix(&format!("{company}mate{n}"));
        if backend(&pools.get_for(&other).await.unwrap()).await == home {
            found.push(other);
            if found.len() == count {
                return found;
            }
        }
    }
    unreachable!()
}

#[tokio::test]
async fn with_many_companies_a_request_waits_for_its_companys_own_connection() {
    let pools = pools(Duration::from_secs(30));
    many_companies_ask(&pools, 40).await;
    let company = prefix("shopone");
    let [neighbour] = sharing_its_home(&pools, &company, 1).await.try_into().unwrap();
    let held = pools.get_for(&neighbour).await.unwrap();
    let home = backend(&held).await;

    let waiting = {
        let pools = pools.clone();
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

/// Under load a company's home connection is seldom free when its request comes: the request
/// waits its turn behind other companies' short requests, however long the queue, as long as the
/// connection keeps changing hands. Taking a neighbour instead made it meet the company (its
/// statements prepared, its catalog entries read) and, at 10,000 companies, kept every backend
/// meeting companies for the first time (docs/performance.md, "One connection a company").
#[tokio::test]
async fn with_many_companies_a_request_waits_its_turn_behind_short_requests_longer_than_its_patience() {
    let patience = Duration::from_millis(60);
    let pools = pools(patience);
    many_companies_ask(&pools, 40).await;
    let company = prefix("shopfour");
    let neighbours = sharing_its_home(&pools, &company, 6).await;
    let home = backend(&pools.get_for(&company).await.unwrap()).await;

    // Six short requests of other companies queue for the same connection, each holding it for
    // less than the patience: the queue lasts six times longer.
    let (queued_tx, mut queued) = tokio::sync::mpsc::unbounded_channel();
    let queue: Vec<_> = neighbours
        .into_iter()
        .map(|neighbour| {
            let (pools, queued_tx) = (pools.clone(), queued_tx.clone());
            tokio::spawn(async move {
                let _ = queued_tx.send(());
                let connection = pools.get_for(&neighbour).await.unwrap();
                tokio::time::sleep(Duration::from_millis(40)).await;
                drop(connection);
            })
        })
        .collect();
    for _ in 0..6 {
        queued.recv().await;
    }
    tokio::time::sleep(Duration::from_millis(20)).await;

    let asked = std::time::Instant::now();
    let connection = pools.get_for(&company).await.unwrap();
    let waited = asked.elapsed();
    assert_eq!(backend(&connection).await, home, "the request took a neighbour after waiting {waited:?}");
    assert!(waited > 2 * patience, "the queue was served in {waited:?}: the test needs one longer than the patience");
    for request in queue {
        request.await.unwrap();
    }
}

/// Holds `company`'s home connection with a request of another company sharing it (a slow
/// report, say) while the company asks, and checks that the request is served, by another
/// connection, well before the held one is free.
async fn served_by_a_neighbour_while_home_is_held(pools: &Pools, company: &str) {
    let company = prefix(company);
    let [neighbour] = sharing_its_home(pools, &company, 1).await.try_into().unwrap();
    let held = pools.get_for(&neighbour).await.unwrap();
    let home = backend(&held).await;
    let other = tokio::time::timeout(Duration::from_secs(10), pools.get_for(&company))
        .await
        .expect("the request waited for its company's busy connection without end")
        .unwrap();
    assert_ne!(backend(&other).await, home);
    drop(held);
}

#[tokio::test]
async fn with_many_companies_a_request_takes_a_neighbour_once_its_home_is_held_past_the_patience() {
    let pools = pools(Duration::from_millis(50));
    many_companies_ask(&pools, 40).await;
    served_by_a_neighbour_while_home_is_held(&pools, "shoptwo").await;
}

/// A company's second request in flight waits at its home connection with the rest; a third
/// uses the rest of its window at once: one busy company is not held to one connection, and its
/// neighbours do not queue behind all of its requests.
#[tokio::test]
async fn with_many_companies_a_companys_third_request_in_flight_takes_another_connection_at_once() {
    let pools = pools(Duration::from_secs(30));
    many_companies_ask(&pools, 40).await;
    let company = prefix("shopfive");
    let first = pools.get_for(&company).await.unwrap();
    let home = backend(&first).await;
    let second = {
        let (pools, company) = (pools.clone(), company.clone());
        tokio::spawn(async move { backend(&pools.get_for(&company).await.unwrap()).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!second.is_finished(), "the company's second request left its home connection");
    let third = tokio::time::timeout(Duration::from_secs(1), pools.get_for(&company))
        .await
        .expect("the third request waited for the company's busy connection")
        .unwrap();
    assert_ne!(backend(&third).await, home);
    drop(first);
    assert_eq!(second.await.unwrap(), home);
}

#[tokio::test]
async fn a_company_alone_spreads_over_the_pool_without_waiting() {
    // A patience far longer than the test waits: a company alone must not use it.
    let pools = pools(Duration::from_secs(30));
    let company = prefix("shopalone");
    let held = pools.get_for(&company).await.unwrap();
    let other = tokio::time::timeout(Duration::from_secs(10), pools.get_for(&company))
        .await
        .expect("the request waited for a busy connection")
        .unwrap();
    assert_ne!(backend(&other).await, backend(&held).await);
}

/// The cap on a connection's prepared statements holds though it is counted only now and then,
/// the less often the more statements the connection held at its last count: a connection passes
/// it by at most the statements of the requests between two counts, then drops them.
#[tokio::test]
async fn a_connection_keeps_about_as_many_statements_as_its_cap() {
    // On a platform's database: a company's first transaction reads its schema's name there.
    let app = crate::helpers::spawn_app().await;
    for cap in [5, 2_000] {
        let pools = sized_pools(app.db_url.clone(), 1, cap, Duration::from_millis(20));
        let company = prefix("capped");
        let (mut most, mut drops, mut before) = (0, 0, 0);
        for n in 0..cap + 6 * requests_until_next_count(cap) {
            let tx = TenantTx::connect(&pools, &company).await.expect("connection");
            tx.prepare_cached(&format!("select {n}")).await.expect("prepared");
            let kept = tx.statement_cache.size();
            drops += usize::from(kept < before);
            (most, before) = (most.max(kept), kept);
        }
        let bound = cap + requests_until_next_count(cap);
        assert!(most <= bound, "{most} statements kept on a connection capped at {cap}");
        assert!(drops >= 1, "a connection capped at {cap} never dropped its statements");
    }
}

/// The PgBouncer of `deploy/pgbouncer-local.sh` in front of the test server's database, one
/// backend kept for each of `connections` numbers; stopped when dropped.
struct Pooler {
    dir: tempfile::TempDir,
    /// The request pool's URL through it (`DB_POOL_URL`).
    pool_url: String,
}

impl Pooler {
    fn start(connections: usize) -> Self {
        let cfg = loyalty::db::pg_config(&server_url()).expect("DATABASE_URL");
        let port = cfg.get_ports().first().copied().unwrap_or(5432);
        let user = cfg.get_user().expect("DATABASE_URL names a user").to_string();
        let database = cfg.get_dbname().unwrap_or(&user).to_string();
        let dir = tempfile::tempdir().expect("a folder");
        let listen = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let started = std::process::Command::new("bash")
            .arg(Self::script())
            .arg("start")
            .arg(dir.path())
            .args([listen.to_string(), port.to_string(), connections.to_string(), database, user.clone()])
            .status()
            .expect("bash");
        assert!(started.success(), "PgBouncer did not start (apt-get install pgbouncer)");
        Pooler { dir, pool_url: format!("postgres://{user}@127.0.0.1:{listen}/loyalty_{{n}}") }
    }

    fn script() -> std::path::PathBuf {
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../deploy/pgbouncer-local.sh")
    }
}

impl Drop for Pooler {
    fn drop(&mut self) {
        let _ = std::process::Command::new("bash").arg(Self::script()).arg("stop").arg(self.dir.path()).status();
    }
}

/// The backend each of `companies` meets at home, with many companies active, each having
/// prepared a statement there as a sale would.
async fn home_backends(pools: &Pools, companies: &[Prefix]) -> Vec<i32> {
    many_companies_ask(pools, 40).await;
    let mut backends = Vec::new();
    for company in companies {
        let connection = pools.get_for(company).await.expect("connection");
        connection.prepare_cached(&format!("select '{company}'")).await.expect("prepare");
        backends.push(backend(&connection).await);
    }
    backends
}

/// A restart behind the pooler: the new pool's connections each meet the backend its number had,
/// so each company's requests find the backend that knows it (its catalog entries, its foreign
/// keys' checks), and the last run's statements are gone from it, whose names the new run's
/// would take; the session is set up as on a new backend, and the connection knows its backend
/// was kept, so the warm-up plans the company's statements without rehearsing a sale.
#[tokio::test]
async fn behind_a_pooler_a_restarted_pool_meets_each_company_on_the_backend_that_served_it() {
    let url = server_url();
    let pooler = Pooler::start(4);
    let companies: Vec<Prefix> = (0..8).map(|n| prefix(&format!("kept{n}"))).collect();
    let pooled = || pools_at(url.clone(), Some(pooler.pool_url.clone()), 4, 4_000, Duration::from_secs(30));

    let first = pooled();
    assert!(!first.get_for(&companies[0]).await.expect("connection").kept(), "a new backend counted as kept");
    let before = home_backends(&first, &companies).await;
    drop(first);

    let second = pooled();
    let connection = second.get_for(&companies[0]).await.expect("connection");
    assert!(connection.kept(), "the backend the pooler kept counted as new: the warm-up would rehearse its sales");
    let kept: i64 = connection
        .query_one("select count(*) from pg_prepared_statements where statement like $1", &[&"select 'kept%"])
        .await
        .unwrap()
        .get(0);
    assert_eq!(kept, 0, "the last run's statements were left on the backend");
    let path: String = connection.query_one("show search_path", &[]).await.unwrap().get(0);
    assert_eq!(path, loyalty::db::NO_TENANT_SCHEMA);
    drop(connection);
    assert_eq!(home_backends(&second, &companies).await, before);

    // Without the pooler, a new pool meets new backends: what a restart costs otherwise.
    let direct = pools_at(url.clone(), None, 4, 4_000, Duration::from_secs(30));
    assert!(!direct.get_for(&companies[0]).await.expect("connection").kept());
    let fresh = home_backends(&direct, &companies).await;
    assert!(fresh.iter().all(|pid| !before.contains(pid)));
}
