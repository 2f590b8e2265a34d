//! Citus schema-based sharding (docs/scaling.md): what the server does differently on a Citus
//! coordinator, and what the operator's `loyalty citus` commands do.
//!
//! Each company's schema is a distributed schema living whole on one worker; `platform` stays a
//! regular schema of the coordinator. Converting a schema (distributing it, or bringing it back
//! for a restore) first locks all its tables in one statement: Citus's conversion takes their
//! locks one by one, which deadlocked with requests that hold some of them.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use tokio_postgres::error::SqlState;
use tokio_postgres::GenericClient;

use crate::db::{self, tenant_schema};
use crate::domain::Prefix;

/// The schema of `prefix`'s company, as its platform row names it (`tenant_<prefix>` when there
/// is no row: on Citus every company is made by its migrations, in that schema).
async fn schema_of(client: &impl GenericClient, prefix: &Prefix) -> anyhow::Result<String> {
    Ok(db::company_schema(client, prefix).await?.unwrap_or_else(|| tenant_schema(prefix)))
}

/// How long a schema conversion waits for the company's tables; requests queue behind it
/// meanwhile, so it gives up rather than hold them longer.
const CONVERSION_LOCK_TIMEOUT: &str = "10s";

/// Whether the connected database has the `citus` extension.
pub async fn installed(client: &impl GenericClient) -> Result<bool, tokio_postgres::Error> {
    client
        .query_one("select exists (select 1 from pg_extension where extname = 'citus')", &[])
        .await
        .map(|row| row.get(0))
}

/// Makes sure `platform` is a regular schema of the coordinator. An earlier start with
/// schema-based sharding on may have registered it as a distributed schema, which lives on one
/// worker; it is brought back.
pub async fn keep_platform_local(client: &impl GenericClient) -> anyhow::Result<()> {
    if !installed(client).await? {
        return Ok(());
    }
    if is_distributed(client, "platform").await? {
        tracing::warn!("the platform schema was distributed: bringing it back to the coordinator");
        client.execute("select citus_schema_undistribute('platform')", &[]).await?;
    }
    Ok(())
}

/// Logs whether the database is a Citus coordinator, and whether new companies land on workers.
pub async fn log_mode(database_url: &str) -> anyhow::Result<()> {
    let client = db::connect_dedicated(database_url).await?;
    if !installed(&client).await? {
        return Ok(());
    }
    let sharding: String =
        client.query_one("select current_setting('citus.enable_schema_based_sharding')", &[]).await?.get(0);
    if sharding == "on" {
        tracing::info!("Citus coordinator: each new company's schema is placed on a worker");
    } else {
        tracing::warn!(
            "Citus coordinator with citus.enable_schema_based_sharding off: new companies stay on the coordinator \
             (docs/scaling.md)"
        );
    }
    Ok(())
}

/// A node of the cluster as `host:port`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NodeAddr {
    pub host: String,
    pub port: i32,
}

impl FromStr for NodeAddr {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> anyhow::Result<Self> {
        let (host, port) = s.rsplit_once(':').context("a node is written host:port")?;
        let port = port.parse().context("a node's port is a number")?;
        if host.is_empty() {
            bail!("a node is written host:port");
        }
        Ok(NodeAddr { host: host.to_string(), port })
    }
}

impl fmt::Display for NodeAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.host, self.port)
    }
}

/// Whether `schema` is registered as a distributed schema.
async fn is_distributed(client: &impl GenericClient, schema: &str) -> Result<bool, tokio_postgres::Error> {
    let row = client
        .query_one("select exists (select 1 from pg_dist_schema where schemaid = to_regnamespace($1))", &[&schema])
        .await?;
    Ok(row.get(0))
}

/// The node holding a distributed schema's tables; none for a regular schema (on the
/// coordinator) or a distributed one without tables.
pub async fn node_of(client: &impl GenericClient, schema: &str) -> Result<Option<NodeAddr>, tokio_postgres::Error> {
    let row = client
        .query_opt(
            "select n.nodename, n.nodeport from pg_dist_schema s \
             join pg_dist_partition t on t.colocationid = s.colocationid \
             join pg_dist_shard sh on sh.logicalrelid = t.logicalrelid \
             join pg_dist_placement pl on pl.shardid = sh.shardid \
             join pg_dist_node n on n.groupid = pl.groupid \
             where s.schemaid = to_regnamespace($1) limit 1",
            &[&schema],
        )
        .await?;
    Ok(row.map(|row| NodeAddr { host: row.get(0), port: row.get(1) }))
}

/// Locks every table of `schema` for the rest of the transaction, in one statement.
async fn lock_tables(tx: &tokio_postgres::Transaction<'_>, schema: &str) -> anyhow::Result<()> {
    tx.batch_execute(&format!("set local lock_timeout = '{CONVERSION_LOCK_TIMEOUT}'")).await?;
    let tables: Vec<String> = tx
        .query(
            "select format('%I.%I', n.nspname, c.relname) from pg_class c \
             join pg_namespace n on n.oid = c.relnamespace \
             where n.nspname = $1 and c.relkind in ('r', 'p') order by c.relname",
            &[&schema],
        )
        .await?
        .iter()
        .map(|row| row.get(0))
        .collect();
    if !tables.is_empty() {
        tx.batch_execute(&format!("lock table {} in access exclusive mode", tables.join(", "))).await.with_context(
            || format!("locking the tables of {schema} (requests held them for {CONVERSION_LOCK_TIMEOUT})"),
        )?;
    }
    Ok(())
}

/// Makes a company's regular schema (on the coordinator) a distributed schema on a worker, its
/// rows copied there and removed from the coordinator. Requests wait while it runs.
pub async fn distribute(client: &mut tokio_postgres::Client, prefix: &Prefix) -> anyhow::Result<()> {
    convert_schema(
        client,
        prefix,
        &[
            "select citus_schema_distribute($1::text::regnamespace)",
            // The coordinator keeps the copied rows on disk, unseen, until told.
            "select truncate_local_data_after_distributing_table(c.oid) from pg_class c \
             where c.relnamespace = $1::text::regnamespace and c.relkind = 'r'",
        ],
    )
    .await
}

/// Brings a company's distributed schema back to the coordinator as a regular schema, its rows
/// with it. Requests wait while it runs.
pub async fn undistribute(client: &mut tokio_postgres::Client, prefix: &Prefix) -> anyhow::Result<()> {
    convert_schema(client, prefix, &["select citus_schema_undistribute($1::text::regnamespace)"]).await
}

/// Runs `statements` (each given the schema's name as `$1`) in one transaction that first takes
/// the schema's tables from requests.
async fn convert_schema(
    client: &mut tokio_postgres::Client,
    prefix: &Prefix,
    statements: &[&str],
) -> anyhow::Result<()> {
    let schema = schema_of(client, prefix).await?;
    let tx = client.transaction().await?;
    lock_tables(&tx, &schema).await?;
    for statement in statements {
        tx.execute(*statement, &[&schema]).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A cluster node and the companies it holds.
#[derive(Debug)]
pub struct NodeStatus {
    pub addr: NodeAddr,
    pub coordinator: bool,
    pub should_have_shards: bool,
    pub active: bool,
}

/// Where one company's schema is, and its size there.
#[derive(Debug)]
pub struct CompanyStatus {
    pub prefix: String,
    pub state: String,
    /// None: a regular schema on the coordinator.
    pub node: Option<NodeAddr>,
    pub bytes: i64,
}

/// What `loyalty citus status` shows.
#[derive(Debug)]
pub struct ClusterStatus {
    pub sharding_on: bool,
    pub platform_local: bool,
    pub nodes: Vec<NodeStatus>,
    pub companies: Vec<CompanyStatus>,
}

/// Reads the cluster's nodes and every company's node and size.
pub async fn status(client: &impl GenericClient) -> anyhow::Result<ClusterStatus> {
    if !installed(client).await? {
        bail!("this database has no citus extension: it is not a Citus coordinator");
    }
    let sharding: String =
        client.query_one("select current_setting('citus.enable_schema_based_sharding')", &[]).await?.get(0);
    let platform_local = !is_distributed(client, "platform").await?;
    let nodes = client
        .query(
            "select nodename, nodeport, groupid = 0, shouldhaveshards, isactive from pg_dist_node \
             where noderole = 'primary' order by groupid, nodeid",
            &[],
        )
        .await?
        .iter()
        .map(|row| NodeStatus {
            addr: NodeAddr { host: row.get(0), port: row.get(1) },
            coordinator: row.get(2),
            should_have_shards: row.get(3),
            active: row.get(4),
        })
        .collect();
    // Distributed schemas: their node and the size of their shards there (asked of every
    // worker once). Regular schemas: the size of their tables on the coordinator.
    let distributed = client
        .query(
            "select s.schemaid::regnamespace::text, sh.nodename, sh.nodeport, sum(sh.shard_size)::bigint \
             from pg_dist_schema s join citus_shards sh on sh.colocation_id = s.colocationid \
             group by 1, 2, 3",
            &[],
        )
        .await?;
    let local = client
        .query(
            "select n.nspname::text, coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint from pg_namespace n \
             left join pg_class c on c.relnamespace = n.oid and c.relkind = 'r' \
             where n.nspname like 'tenant\\_%' group by 1",
            &[],
        )
        .await?;
    let companies =
        client.query("select prefix, state, schema_name from platform.companies order by prefix", &[]).await?;
    let companies = companies
        .iter()
        .map(|row| {
            let prefix: String = row.get(0);
            let schema: String = row.get(2);
            let placed = distributed.iter().find(|d| d.get::<_, String>(0) == schema);
            let (node, bytes) = match placed {
                Some(d) => (Some(NodeAddr { host: d.get(1), port: d.get(2) }), d.get(3)),
                None => (None, local.iter().find(|l| l.get::<_, String>(0) == schema).map_or(0, |l| l.get(1))),
            };
            CompanyStatus { prefix, state: row.get(1), node, bytes }
        })
        .collect();
    Ok(ClusterStatus { sharding_on: sharding == "on", platform_local, nodes, companies })
}

impl fmt::Display for ClusterStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "schema-based sharding for new companies: {}", if self.sharding_on { "on" } else { "OFF" })?;
        writeln!(
            f,
            "platform schema: {}",
            if self.platform_local { "on the coordinator" } else { "DISTRIBUTED (run loyalty migrate)" }
        )?;
        writeln!(f, "\nnodes:")?;
        for node in &self.nodes {
            let held: Vec<&CompanyStatus> = self
                .companies
                .iter()
                .filter(|c| c.node.as_ref() == Some(&node.addr) || (node.coordinator && c.node.is_none()))
                .collect();
            let role = if node.coordinator { "coordinator" } else { "worker" };
            let flags = match (node.active, node.should_have_shards) {
                (false, _) => ", inactive",
                (true, false) if !node.coordinator => ", takes no new companies",
                _ => "",
            };
            writeln!(
                f,
                "  {:<22} {role:<12} {:>5} companies {:>10}{flags}",
                node.addr.to_string(),
                held.len(),
                size(held.iter().map(|c| c.bytes).sum())
            )?;
        }
        writeln!(f, "\ncompanies:")?;
        writeln!(f, "  {:<31} {:<22} {:>10}  state", "prefix", "node", "size")?;
        for company in &self.companies {
            let node = company.node.as_ref().map_or_else(|| "coordinator (local)".to_string(), NodeAddr::to_string);
            writeln!(f, "  {:<31} {node:<22} {:>10}  {}", company.prefix, size(company.bytes), company.state)?;
        }
        Ok(())
    }
}

/// Bytes for people: kB, MB or GB with one decimal.
pub fn size(bytes: i64) -> String {
    let bytes = bytes as f64;
    if bytes >= 1e9 {
        format!("{:.1} GB", bytes / 1e9)
    } else if bytes >= 1e6 {
        format!("{:.1} MB", bytes / 1e6)
    } else {
        format!("{:.0} kB", bytes / 1e3)
    }
}

/// How `citus_schema_move` copies: `auto` and `force_logical` keep accepting writes until the
/// switch-over (logical replication); `block_writes` blocks them for the whole copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TransferMode {
    Auto,
    ForceLogical,
    BlockWrites,
}

impl TransferMode {
    fn as_sql(self) -> &'static str {
        match self {
            TransferMode::Auto => "auto",
            TransferMode::ForceLogical => "force_logical",
            TransferMode::BlockWrites => "block_writes",
        }
    }
}

/// How `loyalty citus move` and `rebalance` move a company.
#[derive(Clone, Copy, Debug)]
pub struct MoveOptions {
    pub mode: TransferMode,
    /// The longest the switch-over may wait for the company's running writes. While it waits,
    /// the company's other writes queue behind it: a transaction of 20 s (a long expiration run,
    /// say) stalled every write of the company, and then the pool, for 20 s (docs/scaling.md).
    /// Past this the move gives up and tries again.
    pub switch_over_wait: Duration,
    /// Moves tried before giving up.
    pub attempts: u32,
    /// Pause between two attempts.
    pub pause: Duration,
}

impl Default for MoveOptions {
    fn default() -> Self {
        MoveOptions {
            mode: TransferMode::Auto,
            switch_over_wait: Duration::from_secs(2),
            attempts: 5,
            pause: Duration::from_secs(10),
        }
    }
}

/// Moves a company's schema to another worker while it keeps serving, printing the progress
/// Citus reports every second. Answers the node it came from and how long it took.
pub async fn move_company(
    database_url: &str,
    prefix: &Prefix,
    to: &NodeAddr,
    opts: MoveOptions,
) -> anyhow::Result<(NodeAddr, Duration)> {
    let client = db::connect_dedicated(database_url).await?;
    let schema = schema_of(&client, prefix).await?;
    if !installed(&client).await? {
        bail!("this database has no citus extension: it is not a Citus coordinator");
    }
    let Some(from) = node_of(&client, &schema).await? else {
        bail!("company '{prefix}' is not distributed (run `loyalty citus distribute --company {prefix}` first)");
    };
    if &from == to {
        bail!("company '{prefix}' is already on {to}");
    }
    // The switch-over's lock on the coordinator waits at most this long.
    client.batch_execute(&format!("set lock_timeout = {}", opts.switch_over_wait.as_millis().max(1))).await?;
    let watcher = db::connect_dedicated(database_url).await?;
    let started = Instant::now();
    let attempts = opts.attempts.max(1);
    for attempt in 1..=attempts {
        println!("moving {prefix} from {from} to {to} ({}), attempt {attempt} of {attempts}", opts.mode.as_sql());
        match move_once(&client, &watcher, &schema, to, opts.mode, started).await {
            Ok(()) => {
                let elapsed = started.elapsed();
                println!("moved {prefix} from {from} to {to} in {:.1} s", elapsed.as_secs_f64());
                return Ok((from, elapsed));
            }
            Err(err) if err.code() == Some(&SqlState::LOCK_NOT_AVAILABLE) && attempt < attempts => {
                println!(
                    "  a transaction of {prefix} held its writes past {:.1} s: the switch-over gave up, \
                     trying again in {} s",
                    opts.switch_over_wait.as_secs_f64(),
                    opts.pause.as_secs()
                );
                tokio::time::sleep(opts.pause).await;
            }
            Err(err) => return Err(err).with_context(|| format!("moving {prefix} to {to}")),
        }
    }
    unreachable!("the last attempt answers")
}

/// One `citus_schema_move`, with a progress line every second.
async fn move_once(
    client: &tokio_postgres::Client,
    watcher: &tokio_postgres::Client,
    schema: &str,
    to: &NodeAddr,
    mode: TransferMode,
    started: Instant,
) -> Result<(), tokio_postgres::Error> {
    // The mode is written as a literal: naming its type needs a grant on the schema `citus`.
    let sql = format!("select citus_schema_move($1::text::regnamespace, $2, $3, '{}')", mode.as_sql());
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 3] = [&schema, &to.host, &to.port];
    let moving = client.execute(&sql, &params);
    tokio::pin!(moving);
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut last = String::new();
    loop {
        tokio::select! {
            done = &mut moving => return done.map(|_| ()),
            _ = tick.tick() => {
                if let Ok(line) = progress(watcher, schema).await {
                    if !line.is_empty() && line != last {
                        println!("  [{:>6.1} s] {line}", started.elapsed().as_secs_f64());
                        last = line;
                    }
                }
            }
        }
    }
}

/// Balances the companies over the workers: the moves Citus's rebalancer plans, made one
/// company at a time with [`move_company`]. Answers how many companies moved.
pub async fn rebalance(database_url: &str, opts: MoveOptions) -> anyhow::Result<usize> {
    let client = db::connect_dedicated(database_url).await?;
    if !installed(&client).await? {
        bail!("this database has no citus extension: it is not a Citus coordinator");
    }
    let plan = client
        .query(
            "select distinct on (n.nspname) co.prefix, p.targetname, p.targetport \
             from get_rebalance_table_shards_plan() p \
             join pg_dist_shard s on s.shardid = p.shardid \
             join pg_class c on c.oid = s.logicalrelid \
             join pg_namespace n on n.oid = c.relnamespace \
             join platform.companies co on co.schema_name = n.nspname::text \
             order by n.nspname",
            &[],
        )
        .await?;
    drop(client);
    if plan.is_empty() {
        println!("the companies are balanced: nothing to move");
    }
    for (n, row) in plan.iter().enumerate() {
        let prefix = Prefix::from_trusted(row.get(0));
        let to = NodeAddr { host: row.get(1), port: row.get(2) };
        println!("[{}/{}] {prefix} to {to}", n + 1, plan.len());
        move_company(database_url, &prefix, &to, opts).await?;
    }
    Ok(plan.len())
}

/// One line on a running move of `schema`: its stage and the bytes copied so far.
async fn progress(client: &tokio_postgres::Client, schema: &str) -> anyhow::Result<String> {
    let rows = client
        .query(
            "select status, sum(source_shard_size)::bigint, sum(target_shard_size)::bigint \
             from get_rebalance_progress() where table_name::text like $1 || '.%' group by status order by status",
            &[&schema],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|row| {
            let status: Option<String> = row.get(0);
            let (source, target): (Option<i64>, Option<i64>) = (row.get(1), row.get(2));
            format!(
                "{}: {} of {} copied",
                status.unwrap_or_else(|| "moving".into()),
                size(target.unwrap_or(0)),
                size(source.unwrap_or(0))
            )
        })
        .collect::<Vec<_>>()
        .join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_read_as_host_and_port() {
        assert_eq!("10.0.0.7:5432".parse::<NodeAddr>().unwrap(), NodeAddr { host: "10.0.0.7".into(), port: 5432 });
        assert_eq!("w1.internal:9701".parse::<NodeAddr>().unwrap().to_string(), "w1.internal:9701");
        assert!("w1.internal".parse::<NodeAddr>().is_err());
        assert!(":5432".parse::<NodeAddr>().is_err());
        assert!("w1:port".parse::<NodeAddr>().is_err());
    }

    #[test]
    fn sizes_read_in_kilo_mega_or_gigabytes() {
        assert_eq!(size(24_576), "25 kB");
        assert_eq!(size(3_500_000), "3.5 MB");
        assert_eq!(size(12_300_000_000), "12.3 GB");
    }
}
