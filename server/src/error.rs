//! The one error type of the HTTP layer. Every failure answers JSON `{ "message": ... }`;
//! server faults are logged with their detail and answered with a generic message.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tokio_postgres::error::SqlState;

pub type AppResult<T> = Result<T, AppError>;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    TooManyRequests(String),
    #[error("request body is too large")]
    PayloadTooLarge,
    #[error("service unavailable")]
    Unavailable(#[source] anyhow::Error),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    message: &'a str,
}

/// The body of every error answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorMessage {
    /// What went wrong, for a person to read.
    pub message: String,
}

/// The error answers every API operation may give, for the OpenAPI document.
#[allow(dead_code)]
#[derive(utoipa::IntoResponses)]
pub enum ApiErrors {
    /// Invalid input
    #[response(status = 400)]
    BadRequest(ErrorMessage),
    /// No or bad session token
    #[response(status = 401)]
    Unauthorized(ErrorMessage),
    /// The role may not do this
    #[response(status = 403)]
    Forbidden(ErrorMessage),
    /// Not found (also for another company's ids)
    #[response(status = 404)]
    NotFound(ErrorMessage),
    /// Duplicate or conflicting state
    #[response(status = 409)]
    Conflict(ErrorMessage),
    /// Body too large
    #[response(status = 413)]
    PayloadTooLarge(ErrorMessage),
    /// Too many attempts
    #[response(status = 429)]
    TooManyRequests(ErrorMessage),
    /// Server fault (detail in the server log only)
    #[response(status = 500)]
    Internal(ErrorMessage),
    /// Database unreachable or overloaded
    #[response(status = 503)]
    Unavailable(ErrorMessage),
}

impl AppError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        AppError::BadRequest(message.into())
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        AppError::NotFound(message.into())
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        AppError::Conflict(message.into())
    }

    pub fn forbidden() -> Self {
        AppError::Forbidden("you are not allowed to do this".into())
    }

    pub fn unauthorized() -> Self {
        AppError::Unauthorized("not logged in or session expired".into())
    }

    pub fn internal(err: impl Into<anyhow::Error>) -> Self {
        AppError::Internal(err.into())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match &self {
            AppError::Internal(err) => {
                tracing::error!(error = ?err, "request failed");
                "internal server error, please try again".to_string()
            }
            AppError::Unavailable(err) => {
                tracing::error!(error = ?err, "service unavailable");
                "service temporarily unavailable, please try again".to_string()
            }
            other => other.to_string(),
        };
        (status, axum::Json(ErrorBody { message: &message })).into_response()
    }
}

/// Message for a unique-constraint violation, by constraint name.
fn duplicate_message(constraint: Option<&str>) -> &'static str {
    match constraint {
        Some("companies_prefix_key") => "company prefix already exists",
        Some("super_admins_username_key") => "super admin already exists",
        Some("customers_document_key") => "customer document exists",
        Some("users_username_key") => "user already exists",
        Some("points_of_sale_name_key") => "point of sale already exists",
        Some("products_code_key") => "product already exists",
        Some("categories_name_key") => "category already exists",
        _ => "record already exists",
    }
}

impl From<tokio_postgres::Error> for AppError {
    fn from(err: tokio_postgres::Error) -> Self {
        if let Some(db) = err.as_db_error() {
            if *db.code() == SqlState::UNIQUE_VIOLATION {
                return AppError::Conflict(duplicate_message(db.constraint()).into());
            }
            if *db.code() == SqlState::T_R_SERIALIZATION_FAILURE
                || *db.code() == SqlState::T_R_DEADLOCK_DETECTED
            {
                return AppError::Conflict("the record changed at the same time, please try again".into());
            }
            // Text that PostgreSQL cannot hold (a NUL character) is the input's fault.
            if *db.code() == SqlState::CHARACTER_NOT_IN_REPERTOIRE || *db.code() == SqlState::UNTRANSLATABLE_CHARACTER {
                return AppError::bad_request("text must not contain NUL characters");
            }
            if *db.code() == SqlState::QUERY_CANCELED {
                return AppError::Unavailable(err.into());
            }
            // The database is shutting down or crashed under the connection, or the node is no
            // longer the primary (a restart or a failover): the request can be retried.
            if [
                SqlState::ADMIN_SHUTDOWN,
                SqlState::CRASH_SHUTDOWN,
                SqlState::CANNOT_CONNECT_NOW,
                SqlState::READ_ONLY_SQL_TRANSACTION,
            ]
            .contains(db.code())
            {
                return AppError::Unavailable(err.into());
            }
        }
        if err.is_closed() {
            return AppError::Unavailable(err.into());
        }
        AppError::Internal(err.into())
    }
}

impl From<deadpool_postgres::PoolError> for AppError {
    fn from(err: deadpool_postgres::PoolError) -> Self {
        AppError::Unavailable(err.into())
    }
}

impl From<anyhow::Error> for AppError {
    fn from(err: anyhow::Error) -> Self {
        AppError::Internal(err)
    }
}

impl From<JsonRejection> for AppError {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::MissingJsonContentType(_) => {
                AppError::bad_request("expected a JSON body (Content-Type: application/json)")
            }
            JsonRejection::BytesRejection(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                AppError::PayloadTooLarge
            }
            JsonRejection::BytesRejection(_) => AppError::bad_request("request body could not be read"),
            other => AppError::BadRequest(clean_serde_message(&other.body_text())),
        }
    }
}

impl From<PathRejection> for AppError {
    fn from(_: PathRejection) -> Self {
        AppError::bad_request("invalid id in the path: expected a positive whole number")
    }
}

impl From<QueryRejection> for AppError {
    fn from(rejection: QueryRejection) -> Self {
        AppError::BadRequest(format!("invalid query parameters: {}", clean_serde_message(&rejection.body_text())))
    }
}

/// serde's messages are clear, but axum prefixes them with its own wording.
fn clean_serde_message(text: &str) -> String {
    let text = text
        .strip_prefix("Failed to deserialize the JSON body into the target type: ")
        .or_else(|| text.strip_prefix("Failed to parse the request body as JSON: "))
        .or_else(|| text.strip_prefix("Failed to deserialize query string: "))
        .unwrap_or(text);
    let mut message = format!("invalid request: {text}");
    message.truncate(300);
    message
}
