//! Import of customers and their opening balances from a CSV or XLSX file (docs/import.md).
//!
//! The body is spooled to a temporary file while its bytes are counted (up to
//! [`model::MAX_FILE_BYTES`], far above the API's usual limit, for this route only), read and
//! checked row by row in a blocking task, copied into a temporary table, and written with a few
//! set-based statements in one transaction. No database connection is held while the file
//! arrives.

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::header::CONTENT_LENGTH;
use axum::http::HeaderMap;
use futures::StreamExt;
use tokio::io::AsyncWriteExt;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{AppError, AppResult, Lang, Msg, Problem};
use crate::extract::{Json, Query};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::audit;

pub mod model;
mod parse;
mod store;

use model::{ConsentChannel, ImportAnswer, ImportParams, OnExisting, RowError, MAX_FILE_BYTES, MAX_LISTED_ERRORS};

pub fn router() -> OpenApiRouter<AppState> {
    // The file is read as a stream and counted by the handler, not held by an extractor.
    OpenApiRouter::new().routes(routes!(import)).layer(DefaultBodyLimit::disable())
}

/// Imports customers and their opening points from a CSV (UTF-8, `;` or `,`) or XLSX file sent
/// as the body (admins only). A dry run (the default) checks every row and writes nothing; a
/// real run writes every valid row in one transaction and answers the same counts.
#[utoipa::path(post, path = "/customers/import", tag = "customers", security(("bearer" = [])),
    params(ImportParams),
    request_body(content = Vec<u8>, content_type = "application/octet-stream",
        description = "The CSV or XLSX file, at most 200 MB"),
    responses((status = 200, body = ImportAnswer), crate::error::ApiErrors))]
async fn import(
    t: Tenant,
    State(state): State<AppState>,
    lang: Lang,
    headers: HeaderMap,
    Query(params): Query<ImportParams>,
    body: Body,
) -> AppResult<Json<ImportAnswer>> {
    t.require_admin()?;
    let dry_run = params.dry_run.unwrap_or(true);
    let on_existing = OnExisting::parse(params.on_existing.as_deref())?;
    let consent_channel =
        ConsentChannel::parse(params.consent_channel.as_deref().unwrap_or_default()).map_err(AppError::bad_request)?;
    let declared = headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > MAX_FILE_BYTES) {
        return Err(AppError::PayloadTooLarge);
    }
    let work = async move {
        let file = spool(body).await?;
        tokio::task::spawn_blocking(move || parse::parse(file, consent_channel, lang))
            .await
            .map_err(AppError::internal)?
    };
    let (t, parsed) = t.between_transactions(&state, work).await?;

    store::stage(&t, parsed.staging).await?;
    let (conflicts, conflict_count) = store::take_conflicts(&t, MAX_LISTED_ERRORS as i64).await?;
    let (new, existing, opening_points) = store::outcome(&t).await?;
    let mut errors = parsed.errors;
    errors.extend(conflicts.into_iter().map(|c| RowError {
        line: c.line as u64,
        column: document_column(lang),
        message: match c.first {
            Some(first) => Msg::ImportDuplicateDocument.with("first", first).render(lang),
            None => Problem::from(Msg::CustomerInactiveExists).render(lang),
        },
    }));
    errors.sort_by_key(|e| e.line);
    errors.truncate(MAX_LISTED_ERRORS);
    let valid = (new + existing) as u64;
    let mut answer = ImportAnswer {
        dry_run,
        rows: parsed.rows,
        valid,
        created: new as u64,
        updated: if on_existing == OnExisting::Update { existing as u64 } else { 0 },
        skipped: if on_existing == OnExisting::Skip { existing as u64 } else { 0 },
        opening_points,
        error_count: parsed.error_count + conflict_count as u64,
        errors,
    };
    if dry_run {
        return Ok(Json(answer));
    }
    if on_existing == OnExisting::Update {
        answer.updated = store::update_existing(&t).await?;
        answer.skipped = existing as u64 - answer.updated;
    }
    // Each new customer's authorization of the required purpose, to the notice in force, by the
    // channel its row or the request names (docs/privacy.md).
    let notice = crate::tenant::privacy::current_notice(&t).await?;
    answer.created = store::insert_new(&t, t.user.id, t.actor(), notice.version).await? as u64;
    let detail = serde_json::json!({
        "rows": answer.rows, "valid": answer.valid, "created": answer.created, "updated": answer.updated,
        "skipped": answer.skipped, "openingPoints": answer.opening_points, "errors": answer.error_count,
    });
    audit(&t, "customer.import", "customer", None, detail).await?;
    t.commit().await?;
    Ok(Json(answer))
}

/// The name errors about the document give its column.
fn document_column(lang: Lang) -> String {
    crate::error::Field::Document.template(lang).to_owned()
}

/// Writes the body to a temporary file (removed once closed), refusing it past
/// [`MAX_FILE_BYTES`].
async fn spool(body: Body) -> AppResult<std::fs::File> {
    let file = tempfile::tempfile().map_err(AppError::internal)?;
    let mut out = tokio::io::BufWriter::with_capacity(
        256 * 1024,
        tokio::fs::File::from_std(file.try_clone().map_err(AppError::internal)?),
    );
    let mut stream = body.into_data_stream();
    let mut written: u64 = 0;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|err| {
            tracing::debug!(%err, "import body unreadable");
            AppError::bad_request(Msg::BodyUnreadable)
        })?;
        written += chunk.len() as u64;
        if written > MAX_FILE_BYTES {
            return Err(AppError::PayloadTooLarge);
        }
        out.write_all(&chunk).await.map_err(AppError::internal)?;
    }
    out.flush().await.map_err(AppError::internal)?;
    Ok(file)
}
