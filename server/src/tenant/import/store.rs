//! Data access of the import: every SQL statement of it. Functions run inside the caller's
//! tenant transaction and never commit. The rows go through `import_rows`, a temporary table
//! dropped at the transaction's end.

use axum::body::Bytes;
use futures::SinkExt;
use tokio::io::AsyncReadExt;
use tracing::instrument;

use crate::db::Conn;
use crate::error::AppResult;

/// Creates the staging table and copies the staged rows (`parse::Parsed::staging`) into it.
#[instrument(level = "debug", skip_all)]
pub async fn stage(conn: &Conn, staging: std::fs::File) -> AppResult<()> {
    conn.batch_execute(
        "create temporary table import_rows (line bigint not null, document text not null, name text not null, \
         email text, phone text, address text, birthdate date, points bigint not null, consent text not null) \
         on commit drop",
    )
    .await?;
    let sink = conn.copy_in::<_, Bytes>("copy import_rows from stdin").await?;
    futures::pin_mut!(sink);
    let mut file = tokio::fs::File::from_std(staging);
    let mut buffer = vec![0u8; 256 * 1024];
    loop {
        let n = file.read(&mut buffer).await.map_err(crate::error::AppError::internal)?;
        if n == 0 {
            break;
        }
        sink.send(Bytes::copy_from_slice(&buffer[..n])).await?;
    }
    sink.finish().await?;
    conn.batch_execute("create index on import_rows (document); analyze import_rows").await?;
    Ok(())
}

/// A row refused because of other rows or the company's customers: its line, and the line of
/// the document's first row when it is repeated in the file (else an inactive customer holds
/// the document).
pub struct Conflict {
    pub line: i64,
    pub first: Option<i64>,
}

/// Rows repeating a document of an earlier row, and rows whose document an inactive customer
/// holds: the first `limit` by line and how many there are in all. They are taken out of the
/// staging table.
#[instrument(level = "debug", skip_all)]
pub async fn take_conflicts(conn: &Conn, limit: i64) -> AppResult<(Vec<Conflict>, i64)> {
    conn.batch_execute(
        "create temporary table import_conflicts on commit drop as \
         select line, first from (select line, min(line) over (partition by document) as first from import_rows) r \
         where line <> first \
         union all \
         select r.line, null from import_rows r join customers c on c.document = r.document where not c.is_active; \
         delete from import_rows r using import_conflicts x where r.line = x.line",
    )
    .await?;
    let total: i64 = conn.query_one("select count(*) from import_conflicts", &[]).await?.get(0);
    let rows = conn.query("select line, first from import_conflicts order by line limit $1", &[&limit]).await?;
    Ok((rows.iter().map(|row| Conflict { line: row.get(0), first: row.get(1) }).collect(), total))
}

/// What the staged rows would do: (new customers, existing ones, opening points of the new).
#[instrument(level = "debug", skip_all)]
pub async fn outcome(conn: &Conn) -> AppResult<(i64, i64, i64)> {
    let row = conn
        .query_one(
            "select count(*) filter (where c.id is null), count(*) filter (where c.id is not null), \
             coalesce(sum(r.points) filter (where c.id is null), 0)::bigint \
             from import_rows r left join customers c on c.document = r.document",
            &[],
        )
        .await?;
    Ok((row.get(0), row.get(1), row.get(2)))
}

/// Replaces the details of the active customers holding a staged document; answers how many.
/// Their points stay as they are.
#[instrument(level = "debug", skip_all)]
pub async fn update_existing(conn: &Conn) -> AppResult<u64> {
    Ok(conn
        .execute(
            "update customers c set name = r.name, email = r.email, phone = r.phone, address = r.address, \
             birthdate = r.birthdate from import_rows r where c.document = r.document and c.is_active",
            &[],
        )
        .await?)
}

/// Adds a customer for each staged document no customer has, each with its opening points (one
/// `opening` ledger row by the actor and a batch earned now) and its authorization of the
/// required purpose to `notice_version`, by its row's channel. Answers how many were added.
#[instrument(level = "debug", skip_all)]
pub async fn insert_new(
    conn: &Conn,
    cashier_id: i64,
    actor: (&str, Option<&str>),
    notice_version: i32,
) -> AppResult<i64> {
    let row = conn
        .query_one(
            "with added as ( \
                 insert into customers (document, name, email, phone, address, birthdate, points) \
                 select r.document, r.name, r.email, r.phone, r.address, r.birthdate, r.points from import_rows r \
                 where not exists (select 1 from customers c where c.document = r.document) \
                 order by r.line \
                 returning id, document, points), \
             consents as ( \
                 insert into customer_consents (customer_id, notice_version, purpose, granted, channel, \
                     recorded_by, impersonated_by) \
                 select a.id, $3, 'loyalty', true, r.consent, $2, $4 from added a join import_rows r on r.document = a.document \
                 returning 1), \
             ledger as ( \
                 insert into transactions (type, points, customer_id, cashier_id, cashier_username, \
                     balance_before, balance_after) \
                 select 'opening', points, id, $1, $2, 0, points from added where points > 0 \
                 returning id, customer_id, created_at, points), \
             batches as ( \
                 insert into point_batches (customer_id, transaction_id, earned_at, points, remaining) \
                 select customer_id, id, created_at, points, points from ledger returning 1) \
             select (select count(*) from added), (select count(*) from batches), (select count(*) from consents)",
            &[&cashier_id, &actor.0, &notice_version, &actor.1],
        )
        .await?;
    Ok(row.get(0))
}
