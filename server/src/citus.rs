//! Citus schema-based sharding (docs/scaling.md): what the server does differently on a Citus
//! coordinator.

use tokio_postgres::GenericClient;

/// Whether the connected database has the `citus` extension.
pub async fn installed(client: &impl GenericClient) -> Result<bool, tokio_postgres::Error> {
    client
        .query_one("select exists (select 1 from pg_extension where extname = 'citus')", &[])
        .await
        .map(|row| row.get(0))
}
