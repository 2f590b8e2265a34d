//! Company users.

/// Creates the company's `admin` account while its schema is provisioned.
pub async fn insert_admin(client: &tokio_postgres::Client, password_hash: &str) -> Result<(), tokio_postgres::Error> {
    client
        .execute("insert into users (username, password_hash, role) values ('admin', $1, 'admin')", &[&password_hash])
        .await?;
    Ok(())
}
