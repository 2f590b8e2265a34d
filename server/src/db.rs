//! Connections: the request pool, dedicated connections for schema work, and the
//! per-request tenant transaction.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::ops::Deref;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context;
use deadpool_postgres::{Hook, HookError, Manager, ManagerConfig, Object, Pool, PoolError, RecyclingMethod, Runtime};
use tokio_postgres::{GenericClient, NoTls, Statement};

use crate::config::DbConfig;
use crate::domain::Prefix;
use crate::error::AppResult;

/// Schema that pooled connections point at by default. It never exists, so a query that forgot
/// its tenant scope fails loudly instead of reading some tenant's data.
pub const NO_TENANT_SCHEMA: &str = "loyalty_no_tenant";

/// What a company's data-access functions take: its open transaction, whose
/// [`prepare_cached`](TenantTx::prepare_cached) keeps the company's statements apart.
pub type Conn = TenantTx;

/// Parses a `postgres://` URL.
pub fn pg_config(url: &str) -> anyhow::Result<tokio_postgres::Config> {
    let mut cfg: tokio_postgres::Config = url.parse().context("DATABASE_URL is not a valid PostgreSQL URL")?;
    if cfg.get_application_name().is_none() {
        cfg.application_name("loyalty");
    }
    Ok(cfg)
}

/// What a pooled connection sets for its session before its first request: a `search_path` that
/// names no schema, and statements planned for each execution's parameters, which searches need
/// (a plan made once for any pattern walked a whole index: docs/performance.md); statements that
/// find rows by key keep one plan instead (`TenantTx::keep_plans`). Set by statements, not the
/// startup packet's options, which a pooler such as PgBouncer refuses. First it drops whatever
/// statements the backend still holds: behind a pooler that kept it, those of the server's last
/// run, whose names this run's statements would take; its catalog entries stay, and are what a
/// kept backend saves a restart.
///
/// Its first statement answers whether the backend had a session set up so before
/// ([`SERVED_MARK`]): one the pooler kept, which has served the companies whose home the
/// connection is.
fn session_setup() -> String {
    format!(
        "select current_setting('{SERVED_MARK}', true); deallocate all; \
         set search_path to {NO_TENANT_SCHEMA}; set plan_cache_mode to force_custom_plan; set {SERVED_MARK} to 'on'"
    )
}

/// A setting of the session that [`session_setup`] leaves on: a pooler that keeps a backend
/// between its clients keeps it too (PgBouncer's `DEALLOCATE ALL` reset does; `DISCARD ALL`
/// would not, and then the backend counts as new).
const SERVED_MARK: &str = "loyalty.served";

/// Sets up a new connection's session ([`session_setup`]); answers whether its backend had
/// served this server before.
async fn set_up_session(client: &tokio_postgres::Client) -> Result<bool, tokio_postgres::Error> {
    let messages = client.simple_query(&session_setup()).await?;
    Ok(messages.iter().any(|message| match message {
        tokio_postgres::SimpleQueryMessage::Row(row) => row.get(0) == Some("on"),
        _ => false,
    }))
}

/// One connection of the request pool, the `n`th, at the pool's URL for that number
/// ([`DbConfig::pool_url`]). It starts with [`session_setup`], recording in `kept` whether its
/// backend had served before, and is retired after `max_age`, since a backend caches catalog
/// entries of every schema it touched. The first connection ever opened records in `citus`
/// whether the database runs Citus.
fn connection(
    db: &DbConfig,
    n: usize,
    max_age: Duration,
    kept: Arc<[AtomicBool]>,
    citus: Arc<OnceLock<bool>>,
) -> anyhow::Result<Pool> {
    let cfg = match &db.pool_url {
        Some(url) => pg_config(&url.expose().replace("{n}", &n.to_string())).context("DB_POOL_URL")?,
        None => pg_config(db.url.expose())?,
    };
    let manager = Manager::from_config(cfg, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
    Pool::builder(manager)
        .post_create(Hook::async_fn(move |client, _| {
            let citus = citus.clone();
            let kept = kept.clone();
            Box::pin(async move {
                let served = set_up_session(client).await.map_err(HookError::Backend)?;
                kept[n].store(served, Ordering::Relaxed);
                if citus.get().is_none() {
                    let installed = crate::citus::installed(&**client).await.map_err(HookError::Backend)?;
                    let _ = citus.set(installed);
                }
                Ok(())
            })
        }))
        .max_size(1)
        .runtime(Runtime::Tokio1)
        .wait_timeout(Some(Duration::from_secs(10)))
        .create_timeout(Some(Duration::from_secs(10)))
        .recycle_timeout(Some(Duration::from_secs(5)))
        .pre_recycle(Hook::sync_fn(move |_, metrics| {
            if metrics.age() > max_age {
                Err(HookError::message("connection reached its maximum age"))
            } else {
                Ok(())
            }
        }))
        .build()
        .context("building the connection pool")
}

/// The request pool: single connections, each company's requests spread over a few of them.
///
/// A backend keeps the catalog entries of every schema it touched, and PostgreSQL 15 searches
/// some of them one by one on every update (docs/performance.md): at 1,000 companies, a pool whose
/// every connection served every company spent a quarter of the machine's CPU there. So a
/// company uses a window of consecutive connections starting at one its prefix hashes to, taking
/// the one with the most room. The window is as wide as keeps about
/// `COMPANIES_PER_CONNECTION` companies on each connection, counting the companies seen in the
/// last seconds, and never narrower than `min_choices`: one company alone uses the whole pool,
/// a thousand use two connections each, the second only for a request of a company that has
/// two in flight already or whose home connection is held too long ([`get_for`](Self::get_for)).
/// Platform work, which touches no tenant schema, takes the connection with the most room
/// (`Deref`).
#[derive(Clone)]
pub struct Pools {
    conns: Vec<Pool>,
    min_choices: usize,
    /// The statements a connection keeps before it drops them all and starts over
    /// (`DB_STATEMENTS_PER_CONNECTION`): each costs its backend about 27 kB with its plan.
    max_statements: usize,
    /// For each connection, the handout ([`handouts`](Self::handouts)) from which its next
    /// request counts its prepared statements ([`cap_statements`](Self::cap_statements)).
    count_due: Arc<[AtomicU64]>,
    /// How long a company's home connection may go without being handed to the next request,
    /// when many companies are active, before the requests waiting for it take another
    /// connection of their company's window (`DB_HOME_PATIENCE_MS`): longer than a sale holds a
    /// connection, so that sales queue at home however long the queue, and short enough that a
    /// slow report holds up the companies sharing its connection by no more.
    home_patience: Duration,
    /// How many times each connection was handed out for a company's request: a home connection
    /// whose count stands still for `home_patience` is held by one slow request.
    handouts: Arc<[AtomicU64]>,
    /// Each company's requests holding or waiting for a connection now.
    in_flight: Arc<Mutex<HashMap<Prefix, usize>>>,
    activity: Arc<Mutex<Activity>>,
    /// Whether the database is a Citus coordinator; set once a connection has been opened.
    citus: Arc<OnceLock<bool>>,
    /// For each connection, whether its backend had served this server before it connected:
    /// behind a pooler that keeps backends (`DB_POOL_URL`), after a restart.
    kept: Arc<[AtomicBool]>,
    /// Each active company's schema as its platform row names it, read at its first request
    /// ([`TenantTx::connect`]) and again after [`SCHEMA_NAME_KEPT`].
    schemas: Arc<Mutex<SchemaNames>>,
}

/// Each company's schema name as read, and when.
type SchemaNames = HashMap<Prefix, (Arc<str>, Instant)>;

/// How long a process trusts the schema name it read for a company. A name never changes while
/// its company lives; it can only be a deleted company's, whose prefix another company took
/// since, through another process (which forgets its own at once). A request of such a
/// company finds out at once ([`ACTIVE_COMPANY_CHECK`](crate::session::ACTIVE_COMPANY_CHECK)
/// compares the name); a background pass, within this time.
pub const SCHEMA_NAME_KEPT: Duration = Duration::from_secs(600);

/// Whether the company under a prefix is active in the transaction's schema (`current_schema()`
/// is null when the `search_path` names a schema that is gone).
const OWN_SCHEMA_ACTIVE_SQL: &str = "select 1 from platform.companies \
     where prefix = $1 and state = 'active' and schema_name = current_schema()";

/// The schema of an active company, by prefix.
const COMPANY_SCHEMA_SQL: &str = "select schema_name from platform.companies where prefix = $1 and state = 'active'";

/// The companies a connection should serve at most, when there are enough connections.
const COMPANIES_PER_CONNECTION: usize = 4;

/// A connection's requests count its prepared statements against `DB_STATEMENTS_PER_CONNECTION`
/// one in this many at most. Counting walks the connection's whole statement cache (deadpool's
/// `size()`): at 10,000 companies some 12,000 statements a connection, and done on every request
/// it took 42% of the server's CPU (docs/performance.md, "Where a company's creation goes at
/// 10,000 companies").
const COUNT_STATEMENTS_EVERY: usize = 16;

/// A connection that held `n` statements at its last count is counted again `n /` this many
/// requests later (never sooner than [`COUNT_STATEMENTS_EVERY`]): a request then pays the walk
/// of about this many statements, however many its connection keeps. Walking 8,000 statements
/// one request in 16 cost 1.2% of the machine's CPU at 10,000 companies (docs/performance.md,
/// "A request's cost and the companies its connection knows"). A connection may pass the cap
/// by what the requests between two counts prepare, then drops them all.
const STATEMENTS_WALKED_PER_REQUEST: usize = 64;

/// How many requests after a count of `counted` statements a connection's next count comes.
pub fn requests_until_next_count(counted: usize) -> usize {
    (counted / STATEMENTS_WALKED_PER_REQUEST).max(COUNT_STATEMENTS_EVERY)
}

/// How long the set of companies seen is collected before it starts over.
const ACTIVITY_WINDOW: Duration = Duration::from_secs(10);

/// A company's requests in flight that wait for its home connection when many companies are
/// active: one served and one waiting. A request beyond them takes the roomiest connection of the
/// company's window, so a busy company is not held to one connection; two at once are common
/// enough under a uniform load of thousands of companies that sending the second elsewhere made
/// each company meet a second backend sooner or later.
const AT_HOME_PER_COMPANY: usize = 2;

/// How often a request waiting for its company's home connection looks whether it changed hands.
const HANDOUT_CHECK_EVERY: Duration = Duration::from_millis(5);

/// Companies seen in the current window, and how many the previous window saw.
struct Activity {
    current: HashSet<Prefix>,
    previous: usize,
    since: Instant,
}

impl Pools {
    pub fn new(db: &DbConfig) -> anyhow::Result<Self> {
        let n = db.pool_size.max(1);
        let citus = Arc::new(OnceLock::new());
        let kept: Arc<[AtomicBool]> = (0..n).map(|_| AtomicBool::new(false)).collect();
        let conns = (0..n)
            .map(|i| connection(db, i, max_age(db.conn_max_age, i, n), kept.clone(), citus.clone()))
            .collect::<anyhow::Result<_>>()?;
        let activity = Activity { current: HashSet::new(), previous: 0, since: Instant::now() };
        Ok(Pools {
            conns,
            min_choices: db.min_choices,
            max_statements: db.statements_per_connection,
            count_due: (0..n).map(|_| AtomicU64::new(0)).collect(),
            home_patience: db.home_patience,
            handouts: (0..n).map(|_| AtomicU64::new(0)).collect(),
            in_flight: Arc::default(),
            activity: Arc::new(Mutex::new(activity)),
            citus,
            kept,
            schemas: Arc::default(),
        })
    }

    /// One connection of its own, opened when first asked for and closed when dropped, for a
    /// background pass over many companies ([`walk_lanes`]): each company it meets leaves its
    /// statements and catalog entries in that backend, which the request pool's backends are
    /// thereby spared.
    pub fn single(db: &DbConfig) -> anyhow::Result<Self> {
        Self::new(&DbConfig { pool_size: 1, pool_url: None, ..db.clone() })
    }

    /// Whether the database is a Citus coordinator (false until a connection was opened).
    pub fn citus(&self) -> bool {
        self.citus.get().copied().unwrap_or(false)
    }

    /// A connection for one company's request.
    ///
    /// With few companies, the one with the most room in the company's window. With many (each
    /// connection meeting more than `COMPANIES_PER_CONNECTION` of them), the company's home
    /// connection, waited for in turn behind the requests of the other companies it serves for
    /// as long as it keeps changing hands; another connection of the window only for a request
    /// of a company that has [`AT_HOME_PER_COMPANY`] in flight already, or once the home
    /// connection has been held by one request for `home_patience` (a slow report, say). Each
    /// connection that serves a company prepares its statements and builds its catalog entries,
    /// some 10 ms of PostgreSQL's CPU and half a megabyte of its memory, so a company kept to one
    /// connection under load costs the database once, where one that took whichever neighbour
    /// had room cost it on every connection of its window (docs/performance.md, "One connection
    /// a company").
    pub async fn get_for(&self, prefix: &Prefix) -> Result<Lease, PoolError> {
        let n = self.conns.len();
        let active = self.active_companies(prefix);
        let choices = choices(n, active, self.min_choices);
        let first = home(prefix, n);
        let (in_flight, others) = InFlight::add(&self.in_flight, prefix);
        if active > COMPANIES_PER_CONNECTION * n && others < AT_HOME_PER_COMPANY {
            if let Some(got) = self.wait_at_home(first).await {
                let kept = self.kept[first].load(Ordering::Relaxed);
                return Ok(Lease { conn: got?, index: first, kept, _in_flight: in_flight });
            }
        }
        let index = roomiest((0..choices).map(|i| (first + i) % n), |i| &self.conns[i]);
        let conn = self.conns[index].get().await?;
        self.handouts[index].fetch_add(1, Ordering::Relaxed);
        let kept = self.kept[index].load(Ordering::Relaxed);
        Ok(Lease { conn, index, kept, _in_flight: in_flight })
    }

    /// Waits for connection `index` as long as it keeps being handed from request to request;
    /// `None` once it has not been for `home_patience`, the request left unserved.
    async fn wait_at_home(&self, index: usize) -> Option<Result<Object, PoolError>> {
        let handouts = &self.handouts[index];
        let stalled = async {
            let mut seen = handouts.load(Ordering::Relaxed);
            let mut since = Instant::now();
            loop {
                tokio::time::sleep(HANDOUT_CHECK_EVERY).await;
                let now = handouts.load(Ordering::Relaxed);
                if now != seen {
                    (seen, since) = (now, Instant::now());
                } else if since.elapsed() >= self.home_patience {
                    return;
                }
            }
        };
        tokio::select! {
            got = self.conns[index].get() => {
                handouts.fetch_add(1, Ordering::Relaxed);
                Some(got)
            }
            () = stalled => None,
        }
    }

    /// The schema of `prefix`'s company as its platform row names it (read through `conn` the
    /// first time, then kept for [`SCHEMA_NAME_KEPT`]); [`NO_TENANT_SCHEMA`], and nothing kept,
    /// for a company that is not active, so that its statements find no table.
    async fn schema_for(&self, conn: &Lease, prefix: &Prefix) -> Result<Arc<str>, tokio_postgres::Error> {
        if let Some((schema, read)) = self.schemas.lock().unwrap_or_else(PoisonError::into_inner).get(prefix) {
            if read.elapsed() < SCHEMA_NAME_KEPT {
                return Ok(schema.clone());
            }
        }
        let stmt = conn.prepare_cached(COMPANY_SCHEMA_SQL).await?;
        let Some(row) = conn.query_opt(&stmt, &[&prefix.as_str()]).await? else {
            return Ok(Arc::from(NO_TENANT_SCHEMA));
        };
        let schema: Arc<str> = Arc::from(row.get::<_, String>(0));
        self.schemas
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(prefix.clone(), (schema.clone(), Instant::now()));
        Ok(schema)
    }

    /// Forgets the schema name read for `prefix`'s company: it was deleted, or its name did not
    /// match its row's. Answers whether one was kept.
    pub fn forget_schema(&self, prefix: &Prefix) -> bool {
        self.schemas.lock().unwrap_or_else(PoisonError::into_inner).remove(prefix).is_some()
    }

    /// Drops the statements a company request's connection keeps once they pass the cap,
    /// counting them only when the connection's count is due ([`requests_until_next_count`]).
    fn cap_statements(&self, lease: &Lease) {
        let handed = self.handouts[lease.index].load(Ordering::Relaxed);
        let due = &self.count_due[lease.index];
        if handed < due.load(Ordering::Relaxed) {
            return;
        }
        let mut counted = lease.statement_cache.size();
        if counted > self.max_statements {
            lease.statement_cache.clear();
            counted = 0;
        }
        due.store(handed + requests_until_next_count(counted) as u64, Ordering::Relaxed);
    }

    /// Records a request of `prefix`'s company; the number of companies active lately.
    fn active_companies(&self, prefix: &Prefix) -> usize {
        let mut activity = self.activity.lock().unwrap_or_else(PoisonError::into_inner);
        if activity.since.elapsed() >= ACTIVITY_WINDOW {
            activity.previous = activity.current.len();
            activity.current.clear();
            activity.since = Instant::now();
        }
        if !activity.current.contains(prefix) {
            activity.current.insert(prefix.clone());
        }
        activity.current.len().max(activity.previous)
    }

    /// Connections in use, idle, the most there may be, and requests waiting, over the pool.
    pub fn status(&self) -> deadpool_postgres::Status {
        self.conns.iter().map(Pool::status).fold(
            deadpool_postgres::Status { max_size: 0, size: 0, available: 0, waiting: 0 },
            |sum, s| deadpool_postgres::Status {
                max_size: sum.max_size + s.max_size,
                size: sum.size + s.size,
                available: sum.available + s.available,
                waiting: sum.waiting + s.waiting,
            },
        )
    }
}

impl Deref for Pools {
    type Target = Pool;

    /// The connection with the most room, for work outside any tenant schema.
    fn deref(&self) -> &Pool {
        &self.conns[roomiest(0..self.conns.len(), |i| &self.conns[i])]
    }
}

/// How many of `connections` a company may use when `active` companies share them.
fn choices(connections: usize, active: usize, min_choices: usize) -> usize {
    (COMPANIES_PER_CONNECTION * connections / active.max(1)).clamp(min_choices.clamp(1, connections), connections)
}

/// The age at which connection `i` of `connections` is retired: from `longest` for the first
/// down to three quarters of it for the last.
///
/// A retired connection's replacement meets its companies afresh: it prepares their statements
/// and builds their catalog entries again, which halves throughput while it lasts at a thousand
/// companies (docs/performance.md). Connections opened together at start-up would all retire
/// together; with lifetimes of their own they retire minutes apart, and drift further apart
/// with every replacement.
fn max_age(longest: Duration, i: usize, connections: usize) -> Duration {
    longest.mul_f64(1.0 - i as f64 / (4 * connections) as f64)
}

/// Of the connections `indexes`, the one with the most room; the first of those with as much.
fn roomiest<'a>(indexes: impl DoubleEndedIterator<Item = usize>, pool: impl Fn(usize) -> &'a Pool) -> usize {
    // `max_by_key` keeps the last of equals; reversed, that is the first.
    indexes.rev().max_by_key(|&i| room(pool(i))).expect("a pool has connections")
}

/// A pooled connection handed out for one company's request ([`Pools::get_for`]); it counts
/// among the company's requests in flight until dropped.
pub struct Lease {
    conn: Object,
    /// Which of the pool's connections it is.
    index: usize,
    /// Whether its backend had served this server before it connected ([`Lease::kept`]).
    kept: bool,
    _in_flight: InFlight,
}

impl Lease {
    /// Whether the connection's backend had served this server before the connection opened:
    /// a pooler kept it across a restart (docs/operations.md, "Backends that outlive a
    /// restart"), and it knows the companies whose home the connection is, their catalog
    /// entries, their foreign keys' checks and their tables' files, but none of their
    /// statements.
    pub fn kept(&self) -> bool {
        self.kept
    }
}

impl Deref for Lease {
    type Target = Object;

    fn deref(&self) -> &Object {
        &self.conn
    }
}

/// One request of a company counted in flight, for as long as it lives.
struct InFlight {
    counts: Arc<Mutex<HashMap<Prefix, usize>>>,
    prefix: Prefix,
}

impl InFlight {
    /// Counts a request of `prefix`'s company; answers it with how many of the company's were in
    /// flight before it.
    fn add(counts: &Arc<Mutex<HashMap<Prefix, usize>>>, prefix: &Prefix) -> (Self, usize) {
        let mut map = counts.lock().unwrap_or_else(PoisonError::into_inner);
        let count = map.entry(prefix.clone()).or_default();
        *count += 1;
        (InFlight { counts: counts.clone(), prefix: prefix.clone() }, *count - 1)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut map = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = map.get_mut(&self.prefix) {
            *count -= 1;
            if *count == 0 {
                map.remove(&self.prefix);
            }
        }
    }
}

/// Connections a pool could hand out now (idle, or not opened yet) less requests waiting.
fn room(pool: &Pool) -> isize {
    let status = pool.status();
    (status.available + status.max_size.saturating_sub(status.size)) as isize - status.waiting as isize
}

/// The first connection of a company's window (FNV-1a of the prefix), the same in every process.
fn home(prefix: &Prefix, connections: usize) -> usize {
    let hash = prefix
        .as_str()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    (hash % connections as u64) as usize
}

/// Companies a background pass serves on one connection before closing it: a backend keeps the
/// statements and catalog entries of every schema it met (about 1 MB a company: docs/performance.md,
/// "Ten thousand companies"), so none is kept for thousands.
pub const COMPANIES_PER_PASS_CONNECTION: usize = 250;

/// Splits a background pass's companies into the lanes it runs `concurrency` at a time, one
/// connection each: as many lanes as `concurrency` while they are few, lanes of at most
/// [`COMPANIES_PER_PASS_CONNECTION`] when they are many. Order is kept within a lane.
pub fn walk_lanes<T: Clone>(companies: &[T], concurrency: usize) -> Vec<Vec<T>> {
    let lane = companies.len().div_ceil(concurrency.max(1)).clamp(1, COMPANIES_PER_PASS_CONNECTION);
    companies.chunks(lane).map(<[T]>::to_vec).collect()
}

/// A connection of its own, outside the pool, for schema work (migrations, provisioning).
/// Dropping the client closes the connection, and with it any session state and advisory lock.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn connect_dedicated(url: &str) -> anyhow::Result<tokio_postgres::Client> {
    let cfg = pg_config(url)?;
    let (client, connection) = cfg.connect(NoTls).await.context("connecting to PostgreSQL")?;
    tokio::spawn(async move {
        if let Err(err) = connection.await {
            tracing::debug!(error = %err, "dedicated connection ended");
        }
    });
    Ok(client)
}

/// Whether the database answers (`/readyz`).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn ping(client: &tokio_postgres::Client) -> Result<(), tokio_postgres::Error> {
    client.query_one("select 1", &[]).await.map(|_| ())
}

/// The prefixes of the active companies, in order: the work list of everything done company by
/// company (migrations, the daily job, backups). The one place that says which companies are
/// active, with [`is_active_company`].
#[tracing::instrument(level = "debug", skip_all)]
pub async fn active_prefixes(client: &impl GenericClient) -> Result<Vec<Prefix>, tokio_postgres::Error> {
    let rows =
        client.query("select prefix from platform.companies where state = 'active' order by prefix", &[]).await?;
    Ok(rows.iter().map(|r| Prefix::from_trusted(r.get(0))).collect())
}

/// The schema of the company under this prefix, as its platform row names it, whatever its
/// state; `None` if there is no such company.
#[tracing::instrument(level = "debug", skip_all, fields(company = %prefix))]
pub async fn company_schema(
    client: &impl GenericClient,
    prefix: &Prefix,
) -> Result<Option<String>, tokio_postgres::Error> {
    Ok(client
        .query_opt("select schema_name from platform.companies where prefix = $1", &[&prefix.as_str()])
        .await?
        .map(|row| row.get(0)))
}

/// The active companies' prefixes and schemas, by prefix.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn active_schemas(client: &impl GenericClient) -> Result<HashMap<Prefix, String>, tokio_postgres::Error> {
    let rows = client.query("select prefix, schema_name from platform.companies where state = 'active'", &[]).await?;
    Ok(rows.iter().map(|r| (Prefix::from_trusted(r.get(0)), r.get(1))).collect())
}

/// Whether a company is active under this prefix.
#[tracing::instrument(level = "debug", skip_all, fields(company = %prefix))]
pub async fn is_active_company(client: &impl GenericClient, prefix: &Prefix) -> Result<bool, tokio_postgres::Error> {
    Ok(client
        .query_opt("select 1 from platform.companies where prefix = $1 and state = 'active'", &[&prefix.as_str()])
        .await?
        .is_some())
}

/// How many companies are active, for the metrics.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn active_companies(client: &tokio_postgres::Client) -> Result<i64, tokio_postgres::Error> {
    Ok(client.query_one("select count(*) from platform.companies where state = 'active'", &[]).await?.get(0))
}

/// Quotes an SQL identifier.
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The schema a company made without a spare gets: `tenant_<prefix>`. A company's schema is
/// the one its platform row names (`schema_name`): a company made from a spare keeps the
/// spare's (`platform::spares`), so read it with [`company_schema`] or [`active_schemas`].
pub fn tenant_schema(prefix: &Prefix) -> String {
    format!("tenant_{}", prefix.as_str())
}

/// What [`TenantTx::keep_plans`] sends.
const KEEP_PLANS: &str = "set local plan_cache_mode = force_generic_plan";

/// A null of any type: the parameters [`TenantTx::plan_statements`] binds.
#[derive(Debug)]
struct Null;

impl tokio_postgres::types::ToSql for Null {
    fn to_sql(
        &self,
        _: &tokio_postgres::types::Type,
        _: &mut bytes::BytesMut,
    ) -> Result<tokio_postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        Ok(tokio_postgres::types::IsNull::Yes)
    }

    fn accepts(_: &tokio_postgres::types::Type) -> bool {
        true
    }

    tokio_postgres::types::to_sql_checked!();
}

/// An open transaction on a pooled connection whose `search_path` is one tenant's schema,
/// for this transaction only. Commit it explicitly; dropping it rolls back before the
/// connection goes back to the pool.
pub struct TenantTx {
    conn: Option<Lease>,
    prefix: Prefix,
    /// The company's schema, as its platform row names it.
    schema: Arc<str>,
    /// `/* tenant_x */ `, the start of the company's statements' text.
    tag: String,
    /// Statements may keep their plans ([`keep_plans`](Self::keep_plans)): not on Citus.
    plans_kept: bool,
    /// Whether the company has webhook endpoints, as this transaction read it with its settings
    /// ([`note_webhook_endpoints`](Self::note_webhook_endpoints)): unknown until then.
    webhook_endpoints: AtomicU8,
}

/// [`TenantTx::webhook_endpoints`]: not read yet, none, some.
const ENDPOINTS_UNKNOWN: u8 = 0;
const ENDPOINTS_NONE: u8 = 1;
const ENDPOINTS_SOME: u8 = 2;

impl TenantTx {
    pub async fn begin(pools: &Pools, prefix: &Prefix) -> AppResult<Self> {
        let tx = Self::connect(pools, prefix).await?;
        tx.start().await?;
        Ok(tx)
    }

    /// A connection for the company whose transaction is not started yet: [`start`](Self::start)
    /// it before anything else, or together with the first statement ([`pipeline`]).
    pub async fn connect(pools: &Pools, prefix: &Prefix) -> AppResult<Self> {
        let conn = pools.get_for(prefix).await?;
        pools.cap_statements(&conn);
        let schema = pools.schema_for(&conn, prefix).await?;
        let tag = format!("/* {schema} */ ");
        Ok(TenantTx {
            conn: Some(conn),
            prefix: prefix.clone(),
            schema,
            tag,
            plans_kept: !pools.citus(),
            webhook_endpoints: AtomicU8::new(ENDPOINTS_UNKNOWN),
        })
    }

    /// Records whether the company has webhook endpoints, as read in this transaction.
    pub fn note_webhook_endpoints(&self, any: bool) {
        let known = if any { ENDPOINTS_SOME } else { ENDPOINTS_NONE };
        self.webhook_endpoints.store(known, Ordering::Relaxed);
    }

    /// Whether this transaction read that the company has no webhook endpoints: an event then
    /// has no outbox to go to, and a sale skips the statement that would find none (a round trip
    /// and a relation fewer: docs/performance.md, "A sale of fewer statements").
    pub fn has_no_webhook_endpoints(&self) -> bool {
        self.webhook_endpoints.load(Ordering::Relaxed) == ENDPOINTS_NONE
    }

    /// Prepares a statement for this company on this connection, or finds it prepared.
    ///
    /// Each company has statements of its own (their text starts with a comment naming its
    /// schema): PostgreSQL analyses a prepared statement again, and plans it again, whenever it
    /// runs under another `search_path` than last time, and a pooled connection serves several
    /// companies. So a company's statement always runs under its own `search_path` and can keep
    /// its plan ([`keep_plans`](Self::keep_plans)).
    pub async fn prepare_cached(&self, sql: &str) -> Result<Statement, tokio_postgres::Error> {
        let conn = self.conn.as_ref().expect("transaction already finished");
        conn.prepare_cached(&self.tagged(sql)).await
    }

    /// `sql` as this company's statement: its text starts with the company's tag.
    fn tagged(&self, sql: &str) -> String {
        format!("{}{sql}", self.tag)
    }

    /// The company's schema as this transaction's `search_path`; the name comes from the
    /// platform's row and is quoted, and `set local` lasts until the transaction ends.
    fn search_path_sql(&self) -> String {
        format!("set local search_path to {}", quote_ident(&self.schema))
    }

    /// Plans this company's statements `sqls` on the connection its requests use, as its first
    /// sale would, without running them, and rolls back: each is prepared (or found prepared)
    /// and bound with null parameters under the plans a sale keeps, and PostgreSQL plans a
    /// statement when it is bound. The company's catalog entries are read on the way.
    ///
    /// Binding needs no statement's name, so a company costs the same however many the connection
    /// knows already. Reading the names from `pg_prepared_statements` copied out every statement
    /// the backend kept, for each company: a connection's warm-up slowed down the more companies
    /// it had met (docs/performance.md, "A warm-up that does not slow down").
    ///
    /// Answers whether the connection's backend had served this server before ([`Lease::kept`]).
    pub async fn plan_statements(pools: &Pools, prefix: &Prefix, sqls: &[&str]) -> AppResult<bool> {
        let mut tenant = Self::connect(pools, prefix).await?;
        // A statement is bound only inside tokio-postgres's own transaction: the connection
        // leaves `tenant`, which then has nothing to roll back.
        let mut lease = tenant.conn.take().expect("a transaction just connected");
        let mut setup = tenant.search_path_sql();
        if tenant.plans_kept {
            setup = format!("{setup}; {KEEP_PLANS}");
        }
        let tx = lease.conn.transaction().await?;
        tx.batch_execute(&setup).await?;
        let texts: Vec<String> = sqls.iter().map(|sql| tenant.tagged(sql)).collect();
        let statements = futures::future::try_join_all(texts.iter().map(|text| tx.prepare_cached(text))).await?;
        let nulls: Vec<Vec<&(dyn tokio_postgres::types::ToSql + Sync)>> =
            statements.iter().map(|statement| vec![&Null as _; statement.params().len()]).collect();
        let portals = futures::future::try_join_all(
            statements.iter().zip(&nulls).map(|(statement, nulls)| tx.bind(statement, nulls)),
        )
        .await?;
        drop(portals);
        tx.rollback().await?;
        Ok(lease.kept())
    }

    /// Lets the statements run after it in this transaction keep one plan for every execution,
    /// made the first time, instead of being planned at each (the pool's default). For
    /// statements that find rows by key, whose best plan does not depend on the values; not
    /// for searches, whose plans must fit their patterns and filters.
    ///
    /// On Citus it does nothing: the coordinator cannot route some statements (a CTE over
    /// parameter arrays, say) from a plan made without the values, and the worker that runs a
    /// routed statement plans it again anyway (docs/scaling.md).
    pub async fn keep_plans(&self) -> AppResult<()> {
        if self.plans_kept {
            self.batch_execute(KEEP_PLANS).await?;
        }
        Ok(())
    }

    /// Undoes [`keep_plans`](Self::keep_plans) for the statements run after it.
    pub async fn plan_each_time(&self) -> AppResult<()> {
        if self.plans_kept {
            self.batch_execute("set local plan_cache_mode = force_custom_plan").await?;
        }
        Ok(())
    }

    /// The company whose transaction this is.
    pub fn prefix(&self) -> &Prefix {
        &self.prefix
    }

    /// Whether the company is active and its schema is this transaction's, the one its platform
    /// row names. When it is not active, or this process's name for its schema is no longer its
    /// row's (the company was deleted and its prefix taken since, through another process), the
    /// name is forgotten so that the next transaction reads it again.
    pub async fn company_is_active(&self, pools: &Pools) -> Result<bool, tokio_postgres::Error> {
        let stmt = self.prepare_cached(OWN_SCHEMA_ACTIVE_SQL).await?;
        let active = self.query_opt(&stmt, &[&self.prefix.as_str()]).await?.is_some();
        if !active {
            pools.forget_schema(&self.prefix);
        }
        Ok(active)
    }

    /// Whether an active company was found under the prefix (its schema named): when not, the
    /// transaction's `search_path` names no schema and its statements find no table.
    pub fn company_found(&self) -> bool {
        &*self.schema != NO_TENANT_SCHEMA
    }

    /// The company's schema, as its platform row named it when this process read it.
    pub fn schema(&self) -> &str {
        &self.schema
    }

    /// Starts the transaction; sent when first polled.
    pub async fn start(&self) -> AppResult<()> {
        let sql = format!("begin; {}", self.search_path_sql());
        self.batch_execute(&sql).await?;
        Ok(())
    }

    pub async fn commit(mut self) -> AppResult<()> {
        let conn = self.conn.take().expect("transaction already finished");
        conn.batch_execute("commit").await?;
        Ok(())
    }

    /// Rolls back now and gives the connection back, as dropping does in the background.
    pub async fn rollback(mut self) -> AppResult<()> {
        let conn = self.conn.take().expect("transaction already finished");
        if let Err(err) = conn.batch_execute("rollback").await {
            let _ = Object::take(conn.conn);
            return Err(err.into());
        }
        Ok(())
    }
}

/// Runs several statements of one transaction in one round trip: `requests` (a join of futures
/// that each run one statement, polled in order, such as `futures::future::try_join3`) once the
/// `statements` they use are prepared.
///
/// A request goes out when its future is first polled, and PostgreSQL runs them one after the
/// other in that order, each seeing what the ones before it did, as if awaited one by one. A
/// statement not prepared yet would go out only after its preparation's round trip, behind the
/// requests after it: hence `statements` first (one round trip for all of them, and only where
/// this connection has not prepared them for the company yet). In debug builds, a statement
/// missing from `statements` panics.
///
/// When one request fails, the transaction is aborted and the ones after it fail too; the join
/// answers the first error.
pub async fn pipeline<T>(
    conn: &Conn,
    statements: &[&str],
    requests: impl Future<Output = AppResult<T>>,
) -> AppResult<T> {
    futures::future::try_join_all(statements.iter().map(|sql| conn.prepare_cached(sql))).await?;
    // Counting walks the whole statement cache: in debug builds only.
    #[cfg(debug_assertions)]
    let prepared = conn.statement_cache.size();
    let output = requests.await;
    #[cfg(debug_assertions)]
    debug_assert_eq!(conn.statement_cache.size(), prepared, "a pipelined statement was not in `statements`");
    output
}

impl Deref for TenantTx {
    type Target = Object;

    fn deref(&self) -> &Object {
        self.conn.as_ref().expect("transaction already finished")
    }
}

impl Drop for TenantTx {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            // Roll back before the connection returns to the pool; a connection that cannot
            // roll back is closed and never reused.
            if let Ok(handle) = tokio::runtime::Handle::try_current() {
                handle.spawn(async move {
                    if conn.batch_execute("rollback").await.is_err() {
                        let _ = Object::take(conn.conn);
                    }
                });
            } else {
                let _ = Object::take(conn.conn);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn companies_spread_evenly_over_the_connections_and_always_to_the_same_first_one() {
        let prefixes: Vec<Prefix> = (1..=1000).map(|n| Prefix::parse(&format!("b{n}")).unwrap()).collect();
        let mut counts = [0usize; 16];
        for prefix in &prefixes {
            counts[home(prefix, 16)] += 1;
            assert_eq!(home(prefix, 16), home(&Prefix::parse(prefix.as_str()).unwrap(), 16));
        }
        assert!(counts.iter().all(|&c| (40..=85).contains(&c)), "{counts:?}");
        assert!(prefixes.iter().all(|p| home(p, 1) == 0));
    }

    #[test]
    fn a_pass_runs_few_companies_side_by_side_and_many_in_lanes_of_bounded_length() {
        let lanes = |n: usize, concurrency| walk_lanes(&(0..n).collect::<Vec<_>>(), concurrency);
        assert!(lanes(0, 4).is_empty());
        assert_eq!(lanes(2, 4), vec![vec![0], vec![1]]);
        assert_eq!(lanes(10, 4), vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7, 8], vec![9]]);
        let many = lanes(10_000, 4);
        assert_eq!(many.len(), 40);
        assert!(many.iter().all(|lane| lane.len() == COMPANIES_PER_PASS_CONNECTION));
        assert_eq!(many.concat(), (0..10_000).collect::<Vec<_>>());
        assert_eq!(lanes(3, 0), vec![vec![0, 1, 2]]);
    }

    #[test]
    fn connections_retire_at_ages_of_their_own_from_the_longest_down_to_three_quarters_of_it() {
        let longest = Duration::from_secs(1800);
        let ages: Vec<Duration> = (0..16).map(|i| max_age(longest, i, 16)).collect();
        assert_eq!(ages[0], longest);
        assert!(ages.windows(2).all(|pair| pair[1] < pair[0]), "{ages:?}");
        assert!(ages[15] > longest.mul_f64(0.75), "{ages:?}");
        assert!(longest - ages[15] > Duration::from_secs(400), "the last retires minutes before the first: {ages:?}");
        assert_eq!(max_age(longest, 0, 1), longest);
    }

    #[test]
    fn few_companies_share_the_whole_pool_and_many_use_a_few_connections_each() {
        assert_eq!(choices(16, 1, 2), 16);
        assert_eq!(choices(16, 0, 2), 16);
        assert_eq!(choices(16, 4, 2), 16);
        assert_eq!(choices(16, 10, 2), 6);
        assert_eq!(choices(16, 40, 2), 2);
        assert_eq!(choices(16, 1000, 2), 2);
        assert_eq!(choices(16, 1000, 4), 4);
        assert_eq!(choices(16, 1000, 40), 16);
        assert_eq!(choices(1, 1000, 2), 1);
        assert_eq!(choices(16, 1000, 0), 1);
    }
}
