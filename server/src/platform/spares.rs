//! Spare schemas: a few company schemas made ahead of need from the tenant template, so that
//! creating a company renames one (a few milliseconds) instead of running the template's DDL
//! while the operator waits (some 60 ms of PostgreSQL's CPU: docs/performance.md,
//! "Provisioning").
//!
//! A spare is the schema `loyalty_spare_<id>` and its row in `platform.spare_schemas`, made and
//! dropped together in one transaction. A company takes the oldest spare at the template's
//! version: its transaction deletes the row (`for update skip locked`, so two companies never
//! take the same one) and renames the schema. The process's filler makes spares until there are
//! `SPARE_SCHEMAS` (`loyalty serve --spare-schemas`) after every company created, and also when
//! the process starts and every [`CHECK_EVERY`], so that the spares are ready before the next
//! company is asked for, an upgrade's first ones too; one process fills at a time (an advisory
//! lock), on a connection of its own. Spares at another version (a migration came since) are
//! never taken, and are dropped once the filling has made the new ones. A platform that has no
//! company and no spare yet makes none.

use std::time::Duration;

use tokio_postgres::Client;
use tracing::instrument;

use crate::db::{self, quote_ident, tenant_schema};
use crate::domain::Prefix;
use crate::migrate::template::Template;
use crate::state::AppState;

/// Spare schemas' names start with this; no company's schema (`tenant_<prefix>`) can.
const SPARE_SCHEMA_PREFIX: &str = "loyalty_spare_";

/// Held by the process that is filling, for as long as its connection lasts.
const FILLER_LOCK_SQL: &str = "select pg_try_advisory_lock(hashtextextended('loyalty-spare-schemas', 0))";

/// How often the filler looks without being asked.
pub const CHECK_EVERY: Duration = Duration::from_secs(300);

/// Starts the process's filler: at once, every `check_every` and each time a company was
/// created, it makes spares at the template's version until there are `count`, then drops the
/// spares at another version.
pub fn spawn(state: AppState, count: usize, check_every: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut check = tokio::time::interval(check_every);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = state.spares_wanted.notified() => {}
                _ = check.tick() => {}
            }
            match fill(&state, count).await {
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

/// Makes spares at the template's version until there are `count`, then drops the spares at
/// another version (all of them when companies are made by migrating); answers how many it made.
/// Nothing on a platform without a company or a spare. Another process filling at the same time
/// is left to it. On an error the connection closes, and with it the transaction and the lock.
#[instrument(level = "debug", skip(state))]
async fn fill(state: &AppState, count: usize) -> anyhow::Result<usize> {
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
            let ready: i64 = client
                .query_one("select count(*) from platform.spare_schemas where version = $1", &[&template.version])
                .await?
                .get(0);
            let missing = count.saturating_sub(usize::try_from(ready).unwrap_or(usize::MAX));
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

/// Makes one spare: its schema from the template and its row, in one transaction.
async fn make(client: &Client, template: &Template) -> Result<(), tokio_postgres::Error> {
    let id: i64 = client.query_one("select nextval('platform.spare_schemas_id_seq')", &[]).await?.get(0);
    let name = schema(id);
    client
        .batch_execute(&format!(
            "begin; create schema {};\n{}insert into platform.spare_schemas (id, version) values ({id}, {}); commit",
            quote_ident(&name),
            template.script(&name),
            template.version
        ))
        .await
}

/// Makes the oldest spare at `version` the company's schema, if one is ready, in one
/// transaction; answers whether it did. On an error (the company's schema exists already, say)
/// the spare stays a spare.
#[instrument(level = "debug", skip_all, fields(company = %prefix))]
pub async fn take(client: &Client, prefix: &Prefix, version: i32) -> Result<bool, tokio_postgres::Error> {
    client.batch_execute("begin").await?;
    let taken = async {
        let row = client
            .query_opt(
                "delete from platform.spare_schemas where id = (select id from platform.spare_schemas \
                   where version = $1 order by id limit 1 for update skip locked) returning id",
                &[&version],
            )
            .await?;
        let Some(row) = row else { return Ok(false) };
        let sql = format!(
            "alter schema {} rename to {}",
            quote_ident(&schema(row.get(0))),
            quote_ident(&tenant_schema(prefix))
        );
        client.batch_execute(&sql).await?;
        Ok(true)
    }
    .await;
    match taken {
        Ok(true) => client.batch_execute("commit").await.map(|()| true),
        other => {
            let _ = client.batch_execute("rollback").await;
            other
        }
    }
}
