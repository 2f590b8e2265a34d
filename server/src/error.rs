//! The one error type of the HTTP layer. Every failure answers JSON `{message, code, params}`:
//! a stable code of the catalogue (`i18n::Msg`), its parameters, and the message in the
//! request's language. Server faults are logged with their detail and answered generically.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::Value;
use tokio_postgres::error::SqlState;

pub use crate::i18n::{Field, Lang, Msg, Params};

pub type AppResult<T> = Result<T, AppError>;

/// What went wrong, for a person: a message of the catalogue and its parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub msg: Msg,
    pub params: Params,
}

impl Problem {
    /// Adds a parameter of the message.
    pub fn with(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.params.insert(name.to_owned(), value.into());
        self
    }

    /// Names the field the message is about.
    pub fn field(self, field: Field) -> Self {
        self.with("field", field.code())
    }

    pub fn render(&self, lang: Lang) -> String {
        self.msg.render(lang, &self.params)
    }
}

impl From<Msg> for Problem {
    fn from(msg: Msg) -> Self {
        Problem { msg, params: Params::new() }
    }
}

impl Msg {
    /// This message with a parameter.
    pub fn with(self, name: &str, value: impl Into<Value>) -> Problem {
        Problem::from(self).with(name, value)
    }

    /// This message about a field.
    pub fn field(self, field: Field) -> Problem {
        Problem::from(self).field(field)
    }
}

/// Logs and the command line read problems in English.
impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    BadRequest(Problem),
    #[error("{0}")]
    Unauthorized(Problem),
    #[error("{0}")]
    Forbidden(Problem),
    #[error("{0}")]
    NotFound(Problem),
    #[error("{0}")]
    Conflict(Problem),
    #[error("{0}")]
    TooManyRequests(Problem),
    #[error("request body is too large")]
    PayloadTooLarge,
    #[error("service unavailable")]
    Unavailable(#[source] anyhow::Error),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

/// The body of every error answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorMessage {
    /// What went wrong, for a person to read, in the request's language (`Accept-Language`:
    /// Spanish unless English is preferred).
    pub message: String,
    /// A stable code of what went wrong (`customer.documentExists`), the same in every language.
    pub code: String,
    /// The values the message speaks of (`field`, `max`, ...), when it has any.
    #[serde(skip_serializing_if = "Params::is_empty")]
    #[schema(value_type = Option<Object>)]
    pub params: Params,
}

impl ErrorMessage {
    pub fn new(problem: &Problem, lang: Lang) -> Self {
        ErrorMessage {
            message: problem.render(lang),
            code: problem.msg.code().to_owned(),
            params: problem.params.clone(),
        }
    }
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
    pub fn bad_request(problem: impl Into<Problem>) -> Self {
        AppError::BadRequest(problem.into())
    }

    pub fn not_found(problem: impl Into<Problem>) -> Self {
        AppError::NotFound(problem.into())
    }

    pub fn conflict(problem: impl Into<Problem>) -> Self {
        AppError::Conflict(problem.into())
    }

    pub fn forbidden() -> Self {
        AppError::Forbidden(Msg::Forbidden.into())
    }

    pub fn unauthorized() -> Self {
        AppError::Unauthorized(Msg::NotLoggedIn.into())
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

    /// What the answer tells the person; server faults say nothing of their cause.
    pub fn problem(&self) -> Problem {
        match self {
            AppError::BadRequest(p)
            | AppError::Unauthorized(p)
            | AppError::Forbidden(p)
            | AppError::NotFound(p)
            | AppError::Conflict(p)
            | AppError::TooManyRequests(p) => p.clone(),
            AppError::PayloadTooLarge => Msg::BodyTooLarge.into(),
            AppError::Unavailable(_) => Msg::Unavailable.into(),
            AppError::Internal(_) => Msg::Internal.into(),
        }
    }

    /// The message of a 4xx answer, in `lang` (for the command line and the tests).
    pub fn message(&self, lang: Lang) -> String {
        self.problem().render(lang)
    }
}

/// The answer carries its problem, so that [`localize`] can write it in the request's language;
/// without that layer it reads in Spanish, the default.
impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        match &self {
            AppError::Internal(err) => tracing::error!(error = ?err, "request failed"),
            AppError::Unavailable(err) => tracing::error!(error = ?err, "service unavailable"),
            _ => {}
        }
        problem_response(self.status(), self.problem(), Lang::default())
    }
}

fn problem_response(status: StatusCode, problem: Problem, lang: Lang) -> Response {
    let body = ErrorMessage::new(&problem, lang);
    let mut response = (status, axum::Json(body)).into_response();
    response.extensions_mut().insert(problem);
    response
}

/// Writes every error answer in the request's language, and gives the error answers that the
/// router and the layers make without a body (405, 413, ...) the same JSON shape.
pub async fn localize(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let lang = Lang::from_headers(request.headers());
    let response = next.run(request).await;
    let status = response.status();
    if let Some(problem) = response.extensions().get::<Problem>() {
        if lang == Lang::default() {
            return response;
        }
        let problem = problem.clone();
        return rewrite(response, problem, lang);
    }
    if (status.is_client_error() || status.is_server_error()) && !response.headers().contains_key(CONTENT_TYPE) {
        let problem: Problem = match status {
            StatusCode::METHOD_NOT_ALLOWED => Msg::MethodNotAllowed.into(),
            StatusCode::PAYLOAD_TOO_LARGE => Msg::BodyTooLarge.into(),
            StatusCode::NOT_FOUND => Msg::NoSuchEndpoint.into(),
            s if s.is_server_error() => Msg::Internal.into(),
            s => Msg::RequestFailed.with("status", s.as_u16()),
        };
        return rewrite(response, problem, lang);
    }
    response
}

/// The same answer (status and headers) with the problem's JSON body in `lang`.
fn rewrite(response: Response, problem: Problem, lang: Lang) -> Response {
    let (mut parts, _) = response.into_parts();
    let fresh = problem_response(parts.status, problem, lang);
    let (fresh_parts, body) = fresh.into_parts();
    parts.headers.remove(CONTENT_LENGTH);
    parts.headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    parts.extensions.extend(fresh_parts.extensions);
    Response::from_parts(parts, body)
}

/// A panic in a handler answers the same JSON 500 as any server fault; the connection stays.
pub fn panic_response(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let detail = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("a panic without a message");
    AppError::Internal(anyhow::anyhow!("handler panicked: {detail}")).into_response()
}

/// What a unique-constraint violation means, by constraint name.
fn duplicate(constraint: Option<&str>) -> Msg {
    match constraint {
        Some("companies_prefix_key") => Msg::PrefixExists,
        Some("super_admins_username_key") => Msg::SuperAdminExists,
        Some("customers_document_key") => Msg::CustomerDocumentExists,
        Some("users_username_key") => Msg::UserExists,
        Some("points_of_sale_name_key") => Msg::PosExists,
        Some("products_code_key") => Msg::ProductExists,
        Some("categories_name_key") => Msg::CategoryExists,
        _ => Msg::RecordExists,
    }
}

impl From<tokio_postgres::Error> for AppError {
    fn from(err: tokio_postgres::Error) -> Self {
        if let Some(db) = err.as_db_error() {
            if *db.code() == SqlState::UNIQUE_VIOLATION {
                return AppError::conflict(duplicate(db.constraint()));
            }
            if *db.code() == SqlState::T_R_SERIALIZATION_FAILURE || *db.code() == SqlState::T_R_DEADLOCK_DETECTED {
                return AppError::conflict(Msg::ConcurrentChange);
            }
            // Text that PostgreSQL cannot hold (a NUL character) is the input's fault.
            if *db.code() == SqlState::CHARACTER_NOT_IN_REPERTOIRE || *db.code() == SqlState::UNTRANSLATABLE_CHARACTER {
                return AppError::bad_request(Msg::TextWithNul);
            }
            // A number past what its column holds: the bounds (docs/reliability.md) keep the
            // ledger's figures within range, so this is some other input's fault.
            if *db.code() == SqlState::NUMERIC_VALUE_OUT_OF_RANGE {
                return AppError::bad_request(Msg::NumberOutOfRange);
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
            JsonRejection::MissingJsonContentType(_) => AppError::bad_request(Msg::JsonExpected),
            JsonRejection::BytesRejection(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                AppError::PayloadTooLarge
            }
            JsonRejection::BytesRejection(_) => AppError::bad_request(Msg::BodyUnreadable),
            other => AppError::BadRequest(serde_problem(Msg::InvalidRequest, &other.body_text())),
        }
    }
}

impl From<PathRejection> for AppError {
    fn from(_: PathRejection) -> Self {
        AppError::bad_request(Msg::InvalidPathId)
    }
}

impl From<QueryRejection> for AppError {
    fn from(rejection: QueryRejection) -> Self {
        AppError::BadRequest(serde_problem(Msg::InvalidQuery, &rejection.body_text()))
    }
}

/// Longest part of serde's own words an answer quotes.
const MAX_DETAIL_CHARS: usize = 200;

/// serde's message names the field at fault (`inactivityDays: invalid type: ...`): a field the
/// catalogue knows is named in the request's language; otherwise serde's words are quoted, cut
/// to a bounded number of characters (never inside one).
fn serde_problem(msg: Msg, text: &str) -> Problem {
    let text = text
        .strip_prefix("Failed to deserialize the JSON body into the target type: ")
        .or_else(|| text.strip_prefix("Failed to parse the request body as JSON: "))
        .or_else(|| text.strip_prefix("Failed to deserialize query string: "))
        .unwrap_or(text);
    let field = text.split_once(": ").and_then(|(path, _)| Field::from_code(path.rsplit('.').next().unwrap_or(path)));
    if let Some(field) = field {
        return Msg::FieldInvalid.field(field);
    }
    let mut detail: String = text.chars().take(MAX_DETAIL_CHARS).collect();
    if detail.len() < text.len() {
        detail.push('…');
    }
    msg.with("detail", detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_details_are_cut_on_a_character_boundary() {
        let text = format!("invalid type: string \"{}\", expected i64", "ñ".repeat(300));
        let problem = serde_problem(Msg::InvalidRequest, &text);
        let detail = problem.params["detail"].as_str().unwrap();
        assert_eq!(detail.chars().count(), MAX_DETAIL_CHARS + 1);
        assert!(detail.ends_with('…'));
    }

    #[test]
    fn a_known_field_is_named_instead_of_quoting_serde() {
        let problem =
            serde_problem(Msg::InvalidRequest, "inactivityDays: invalid type: string \"ñ\", expected i64 at line 1");
        assert_eq!(problem, Msg::FieldInvalid.field(Field::InactivityDays));
        assert_eq!(problem.render(Lang::Es), "«Días de inactividad» no tiene un valor válido.");
    }
}
