//! Spare schemas: a few company schemas made ahead of need from the tenant template, so that
//! creating a company writes rows only instead of running the template's DDL while the operator
//! waits (docs/performance.md, "Provisioning").
//!
//! A spare is the schema `tenant_<id>` and its row in `platform.spare_schemas`, made and dropped
//! together in one transaction. A company takes the oldest spare at the template's version in the
//! statement that inserts its platform row ([`TAKE_SQL`]: the spare's row deleted with
//! `for update skip locked`, so two companies never take the same one), and keeps the spare's
//! schema under its name, which its row records (`schema_name`); the rest of its creation goes in
//! the same transaction (`platform::store::create_from_spare`), so that it writes rows only. Nothing is renamed: renaming a
//! schema, like making one, makes every PostgreSQL backend of the database apply the change to
//! each plan it keeps, which at 10,000 companies cost seconds of CPU per backend
//! (docs/performance.md, "Where a company's creation goes at 10,000 companies").
//!
//! For the same reason spares are made in batches, when companies are not being created: the
//! process's filler makes spares until there are `SPARE_SCHEMAS` (`loyalty serve
//! --spare-schemas`) every [`CHECK_EVERY`] and [`QUIET_AFTER`] the last company created, and at
//! once (when the process starts, or after a company was created) only when half of them or
//! fewer are ready. So the spares are ready before the next company is asked for, an upgrade's
//! first ones too (none is ready at its version), and an operator creating companies one after
//! another, or a restart, meets the DDL of new spares once every half `SPARE_SCHEMAS` companies
//! rather than after each. One process fills at a time (an advisory
//! lock), on a connection of its own. Spares at another version (a migration
//! came since) are never taken, and are dropped once the filling has made the new ones. A
//! platform that has no company and no spare yet makes none.

use std::time::Duration;

use tokio_postgres::Client;
use tracing::instrument;

use crate::db::{self, quote_ident};
use crate::migrate::template::Template;
use crate::platform::store::SCHEMA_SIZE_SQL;
use crate::state::AppState;

/// A spare's schema is this and its id: `tenant_` and a number, which no company made without a
/// spare (`tenant_<prefix>`, a prefix starting with a letter) can be named.
const SPARE_SCHEMA_PREFIX: &str = "tenant_";

/// Takes the oldest spare at the version `$1`: deletes its row and answers its schema's name and
/// size, for the `insert` of a company's platform row to use (`platform::store::create_from_spare`).
/// `for update skip locked`: two companies never take the same one.
pub const TAKE_SQL: &str = "delete from platform.spare_schemas where id = (select id from platform.spare_schemas \
       where version = $1 order by id limit 1 for update skip locked) \
     returning 'tenant_' || id as schema_name, size_bytes";

/// Held by the process that is filling, for as long as its connection lasts.
const FILLER_LOCK_SQL: &str = "select pg_try_advisory_lock(hashtextextended('loyalty-spare-schemas', 0))";

/// How often the filler looks without being asked.
pub const CHECK_EVERY: Duration = Duration::from_secs(300);

/// How long after the last company created the filler makes the spares taken: companies are
/// often created a few in a row.
pub const QUIET_AFTER: Duration = Duration::from_secs(60);

/// Starts the process's filler: every `check_every` and `quiet_after` the last company created,
/// and at start and after a company's creation when half the spares or fewer are ready
/// ([`wants_filling_now`]), it makes spares at the template's version until there are `count`,
/// then drops the spares at another version.
pub fn spawn(
    state: AppState,
    count: usize,
    check_every: Duration,
    quiet_after: Duration,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut check = tokio::time::interval(check_every);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut quiet_at: Option<tokio::time::Instant> = None;
        let mut starting = true;
        loop {
            let quiet_until = quiet_at;
            let quiet = async move {
                match quiet_until {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            let only_if_low = tokio::select! {
                () = state.spares_wanted.notified() => {
                    quiet_at = Some(tokio::time::Instant::now() + quiet_after);
                    true
                }
                _ = check.tick() => std::mem::take(&mut starting),
                () = quiet => {
                    quiet_at = None;
                    false
                }
            };
            match fill(&state, count, only_if_low).await {
                Ok(made) => tracing::debug!(made, "spare schemas made"),
                Err(err) => tracing::warn!(error = ?err, "could not make spare schemas"),
            }
        }
    })
}

/// The spare's schema.
fn schema(id: i64) -> String {
    format!("{SPARE_SCHEMA_PREFIX}{id}")
}

/// Makes spares at the template's version until there are `count` (with `only_if_low`, only if
/// half of them or fewer are ready), then drops the spares at another
/// version (all of them when companies are made by migrating); answers how many it made.
/// Nothing on a platform without a company or a spare. Another process filling at the same time
/// is left to it. On an error the connection closes, and with it the transaction and the lock.
#[instrument(level = "debug", skip(state))]
async fn fill(state: &AppState, count: usize, only_if_low: bool) -> anyhow::Result<usize> {
    let client = db::connect_dedicated(state.config.db.url.expose()).await?;
    let in_use: bool = client
        .query_one(
            "select exists (select 1 from platform.companies) or exists (select 1 from platform.spare_schemas)",
            &[],
        )
        .await?
        .get(0);
    if !in_use || !client.query_one(FILLER_LOCK_SQL, &[]).await?.get::<_, bool>(0) {
        return Ok(0);
    }
    let template = state.tenant_template().await?;
    let made = match &template {
        Some(template) => {
            let ready = ready(&client, template.version).await?;
            let missing = if only_if_low && !wants_filling_now(ready, count) {
                0
            } else {
                count.saturating_sub(usize::try_from(ready).unwrap_or(usize::MAX))
            };
            for _ in 0..missing {
                make(&client, template).await?;
            }
            missing
        }
        None => 0,
    };
    // Only after the new ones: no company can take these.
    let version = template.as_ref().map(|t| t.version);
    let stale = client
        .query("select id from platform.spare_schemas where version is distinct from $1 order by id", &[&version])
        .await?;
    for row in stale {
        let id: i64 = row.get(0);
        client.batch_execute("begin").await?;
        // Only a spare this transaction deleted is dropped: one taken meanwhile is a company's.
        if client.execute("delete from platform.spare_schemas where id = $1", &[&id]).await? == 1 {
            client.batch_execute(&format!("drop schema if exists {} cascade", quote_ident(&schema(id)))).await?;
        }
        client.batch_execute("commit").await?;
    }
    Ok(made)
}

/// Makes one spare: its schema from the template and its row, with its size (the first figure
/// of the company that takes it), in one transaction.
async fn make(client: &Client, template: &Template) -> Result<(), tokio_postgres::Error> {
    let id: i64 = client.query_one("select nextval('platform.spare_schemas_id_seq')", &[]).await?.get(0);
    let name = schema(id);
    // The name is `tenant_` and a number: a literal needs no escaping.
    let size = SCHEMA_SIZE_SQL.replace("$2", &format!("'{name}'"));
    client
        .batch_execute(&format!(
            "begin; create schema {};\n{}insert into platform.spare_schemas (id, version, size_bytes) \
             values ({id}, {}, ({size})); commit",
            quote_ident(&name),
            template.script(&name),
            template.version
        ))
        .await
}

/// Whether the filler makes spares at once, after a creation or at start: when `ready` spares are
/// left of the `count` wanted, half of them or fewer. The filler then makes the missing ones together,
/// so that their DDL reaches the database's backends in one batch, not after every company.
pub fn wants_filling_now(ready: i64, count: usize) -> bool {
    usize::try_from(ready).unwrap_or(0) * 2 <= count
}

/// How many spares are ready at `version`.
#[instrument(level = "debug", skip(client))]
pub async fn ready(client: &Client, version: i32) -> Result<i64, tokio_postgres::Error> {
    Ok(client.query_one("select count(*) from platform.spare_schemas where version = $1", &[&version]).await?.get(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filler_wakes_when_half_the_spares_or_fewer_are_left() {
        assert!(!wants_filling_now(3, 4));
        assert!(wants_filling_now(2, 4));
        assert!(wants_filling_now(0, 4));
        assert!(!wants_filling_now(17, 32));
        assert!(wants_filling_now(16, 32));
        assert!(wants_filling_now(0, 1));
        assert!(wants_filling_now(0, 0));
    }

    #[test]
    fn a_spare_is_named_as_no_company_made_without_one_can_be() {
        assert_eq!(schema(17), "tenant_17");
        assert!(crate::domain::Prefix::parse("17").is_err());
        assert!(TAKE_SQL.contains(&format!("'{SPARE_SCHEMA_PREFIX}' || id")));
    }
}
