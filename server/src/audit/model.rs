//! The audit trail as the API answers it.

use chrono::{DateTime, Utc};
use serde::Serialize;

/// One entry of the company's audit trail: who did what, when, to which record.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub id: i64,
    /// When it was done.
    pub at: DateTime<Utc>,
    /// The username who acted (`system` for the daily expiration and for a login that locked).
    pub actor: String,
    /// The super admin who acted as `actor` (impersonation), if one did.
    pub impersonated_by: Option<String>,
    /// What was done, a stable code such as `settings.update`, `user.create`,
    /// `transaction.void`, `points.expire`, `impersonation.start`, `login.locked`
    /// (docs/roles.md, "Audit trail"). Codes may be added: a reader shows an unknown one as it is.
    pub action: String,
    /// The kind of record acted on: `user`, `transaction`, `settings`, `customer`, `pos`,
    /// `product`, `category`, `expiration_run`, `login`, ...
    pub entity: Option<String>,
    /// The record's id, when it has one.
    pub entity_id: Option<i64>,
    /// What the action recorded, by action: for `settings.update` the changed rules
    /// (`changes`: field to `{from, to}`), for `permissions.update` the grid `before` and `after`,
    /// for a user the `username` and its `before` and `after`, for a void the `type`, `points`,
    /// `cancellationId` and `approvedBy` (docs/roles.md, "Audit trail").
    #[schema(value_type = Object)]
    pub detail: serde_json::Value,
}

/// One page of the audit trail.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPage {
    /// The page's entries, newest first.
    pub items: Vec<AuditEntry>,
    /// Entries matching the filters in all; when `totalExact` is false, at least this many
    /// (counted exactly up to 10,000 matches past the page).
    pub total: i64,
    /// Whether `total` is the exact count.
    pub total_exact: bool,
    /// The page answered, from 1.
    pub page: i64,
    /// Entries per page: 10, 25 or 50.
    pub page_size: i64,
}
