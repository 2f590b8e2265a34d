//! The nightly upkeep of the companies' tables (`loyalty maintain`, run each night by
//! deploy/systemd/loyalty-maintain.timer): a vacuum and an analysis of each active company's table
//! that has changed enough since its last ones.
//!
//! Autovacuum leaves the tables every sale writes alone until they have 50,000 changes beyond the
//! usual share of the table (tenant migration V38). Each vacuum or analysis of a table makes every
//! backend of the database check each statement it keeps against the table and each of its
//! indexes, and with thousands of companies a backend keeps tens of thousands of statements: done
//! by day, a small company's upkeep cost the whole platform a second of its sales
//! (docs/performance.md, "The rounds' spread"). At night it costs nobody, so this does it then,
//! one table at a time.

use tokio_postgres::Client;

use crate::db::quote_ident;

/// Changes (rows inserted, updated or deleted since the last analysis, dead rows, rows inserted
/// since the last vacuum) from which a table is looked after, when not told otherwise: autovacuum's
/// threshold before V38.
pub const DEFAULT_MIN_CHANGES: i64 = 1000;

/// Held by the process that runs the upkeep, for as long as its connection lasts: two runs at once
/// (a timer's and an operator's) would only vacuum the same tables twice.
const LOCK_SQL: &str = "select pg_try_advisory_lock(hashtextextended('loyalty-maintain', 0))";

/// The active companies' tables with at least `$1` changes of any kind, the most changed first.
const DUE_SQL: &str = "select t.schemaname::text, t.relname::text \
     from pg_stat_user_tables t join platform.companies c on c.schema_name = t.schemaname, \
       lateral (select greatest(t.n_mod_since_analyze, t.n_dead_tup, t.n_ins_since_vacuum) as changes) m \
     where c.state = 'active' and m.changes >= $1 \
     order by m.changes desc, 1, 2";

/// What one run did.
#[derive(Debug, Default)]
pub struct Summary {
    /// Tables vacuumed and analysed.
    pub tables: usize,
    /// Companies they belong to.
    pub companies: usize,
    /// Whether another run held the lock, so that this one did nothing.
    pub busy: bool,
}

/// Vacuums and analyses every active company's table with at least `min_changes` changes, one at a
/// time, on `client` (a connection of its own: `vacuum` cannot run inside a transaction), which
/// holds the run's lock until it closes. Does nothing when another run is under way.
#[tracing::instrument(level = "info", skip(client))]
pub async fn run(client: &Client, min_changes: i64) -> anyhow::Result<Summary> {
    let locked: bool = client.query_one(LOCK_SQL, &[]).await?.get(0);
    if !locked {
        return Ok(Summary { busy: true, ..Summary::default() });
    }
    let due = client.query(DUE_SQL, &[&min_changes]).await?;
    let mut companies = std::collections::BTreeSet::new();
    for row in &due {
        let (schema, table): (String, String) = (row.get(0), row.get(1));
        client.batch_execute(&format!("vacuum (analyze) {}.{}", quote_ident(&schema), quote_ident(&table))).await?;
        companies.insert(schema);
    }
    Ok(Summary { tables: due.len(), companies: companies.len(), busy: false })
}
