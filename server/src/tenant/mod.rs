//! A company's own data, always reached through the `Tenant` extractor's transaction.

use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;

use crate::http::AppState;

pub mod categories;
pub mod customers;
pub mod pos;
pub mod products;
pub mod settings;
pub mod users;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(categories::router())
        .merge(customers::router())
        .merge(pos::router())
        .merge(products::router())
        .merge(settings::router())
        .merge(users::router())
}

/// What a delete did: `hard` removed the record, `soft` made it inactive because history
/// or other records refer to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeleteKind {
    Hard,
    Soft,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct DeleteResponse {
    pub message: String,
    pub deleted: DeleteKind,
}

/// Records a change in the company's audit trail.
pub async fn audit(
    t: &crate::auth::Tenant,
    action: &str,
    entity: &str,
    entity_id: Option<i64>,
    detail: serde_json::Value,
) -> Result<(), tokio_postgres::Error> {
    let (actor, impersonated_by) = t.actor();
    let stmt = t
        .prepare_cached(
            "insert into audit_log (actor, impersonated_by, action, entity, entity_id, detail) \
             values ($1, $2, $3, $4, $5, $6)",
        )
        .await?;
    t.execute(&stmt, &[&actor, &impersonated_by, &action, &entity, &entity_id, &detail]).await?;
    Ok(())
}
