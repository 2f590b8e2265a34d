//! The points engine: accredit, redeem, void, expiration, the transaction report and the
//! dashboard figures (the rules and the API: docs/points.md).
//!
//! The `transactions` table is the ledger. Every operation that changes a balance locks the
//! customer's row first (`select ... for update`), then its batches, so concurrent operations on
//! one customer run one after the other and a balance can never go below zero; the balance, the
//! ledger and the batches change in the same database transaction.
//!
//! The operations are plain functions taking a connection, the acting user and `now`, so tests
//! drive them with a clock of their own; the handlers add permissions, idempotency and `Utc::now`.

use std::future::Future;

use axum::response::Response;
use chrono::{DateTime, Utc};
use futures::future::try_join;
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;

use crate::db::{self, Conn};
use crate::error::AppResult;
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::customers::model::Customer;
use idempotency::Idempotent;
use store::NewTransaction;

pub mod accredit;
pub mod alerts;
pub mod approval;
pub mod expiration;
pub mod idempotency;
pub mod redeem;
pub mod returns;
pub mod rules;
pub mod stats;
pub mod store;
pub mod suppression;
pub mod transactions;
pub mod velocity;
pub mod void;
pub mod warm;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(accredit::router())
        .merge(redeem::router())
        .merge(void::router())
        .merge(returns::router())
        .merge(expiration::router())
        .merge(transactions::router())
        .merge(stats::router())
        .merge(alerts::router())
        .merge(suppression::router())
}

/// The kind of a ledger row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Accreditation,
    Redemption,
    Expiration,
    Cancellation,
    /// Part or all of an accredited invoice given back (docs/points.md, "Returns").
    Return,
    /// The points a suppressed customer still held, taken off when their personal data was
    /// anonymised (docs/privacy.md, "Suppression").
    Forfeit,
    /// A customer's opening balance, written by an import (docs/import.md); it starts a batch.
    Opening,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Accreditation => "accreditation",
            Kind::Redemption => "redemption",
            Kind::Expiration => "expiration",
            Kind::Cancellation => "cancellation",
            Kind::Return => "return",
            Kind::Forfeit => "forfeit",
            Kind::Opening => "opening",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "accreditation" => Some(Kind::Accreditation),
            "redemption" => Some(Kind::Redemption),
            "expiration" => Some(Kind::Expiration),
            "cancellation" => Some(Kind::Cancellation),
            "return" => Some(Kind::Return),
            "forfeit" => Some(Kind::Forfeit),
            "opening" => Some(Kind::Opening),
            _ => None,
        }
    }
}

/// The cashier name of rows written by the expiration job.
pub const SYSTEM_USER: &str = "system";

/// A ledger row as the API answers it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Transaction {
    /// The ledger row's id (the `{id}` of `/transactions/{id}/void`).
    pub id: i64,
    /// When it was posted, by the server's clock (RFC 3339, UTC).
    pub date: DateTime<Utc>,
    /// What the row did to the balance.
    #[serde(rename = "type")]
    pub kind: Kind,
    /// Negative for redemptions, expirations, returns and the cancellation of an accreditation.
    pub points: i64,
    /// The customer whose balance the row changed.
    pub customer_id: i64,
    /// The customer's name as it is now.
    pub customer_name: String,
    /// The customer's ID document as it is now.
    pub customer_document: String,
    /// The user who posted it (for a cancellation, the user who voided); `system` for expirations.
    pub cashier_username: String,
    /// The point of sale it was posted at (a cancellation keeps the original's); null for
    /// expirations and for users without one (admins).
    pub pos_id: Option<i64>,
    /// That point of sale's name as it is now; null without one.
    pub pos_name: Option<String>,
    /// What a person wrote with the posting (a redemption's note); null otherwise: the kind and
    /// the figures say what happened, and screens word it in the reader's language.
    pub description: Option<String>,
    /// The invoice's amount in whole pesos (COP), on accreditations; on a return, the pesos of
    /// the invoice given back; null otherwise.
    pub invoice_amount: Option<i64>,
    /// What a redemption was worth in whole pesos (COP): the product's price, or for points
    /// `floor(points / redemptionRate)`; null on other kinds.
    pub redeemed_value: Option<i64>,
    /// The invoice reference the cashier gave (a cancellation copies the original's; a return
    /// keeps the one given with it, the credit note's, else the accreditation's); null when none.
    pub invoice_reference: Option<String>,
    /// The redeemed product (a cancellation copies the original's); null otherwise.
    pub product_id: Option<i64>,
    /// The redeemed product's name as it is now; null without a product.
    pub product_name: Option<String>,
    /// Whether a cancellation voided this row (for good).
    #[serde(rename = "is_voided")]
    pub is_voided: bool,
    /// Who voided it: the user, or for a cajero's void the approving supervisor or admin; null
    /// while not voided.
    #[serde(rename = "voided_by")]
    pub voided_by: Option<String>,
    /// The supervisor or admin who approved the row: an accreditation beyond a velocity limit, a
    /// cajero's return, or the cancellation of a cajero's void; null otherwise (docs/points.md,
    /// "Velocity limits", "Returns").
    pub approved_by: Option<String>,
    /// For a cancellation: the transaction it voided; for a return: the accreditation it gives
    /// back part of; null on other kinds.
    pub original_transaction_id: Option<i64>,
    /// The customer's balance before this posting (null on rows older than the column).
    pub balance_before: Option<i64>,
    /// The customer's balance after this posting (null on rows older than the column).
    pub balance_after: Option<i64>,
}

/// The answer of accredit and redeem.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Posting {
    /// The customer as the posting left it (`points` is the new balance).
    pub updated_customer: Customer,
    /// The ledger row the posting wrote.
    pub new_transaction: Transaction,
}

/// Writes a posting's ledger row, then in one round trip its batch changes (`batches`, given the
/// row's id, running `batch_statement` only) and the customer's balance; answers the customer as
/// the posting left it and the row as the API answers it.
async fn write_posting<F: Future<Output = AppResult<()>>>(
    conn: &Conn,
    row: &NewTransaction<'_>,
    batch_statement: &str,
    batches: impl FnOnce(i64) -> F,
) -> AppResult<Posting> {
    let inserted = store::insert_transaction(conn, row).await?;
    let ((), updated_customer) = db::pipeline(
        conn,
        &[batch_statement, &store::POST_TO_BALANCE],
        try_join(batches(inserted.id), store::post_to_balance(conn, row.customer_id, row.points, Some(row.at))),
    )
    .await?;
    let new_transaction = row.answered(inserted, &updated_customer);
    Ok(Posting { updated_customer, new_transaction })
}

/// Runs an operation of the till under the request's idempotency key and commits it: a retry
/// with the key gets the first answer and posts nothing. `operation` answers the points it moved
/// (counted once committed, under `metric`) and the answer to keep for retries.
async fn post_once<T: Serialize>(
    t: Tenant,
    idempotent: Idempotent<'_>,
    metric: &'static str,
    operation: impl AsyncFnOnce(&Tenant) -> AppResult<(i64, T)>,
) -> AppResult<Response> {
    if let Some(first_answer) = idempotent.begin(&t).await? {
        t.commit().await?;
        return Ok(first_answer);
    }
    let (points, answer) = operation(&t).await?;
    let answer = idempotent.finish(&t, &answer).await?;
    t.commit().await?;
    crate::metrics::record_points(metric, points);
    Ok(answer)
}
