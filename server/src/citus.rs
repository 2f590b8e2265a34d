//! Citus schema-based sharding (docs/scaling.md): what the server does differently on a Citus
//! coordinator.

use tokio_postgres::GenericClient;

use crate::db;

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
    let sharding: String = client.query_one("select current_setting('citus.enable_schema_based_sharding')", &[]).await?.get(0);
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

/// Whether `schema` is registered as a distributed schema.
async fn is_distributed(client: &impl GenericClient, schema: &str) -> Result<bool, tokio_postgres::Error> {
    let row = client
        .query_one("select exists (select 1 from pg_dist_schema where schemaid = to_regnamespace($1))", &[&schema])
        .await?;
    Ok(row.get(0))
}
