//! Connections: the request pool, dedicated connections for schema work, and the
//! per-request tenant transaction.

use std::ops::Deref;
use std::time::Duration;

use anyhow::Context;
use deadpool_postgres::{Hook, HookError, Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use tokio_postgres::NoTls;

use crate::config::DbConfig;
use crate::domain::Prefix;
use crate::error::AppResult;

/// Schema that pooled connections point at by default. It never exists, so a query that forgot
/// its tenant scope fails loudly instead of reading some tenant's data.
pub const NO_TENANT_SCHEMA: &str = "loyalty_no_tenant";

/// A pooled connection's client (with its statement cache), as data-access functions take it.
pub type Conn = deadpool_postgres::ClientWrapper;

/// Parses a `postgres://` URL.
pub fn pg_config(url: &str) -> anyhow::Result<tokio_postgres::Config> {
    let mut cfg: tokio_postgres::Config = url.parse().context("DATABASE_URL is not a valid PostgreSQL URL")?;
    if cfg.get_application_name().is_none() {
        cfg.application_name("loyalty");
    }
    Ok(cfg)
}

/// The request pool. Connections start with an empty `search_path` and are retired after
/// `conn_max_age`, since a backend caches catalog entries of every schema it touched.
pub fn make_pool(db: &DbConfig) -> anyhow::Result<Pool> {
    let mut cfg = pg_config(db.url.expose())?;
    // A pooled connection serves every tenant, so its cached statements see a new search_path
    // on most requests, which throws their plans away. Left to choose, PostgreSQL then builds both
    // a custom and a generic plan again and again; planning once per execution costs half the
    // database time (docs/performance.md). Plans then also fit each request's parameters.
    cfg.options(format!("-c search_path={NO_TENANT_SCHEMA} -c plan_cache_mode=force_custom_plan"));
    let manager = Manager::from_config(cfg, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
    let max_age = db.conn_max_age;
    Pool::builder(manager)
        .max_size(db.pool_size)
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

/// A connection of its own, outside the pool, for schema work (migrations, provisioning).
/// Dropping the client closes the connection, and with it any session state and advisory lock.
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

/// Quotes an SQL identifier.
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The schema that holds one company's data.
pub fn tenant_schema(prefix: &Prefix) -> String {
    format!("tenant_{}", prefix.as_str())
}

/// An open transaction on a pooled connection whose `search_path` is one tenant's schema,
/// for this transaction only. Commit it explicitly; dropping it rolls back before the
/// connection goes back to the pool.
pub struct TenantTx {
    conn: Option<Object>,
}

impl TenantTx {
    pub async fn begin(pool: &Pool, prefix: &Prefix) -> AppResult<Self> {
        let conn = pool.get().await?;
        // The prefix is validated (`^[a-z][a-z0-9]{1,29}$`) and quoted: the only identifier
        // ever interpolated. `set local` lasts until this transaction ends.
        let sql = format!("begin; set local search_path to {}", quote_ident(&tenant_schema(prefix)));
        conn.batch_execute(&sql).await?;
        Ok(TenantTx { conn: Some(conn) })
    }

    pub async fn commit(mut self) -> AppResult<()> {
        let conn = self.conn.take().expect("transaction already finished");
        conn.batch_execute("commit").await?;
        Ok(())
    }
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
                        let _ = Object::take(conn);
                    }
                });
            } else {
                let _ = Object::take(conn);
            }
        }
    }
}
