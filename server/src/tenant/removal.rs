//! Deleting a record and reactivating it, written once for customers, users, points of sale,
//! products and categories. A delete removes the record when nothing refers to it, and makes it
//! inactive (a soft delete) when history or other records do; an inactive record can be made
//! active again (docs/decisions.md). Each entity describes itself with a [`Removal`]; its own
//! guards (who may, the user's "not yourself, not the last admin") run before the call.

use serde::Serialize;
use tokio_postgres::Row;

use super::{audit, store};
use crate::db::Conn;
use crate::error::{AppError, AppResult, Lang, Msg, Params};
use crate::extract::Json;
use crate::session::Tenant;

/// What a delete did: `hard` removed the record, `soft` made it inactive because history
/// or other records refer to it.
/// What a delete did: `hard`, the record is gone for good (nothing referred to it); `soft`, it is
/// kept inactive because other records or the ledger refer to it, and can be reactivated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeleteKind {
    Hard,
    Soft,
}

/// The answer to a delete.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DeleteResponse {
    /// What was done, in the request's language (`Accept-Language`), to show as it is.
    pub message: String,
    /// Whether the record was deleted for good or deactivated.
    pub deleted: DeleteKind,
}

/// How one kind of record is deleted and reactivated.
pub struct Removal {
    /// Its table.
    pub table: &'static str,
    /// Its name in the audit trail, whose actions are `<entity>.delete` and
    /// `<entity>.reactivate`.
    pub entity: &'static str,
    /// The column that names a record in the audit trail (`name` in the entries' detail), if
    /// any: none for customers, whose personal data stays out of the trail (docs/roles.md).
    pub label: Option<&'static str>,
    /// The entity store's statement that counts what refers to a record by id, one column per
    /// kind of reference ([`Usage::from_row`]); no row when there is no record to delete.
    pub usage: &'static str,
    /// Whether an inactive record can be deleted too, not only an active one.
    pub inactive_too: bool,
    /// The answer when there is no record to delete.
    pub not_found: Msg,
    /// The answer when there is no inactive record to reactivate.
    pub not_inactive: Msg,
    /// The message of a hard delete.
    pub deleted: Msg,
    /// The message of a soft delete.
    pub deactivated: Msg,
}

/// What refers to a record, for the delete confirmation.
pub trait Usage: Serialize {
    /// The counts, from a row of [`Removal::usage`].
    fn from_row(row: &Row) -> Self;

    /// Whether anything refers to the record: then a delete makes it inactive.
    fn in_use(&self) -> bool;
}

/// Implements [`Usage`] for a usage of one count, read from the statement's only column: the
/// record is in use when the count is above zero.
macro_rules! one_count_usage {
    ($usage:ident, $count:ident) => {
        impl $crate::tenant::removal::Usage for $usage {
            fn from_row(row: &tokio_postgres::Row) -> Self {
                $usage { $count: row.get(0) }
            }

            fn in_use(&self) -> bool {
                self.$count > 0
            }
        }
    };
}
pub(crate) use one_count_usage;

/// Writes an entity's three removal handlers over its `REMOVAL`, for its router: `usage` (the
/// delete confirmation), `remove` and `reactivate`. The entity's module gives each route its doc
/// comment (the summary in the API document) and its path; this holds what they share: the
/// bearer security, the `id` path parameter, the answers and the calls of [`usage`], [`remove`]
/// and [`reactivate`].
///
/// - `tag`: the API document's tag; `id`: the description of the `id` parameter.
/// - `access`: who may, `admin` or the constant naming the entity's screens (`MANAGE`).
/// - `usage`: its path and usage type; `remove`: its path; `reactivate`: its path and the type
///   it answers, read by `read` and audited with `detail` of it.
/// - `check` (on `remove` or `reactivate`): the entity's own rule, an async function of the
///   tenant and the id that runs after `access`.
macro_rules! removal_handlers {
    (
        tag: $tag:literal, id: $id:literal, access: $access:ident,
        $(#[doc = $usage_doc:literal])*
        usage: $usage_path:literal => $usage:ident,
        $(#[doc = $remove_doc:literal])*
        remove: $remove_path:literal $(, check: $remove_check:path)?,
        $(#[doc = $reactivate_doc:literal])*
        reactivate: $reactivate_path:literal => $record:ident $(, check: $reactivate_check:path)?,
        read: $read:path, detail: $detail:expr $(,)?
    ) => {
        $crate::tenant::removal::removal_handlers! {
            @route $(#[doc = $usage_doc])* get $usage_path, $tag, $id, $usage,
            async fn usage(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<$usage>> {
                $crate::tenant::removal::removal_handlers!(@access t, $access);
                $crate::tenant::removal::usage(t, &REMOVAL, id).await
            }
        }
        $crate::tenant::removal::removal_handlers! {
            @route $(#[doc = $remove_doc])* delete $remove_path, $tag, $id, DeleteResponse,
            async fn remove(t: Tenant, lang: Lang, Path(id): Path<i64>) -> AppResult<Json<DeleteResponse>> {
                $crate::tenant::removal::removal_handlers!(@access t, $access);
                $($remove_check(&t, id).await?;)?
                $crate::tenant::removal::remove::<$usage>(t, lang, &REMOVAL, id).await
            }
        }
        $crate::tenant::removal::removal_handlers! {
            @route $(#[doc = $reactivate_doc])* post $reactivate_path, $tag, $id, $record,
            async fn reactivate(t: Tenant, Path(id): Path<i64>) -> AppResult<Json<$record>> {
                $crate::tenant::removal::removal_handlers!(@access t, $access);
                $($reactivate_check(&t, id).await?;)?
                $crate::tenant::removal::reactivate(t, &REMOVAL, id, $read, $detail).await
            }
        }
    };
    // A route of a record by its id, answering `$body`.
    (
        @route $(#[doc = $doc:literal])* $method:ident $path:literal, $tag:literal, $id:literal, $body:ident,
        $($handler:tt)*
    ) => {
        $(#[doc = $doc])*
        #[utoipa::path($method, path = $path, tag = $tag, security(("bearer" = [])),
            params(("id" = i64, Path, description = $id)),
            responses((status = 200, body = $body), crate::error::ApiErrors))]
        $($handler)*
    };
    (@access $t:ident, admin) => {
        $t.require_admin()?
    };
    (@access $t:ident, $screens:ident) => {
        $t.require_permission($screens).await?
    };
}
pub(crate) use removal_handlers;

async fn usage_of<U: Usage>(conn: &Conn, what: &Removal, id: i64) -> AppResult<U> {
    let row = store::usage(conn, what.usage, id).await?.ok_or_else(|| AppError::not_found(what.not_found))?;
    Ok(U::from_row(&row))
}

/// What refers to a record, for the delete confirmation.
pub async fn usage<U: Usage>(t: Tenant, what: &Removal, id: i64) -> AppResult<Json<U>> {
    let usage = usage_of(&t, what, id).await?;
    t.commit().await?;
    Ok(Json(usage))
}

/// Deletes a record, or makes it inactive when something refers to it; audited.
/// The answer's message is in the request's language.
pub async fn remove<U: Usage>(t: Tenant, lang: Lang, what: &Removal, id: i64) -> AppResult<Json<DeleteResponse>> {
    // Lock the row so that nothing can start referring to it while we decide.
    let Some(name) = store::lock(&t, what.table, what.label, id, what.inactive_too).await? else {
        return Err(AppError::not_found(what.not_found));
    };
    let kind = if usage_of::<U>(&t, what, id).await?.in_use() {
        store::deactivate(&t, what.table, id).await?;
        DeleteKind::Soft
    } else {
        store::delete(&t, what.table, id).await?;
        DeleteKind::Hard
    };
    let action = format!("{}.delete", what.entity);
    audit(&t, &action, what.entity, Some(id), with_name(serde_json::json!({ "kind": kind }), name)).await?;
    t.commit().await?;
    let message = match kind {
        DeleteKind::Hard => what.deleted,
        DeleteKind::Soft => what.deactivated,
    };
    Ok(Json(DeleteResponse { message: message.render(lang, &Params::new()), deleted: kind }))
}

/// Makes an inactive record active again and answers it as `read` finds it; audited with
/// `detail` of the record.
pub async fn reactivate<T>(
    t: Tenant,
    what: &Removal,
    id: i64,
    read: impl AsyncFnOnce(&Conn, i64) -> AppResult<T>,
    detail: impl FnOnce(&T) -> serde_json::Value,
) -> AppResult<Json<T>> {
    let Some(name) = store::activate(&t, what.table, what.label, id).await? else {
        return Err(AppError::not_found(what.not_inactive));
    };
    let record = read(&t, id).await?;
    let action = format!("{}.reactivate", what.entity);
    audit(&t, &action, what.entity, Some(id), with_name(detail(&record), name)).await?;
    t.commit().await?;
    Ok(Json(record))
}

/// An audit entry's detail with the record's `name`, when it has one.
fn with_name(mut detail: serde_json::Value, name: Option<String>) -> serde_json::Value {
    if let (Some(map), Some(name)) = (detail.as_object_mut(), name) {
        map.insert("name".into(), name.into());
    }
    detail
}
