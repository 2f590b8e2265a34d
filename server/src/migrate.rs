//! Schema migrations: the platform schema, and every tenant schema with its own history table.
//! Each schema migrates on a dedicated connection under an advisory lock of its own, since
//! refinery takes no lock; the connection is closed afterwards, never returned to the pool.
//! A migration's statements run one per execution ([`statements`]), in one transaction.

use std::time::{Duration, Instant};

use anyhow::Context;
use refinery::Migration;
use refinery_core::traits::r#async as refinery_async;

use crate::db::{self, quote_ident};
use crate::domain::Prefix;

pub mod statements;
pub mod template;

mod platform_embedded {
    refinery::embed_migrations!("../platform_migrations");
}

mod tenant_embedded {
    refinery::embed_migrations!("../tenant_migrations");
}

/// Refinery's history table, created inside each schema it tracks.
pub const HISTORY_TABLE: &str = "refinery_schema_history";

const PLATFORM_LOCK_KEY: i64 = 0x4C59_4D49_4752_0001;

fn schema_lock_sql(schema: &str) -> String {
    format!("select pg_advisory_lock(hashtextextended('loyalty-migrate:{schema}', 0))")
}

/// A connection on which refinery applies a migration one statement per execution, in one
/// transaction: Citus cannot forward a text of several DDL statements to its workers
/// (docs/scaling.md). Each statement goes out through the extended protocol, which refuses a
/// text of two statements on any PostgreSQL, so a file the cut got wrong fails everywhere.
pub struct OneStatementPerExecution<'a>(pub &'a mut tokio_postgres::Client);

/// Why applying a migration failed.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    #[error(transparent)]
    Split(#[from] statements::SplitError),
    #[error("{statement}: {source}")]
    Statement { statement: String, source: tokio_postgres::Error },
    #[error(transparent)]
    Db(#[from] tokio_postgres::Error),
}

impl refinery_async::AsyncTransaction for OneStatementPerExecution<'_> {
    type Error = ApplyError;

    async fn execute<'a, T: Iterator<Item = &'a str> + Send + 'a>(&mut self, queries: T) -> Result<usize, ApplyError> {
        let tx = self.0.transaction().await?;
        let mut count = 0;
        for query in queries {
            for statement in statements::split(query)? {
                tx.execute(statement, &[]).await.map_err(|source| ApplyError::Statement {
                    statement: statements::first_line(statement).chars().take(80).collect(),
                    source,
                })?;
            }
            count += 1;
        }
        tx.commit().await?;
        Ok(count)
    }
}

impl refinery_async::AsyncQuery<Vec<Migration>> for OneStatementPerExecution<'_> {
    async fn query(&mut self, query: &str) -> Result<Vec<Migration>, ApplyError> {
        Ok(refinery_async::AsyncQuery::<Vec<Migration>>::query(&mut *self.0, query).await?)
    }
}

impl refinery::AsyncMigrate for OneStatementPerExecution<'_> {}

/// Brings the platform schema up to date.
///
/// On Citus with schema-based sharding on, `create schema` (even of an existing schema, with
/// `if not exists`) would make `platform` a distributed schema living on one worker; the
/// platform stays a regular schema of the coordinator, so this session turns sharding off. On
/// PostgreSQL without Citus the setting is an inert placeholder.
pub async fn run_platform_migrations(database_url: &str) -> anyhow::Result<Vec<i32>> {
    let mut client = db::connect_dedicated(database_url).await?;
    client.execute("select pg_advisory_lock($1)", &[&PLATFORM_LOCK_KEY]).await?;
    client.batch_execute("set citus.enable_schema_based_sharding = off").await?;
    crate::citus::keep_platform_local(&client).await?;
    client.batch_execute("create schema if not exists platform; set search_path to platform").await?;
    let report = platform_embedded::migrations::runner()
        .set_migration_table_name(HISTORY_TABLE)
        .run_async(&mut OneStatementPerExecution(&mut client))
        .await
        .context("migrating the platform schema")?;
    Ok(report.applied_migrations().iter().map(|m| m.version()).collect())
}

/// Brings one tenant schema, `schema`, up to date on `client` and answers its version. Leaves
/// the connection's session `search_path` on the tenant; the caller drops or resets it.
pub async fn run_tenant_migrations(client: &mut tokio_postgres::Client, schema: &str) -> anyhow::Result<i32> {
    Ok(migrate_schema_on(client, schema, &[]).await?.version)
}

/// Brings one tenant schema up to `version` and no further: a company as an older release left
/// it, for tests of the migrations that follow. Leaves the session `search_path` on the tenant.
pub async fn run_tenant_migrations_to(
    client: &mut tokio_postgres::Client,
    schema: &str,
    version: i32,
) -> anyhow::Result<i32> {
    client.batch_execute(&format!("set search_path to {}", quote_ident(schema))).await?;
    let runner = tenant_runner(&[]).set_target(refinery::Target::Version(version));
    runner.run_async(&mut OneStatementPerExecution(client)).await?;
    let last = runner.get_last_applied_migration_async(client).await?;
    Ok(last.map(|m| m.version()).unwrap_or(0))
}

/// Every tenant migration version this build knows, in order.
pub fn tenant_versions() -> Vec<i32> {
    let mut versions: Vec<i32> =
        tenant_embedded::migrations::runner().get_migrations().iter().map(|m| m.version()).collect();
    versions.sort();
    versions
}

/// The newest tenant migration this build knows.
pub fn latest_tenant_version() -> i32 {
    tenant_embedded::migrations::runner().get_migrations().iter().map(|m| m.version()).max().unwrap_or(0)
}

struct TenantOutcome {
    applied: Vec<i32>,
    version: i32,
}

/// The tenant migrations built into the binary, followed by `extra` ones.
fn tenant_runner(extra: &[refinery::Migration]) -> refinery::Runner {
    let mut runner = if extra.is_empty() {
        tenant_embedded::migrations::runner()
    } else {
        let mut all = tenant_embedded::migrations::runner().get_migrations().clone();
        all.extend(extra.iter().cloned());
        refinery::Runner::new(&all)
    };
    runner.set_migration_table_name(HISTORY_TABLE);
    runner
}

async fn migrate_schema_on(
    client: &mut tokio_postgres::Client,
    schema: &str,
    extra: &[refinery::Migration],
) -> anyhow::Result<TenantOutcome> {
    client.batch_execute(&schema_lock_sql(schema)).await?;
    client.batch_execute(&format!("set search_path to {}", quote_ident(schema))).await?;
    let runner = tenant_runner(extra);
    let report = runner.run_async(&mut OneStatementPerExecution(client)).await?;
    let applied: Vec<i32> = report.applied_migrations().iter().map(|m| m.version()).collect();
    let version = runner.get_last_applied_migration_async(client).await?.map(|m| m.version()).unwrap_or(0);
    client.execute(&format!("select pg_advisory_unlock(hashtextextended('loyalty-migrate:{schema}', 0))"), &[]).await?;
    Ok(TenantOutcome { applied, version })
}

/// Brings the tenant template (`template::TEMPLATE_SCHEMA`) to the newest tenant migration and
/// reads it into the script that makes a new company's schema. `None` when the template cannot be
/// copied exactly (it holds a kind of object the script does not make, or a migration this build
/// does not know): the company is then made by running the migrations.
pub async fn tenant_template(database_url: &str) -> anyhow::Result<Option<template::Template>> {
    let mut client = db::connect_dedicated(database_url).await?;
    if crate::citus::installed(&client).await? {
        // A Citus coordinator distributes each new schema as it is made, statement by statement.
        return Ok(None);
    }
    let schema = template::TEMPLATE_SCHEMA;
    client.batch_execute(&schema_lock_sql(schema)).await?;
    client.batch_execute(&format!("create schema if not exists {}", quote_ident(schema))).await?;
    let outcome = migrate_schema_on(&mut client, schema, &[]).await?;
    if outcome.version != latest_tenant_version() {
        tracing::warn!(version = outcome.version, "the tenant template is at a migration this build does not know");
        return Ok(None);
    }
    match template::read(&client, outcome.version).await {
        Ok(template) => Ok(Some(template)),
        Err(err) => {
            tracing::warn!(error = %err, "the tenant template cannot be copied: companies are made by migrating");
            Ok(None)
        }
    }
}

/// Versions a tenant schema still lacks.
async fn pending_for(
    client: &mut tokio_postgres::Client,
    schema: &str,
    extra: &[refinery::Migration],
) -> anyhow::Result<Vec<i32>> {
    client.batch_execute(&format!("set search_path to {}", quote_ident(schema))).await?;
    let runner = tenant_runner(extra);
    let has_history: bool =
        client.query_one(&format!("select to_regclass('{HISTORY_TABLE}') is not null"), &[]).await?.get(0);
    let applied: Vec<i32> = if has_history {
        runner.get_applied_migrations_async(client).await?.iter().map(|m| m.version()).collect()
    } else {
        Vec::new()
    };
    let mut pending: Vec<i32> =
        runner.get_migrations().iter().map(|m| m.version()).filter(|v| !applied.contains(v)).collect();
    // Embedded migrations come in file-name order (V10 before V2): listed in the order they apply.
    pending.sort_unstable();
    Ok(pending)
}

/// What `loyalty migrate` does.
#[derive(Clone, Debug, Default)]
pub struct MigrateOptions {
    pub concurrency: usize,
    pub only: Option<Prefix>,
    pub dry_run: bool,
    /// Tenant migrations applied after the built-in ones, read from a folder at run time: for
    /// rehearsing an upgrade on a copy of the database (the benchmark times one this way).
    pub extra_tenant_migrations: Vec<refinery::Migration>,
}

/// The outcome of migrating one tenant.
#[derive(Debug)]
pub struct TenantResult {
    pub prefix: String,
    pub applied: Vec<i32>,
    pub elapsed: Duration,
    pub error: Option<String>,
}

#[derive(Debug, Default)]
pub struct MigrateSummary {
    pub platform_applied: Vec<i32>,
    pub tenants: Vec<TenantResult>,
    pub elapsed: Duration,
}

impl MigrateSummary {
    pub fn failed(&self) -> usize {
        self.tenants.iter().filter(|t| t.error.is_some()).count()
    }
}

/// How many tenant schemas one statement checks for pending migrations.
const CHECK_CHUNK: usize = 500;

/// The history a schema holds once every migration of `runner` is applied: `version:checksum`,
/// in order, comma-separated, as [`check_chunk`] reads it from a schema.
fn expected_history(runner: &refinery::Runner) -> String {
    let mut migrations: Vec<(i32, u64)> = runner.get_migrations().iter().map(|m| (m.version(), m.checksum())).collect();
    migrations.sort();
    migrations.iter().map(|(v, c)| format!("{v}:{c}")).collect::<Vec<_>>().join(",")
}

/// Each schema's history in the form of [`expected_history`], for many schemas in one round
/// trip: one small statement each (a `union all` of hundreds took PostgreSQL seconds to plan).
/// Fails as a whole if any of them has no history table: the caller then looks at them one by
/// one.
async fn check_chunk(
    client: &tokio_postgres::Client,
    companies: &[(Prefix, String)],
) -> Result<Vec<String>, tokio_postgres::Error> {
    let sql: String = companies
        .iter()
        .map(|(_, schema)| {
            format!(
                "select coalesce(string_agg(version || ':' || checksum, ',' order by version), '') from {}.{HISTORY_TABLE};",
                quote_ident(schema)
            )
        })
        .collect();
    let messages = client.simple_query(&sql).await?;
    Ok(messages
        .iter()
        .filter_map(|m| match m {
            tokio_postgres::SimpleQueryMessage::Row(row) => Some(row.get(0).unwrap_or_default().to_string()),
            _ => None,
        })
        .collect())
}

/// Which schemas hold exactly the `expected` history, read on `connections` connections at once.
async fn up_to_date(
    database_url: &str,
    companies: &[(Prefix, String)],
    expected: &str,
    connections: usize,
) -> anyhow::Result<Vec<bool>> {
    let share = companies.len().div_ceil(connections.max(1)).max(1);
    let parts = companies.chunks(share).map(|part| async move {
        let client = db::connect_dedicated(database_url).await?;
        let mut answers = Vec::with_capacity(part.len());
        for chunk in part.chunks(CHECK_CHUNK) {
            match check_chunk(&client, chunk).await {
                Ok(histories) if histories.len() == chunk.len() => {
                    answers.extend(histories.iter().map(|h| h == expected));
                }
                Ok(_) | Err(_) => answers.extend(std::iter::repeat_n(false, chunk.len())),
            }
        }
        anyhow::Ok(answers)
    });
    let answers = futures::future::try_join_all(parts).await?;
    Ok(answers.into_iter().flatten().collect())
}

/// Migrates the platform schema (stopping on failure), then every active tenant. The tenants
/// with nothing to apply are found first, many schemas to a statement, by their history (each
/// version and checksum, so an edited migration still counts as pending and refinery reports
/// it). The others go through a work queue with bounded concurrency, each worker on one
/// dedicated connection that it keeps from schema to schema. One failed tenant does not stop
/// the others.
pub async fn migrate_all(database_url: &str, opts: &MigrateOptions) -> anyhow::Result<MigrateSummary> {
    let started = Instant::now();
    let platform_applied = if opts.dry_run { Vec::new() } else { run_platform_migrations(database_url).await? };
    let client = db::connect_dedicated(database_url).await?;
    // Each active company and its schema, in the order of their prefixes.
    let mut companies: Vec<(Prefix, String)> = db::active_schemas(&client).await?.into_iter().collect();
    companies.sort();
    if let Some(only) = &opts.only {
        companies.retain(|(prefix, _)| prefix == only);
        if companies.is_empty() {
            anyhow::bail!("no active company with prefix '{only}'");
        }
    }
    let prefixes = companies;
    let total = prefixes.len();
    let concurrency = opts.concurrency.max(1);
    let dry_run = opts.dry_run;
    let extra = opts.extra_tenant_migrations.as_slice();
    let runner = tenant_runner(extra);
    let expected = expected_history(&runner);
    let target = runner.get_migrations().iter().map(|m| m.version()).max().unwrap_or(0);

    // Which schemas are up to date, many at a time.
    let checking = Instant::now();
    let current = up_to_date(database_url, &prefixes, &expected, concurrency.min(4)).await?;
    let mut tenants = Vec::with_capacity(total);
    let mut pending = Vec::new();
    let mut up_to_date = Vec::new();
    let each = checking.elapsed() / total.max(1) as u32;
    for ((prefix, schema), current) in prefixes.into_iter().zip(current) {
        if current {
            println!("[{}/{total}] tenant {prefix}: up to date (checked with others)", tenants.len() + 1);
            up_to_date.push(prefix.as_str().to_string());
            tenants.push(TenantResult { prefix: prefix.to_string(), applied: Vec::new(), elapsed: each, error: None });
        } else {
            pending.push((prefix, schema));
        }
    }
    println!(
        "[{}/{total}] checked in {:.1} s: {} up to date, {} to look at",
        total,
        checking.elapsed().as_secs_f64(),
        tenants.len(),
        pending.len()
    );
    if !dry_run && !up_to_date.is_empty() {
        // The platform's record of their version, where it lags (a copy made before a rollout).
        client
            .execute(
                "update platform.companies set schema_version = $2 \
                 where prefix = any($1) and schema_version is distinct from $2",
                &[&up_to_date, &target],
            )
            .await?;
    }
    drop(client);

    // The others, through a queue served by `concurrency` workers with a connection each.
    let checked = tenants.len();
    let queue = std::sync::Mutex::new(std::collections::VecDeque::from(pending));
    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<TenantResult>();
    let worker = |sender: tokio::sync::mpsc::UnboundedSender<TenantResult>| {
        let queue = &queue;
        async move {
            let mut client: Option<tokio_postgres::Client> = None;
            loop {
                let Some((prefix, schema)) = queue.lock().expect("queue").pop_front() else { break };
                let started = Instant::now();
                let outcome = async {
                    if client.is_none() {
                        client = Some(db::connect_dedicated(database_url).await?);
                    }
                    let conn = client.as_mut().expect("connected");
                    if dry_run {
                        pending_for(conn, &schema, extra).await
                    } else {
                        let outcome = migrate_schema_on(conn, &schema, extra).await?;
                        conn.execute(
                            "update platform.companies set schema_version = $2 where prefix = $1",
                            &[&prefix.as_str(), &outcome.version],
                        )
                        .await?;
                        Ok(outcome.applied)
                    }
                }
                .await;
                let (applied, error) = match outcome {
                    Ok(applied) => (applied, None),
                    Err(err) => {
                        // Whatever the failure left on the connection (a lock, a transaction)
                        // goes with it.
                        client = None;
                        (Vec::new(), Some(format!("{err:#}")))
                    }
                };
                let result = TenantResult { prefix: prefix.to_string(), applied, elapsed: started.elapsed(), error };
                if sender.send(result).is_err() {
                    break;
                }
            }
        }
    };
    let workers = futures::future::join_all((0..concurrency).map(|_| worker(sender.clone())));
    drop(sender);
    let report = async {
        let mut done = checked;
        while let Some(result) = receiver.recv().await {
            done += 1;
            let status = match (&result.error, dry_run) {
                (Some(err), _) => format!("FAILED: {err}"),
                (None, true) if result.applied.is_empty() => "up to date".to_string(),
                (None, true) => format!("would apply {:?}", result.applied),
                (None, false) if result.applied.is_empty() => "up to date".to_string(),
                (None, false) => format!("applied {:?}", result.applied),
            };
            println!("[{done}/{total}] tenant {}: {status} ({} ms)", result.prefix, result.elapsed.as_millis());
            tenants.push(result);
        }
    };
    futures::join!(workers, report);
    Ok(MigrateSummary { platform_applied, tenants, elapsed: started.elapsed() })
}
