//! A data holder's request (Ley 1581 de 2012, arts. 14-15) as the API answers and takes it.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use tokio_postgres::Row;

use crate::domain::{self, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Msg};

/// Business days a consulta is answered within, from the day after filing (art. 14).
pub const CONSULTA_DAYS: u32 = 10;
/// Business days a consulta's one extension adds (art. 14).
pub const CONSULTA_EXTENSION_DAYS: u32 = 5;
/// Business days a reclamo is answered within, from the day after filing (art. 15).
pub const RECLAMO_DAYS: u32 = 15;
/// Business days a reclamo's one extension adds (art. 15).
pub const RECLAMO_EXTENSION_DAYS: u32 = 8;
/// Business days ahead within which the dashboard lists an open request as due soon.
pub const DUE_SOON_DAYS: u32 = 2;
/// The longest details, answer or reason.
pub const MAX_LONG_TEXT: usize = 4000;

pub const KINDS: [&str; 2] = ["consulta", "reclamo"];
pub const STATUSES: [&str; 4] = ["open", "incomplete", "answered", "closed"];

/// A consulta (to know what is held and how it is used) or a reclamo (to correct, update or
/// suppress data, revoke the authorization, or report a breach).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Consulta,
    Reclamo,
}

impl Kind {
    pub fn parse(value: Option<&str>) -> AppResult<Self> {
        match value.map(str::trim) {
            Some("consulta") => Ok(Kind::Consulta),
            Some("reclamo") => Ok(Kind::Reclamo),
            _ => Err(AppError::bad_request(Msg::DataRequestKindInvalid)),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Consulta => "consulta",
            Kind::Reclamo => "reclamo",
        }
    }

    /// Business days to answer, from the day after filing.
    pub fn term(self) -> u32 {
        match self {
            Kind::Consulta => CONSULTA_DAYS,
            Kind::Reclamo => RECLAMO_DAYS,
        }
    }

    /// Business days the one extension adds.
    pub fn extension(self) -> u32 {
        match self {
            Kind::Consulta => CONSULTA_EXTENSION_DAYS,
            Kind::Reclamo => RECLAMO_EXTENSION_DAYS,
        }
    }
}

/// A request as the API answers it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataRequest {
    pub id: i64,
    /// The customer the request is about, when the document is a customer's; null otherwise.
    pub customer_id: Option<i64>,
    /// The customer's name when linked to one.
    pub customer_name: Option<String>,
    /// The holder's ID document, as stored for customers.
    pub document: String,
    /// `consulta` or `reclamo`.
    pub kind: String,
    pub subject: String,
    pub details: String,
    /// `open` (its clock runs), `incomplete` (a reclamo waiting for the holder to complete it; its
    /// clock stops), `answered` or `closed`.
    pub status: String,
    pub filed_at: DateTime<Utc>,
    /// The company-local day it was filed; business days count from the day after.
    #[schema(value_type = String, format = Date)]
    pub filed_on: NaiveDate,
    /// The last day to answer, in Colombian business days (extension included).
    #[schema(value_type = String, format = Date)]
    pub due_on: NaiveDate,
    /// Business days from today to `dueOn` while open: 0 on the due day, negative when overdue;
    /// null once it is incomplete, answered or closed.
    pub days_left: Option<i64>,
    /// Who filed it (username).
    pub filed_by: String,
    /// Whether its one extension was used.
    pub extended: bool,
    pub extension_reason: Option<String>,
    /// What is missing, when a reclamo was marked incomplete.
    pub incomplete_reason: Option<String>,
    pub answer: Option<String>,
    pub answered_at: Option<DateTime<Utc>>,
    pub answered_by: Option<String>,
    pub closed_at: Option<DateTime<Utc>>,
}

/// Columns of `DataRequest` but `daysLeft`, for `select` and `returning` lists on `data_requests r`.
pub const COLUMNS: &str =
    "r.id, r.customer_id, (select c.name from customers c where c.id = r.customer_id) as customer_name, \
     r.document, r.kind, r.subject, r.details, r.status, r.filed_at, r.filed_on, r.due_on, r.filed_by, \
     r.extended_at is not null as extended, r.extension_reason, r.incomplete_reason, r.answer, r.answered_at, \
     r.answered_by, r.closed_at";

impl DataRequest {
    /// The request of a row, its `daysLeft` counted from `today`.
    pub fn from_row(row: &Row, today: NaiveDate) -> Self {
        let status: String = row.get("status");
        let due_on: NaiveDate = row.get("due_on");
        DataRequest {
            id: row.get("id"),
            customer_id: row.get("customer_id"),
            customer_name: row.get("customer_name"),
            document: row.get("document"),
            kind: row.get("kind"),
            subject: row.get("subject"),
            details: row.get("details"),
            days_left: (status == "open").then(|| crate::calendar::business_days_between(today, due_on)),
            status,
            filed_at: row.get("filed_at"),
            filed_on: row.get("filed_on"),
            due_on,
            filed_by: row.get("filed_by"),
            extended: row.get("extended"),
            extension_reason: row.get("extension_reason"),
            incomplete_reason: row.get("incomplete_reason"),
            answer: row.get("answer"),
            answered_at: row.get("answered_at"),
            answered_by: row.get("answered_by"),
            closed_at: row.get("closed_at"),
        }
    }
}

/// A request to file.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataRequestInput {
    /// The customer it is about; absent: the customer holding `document`, if any.
    customer_id: Option<i64>,
    /// The holder's ID document (3 to 20 letters, digits or '-'); when `customerId` is given it
    /// must be that customer's.
    #[schema(value_type = String, required = true)]
    document: Option<String>,
    /// `consulta` or `reclamo`.
    #[schema(value_type = String, required = true)]
    kind: Option<String>,
    /// Required, at most 200 characters.
    #[schema(value_type = String, required = true)]
    subject: Option<String>,
    /// Required, at most 4,000 characters.
    #[schema(value_type = String, required = true)]
    details: Option<String>,
}

/// A request once validated.
pub struct NewRequest {
    pub customer_id: Option<i64>,
    pub document: String,
    pub kind: Kind,
    pub subject: String,
    pub details: String,
}

impl DataRequestInput {
    pub fn validate(&self) -> AppResult<NewRequest> {
        Ok(NewRequest {
            customer_id: self.customer_id,
            document: domain::document(self.document.as_deref())?,
            kind: Kind::parse(self.kind.as_deref())?,
            subject: domain::required_text(Field::Subject, self.subject.as_deref(), MAX_TEXT)?,
            details: domain::required_text(Field::Details, self.details.as_deref(), MAX_LONG_TEXT)?,
        })
    }
}

/// A change of a request: `extend` (once, with `reason`), `incomplete` (a reclamo, with `reason`
/// saying what is missing), `complete` (the holder completed an incomplete reclamo: its term starts
/// again from the day after), `answer` (with `answer`) or `close`.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataRequestUpdate {
    /// `extend`, `incomplete`, `complete`, `answer` or `close`.
    #[schema(value_type = String, required = true)]
    action: Option<String>,
    /// Why it is extended, or what an incomplete reclamo lacks; at most 4,000 characters.
    reason: Option<String>,
    /// The answer given to the holder; at most 4,000 characters.
    answer: Option<String>,
}

/// A validated change.
pub enum Action {
    Extend { reason: String },
    Incomplete { reason: String },
    Complete,
    Answer { answer: String },
    Close,
}

impl DataRequestUpdate {
    pub fn validate(&self) -> AppResult<Action> {
        let long = |field, value: &Option<String>| domain::required_text(field, value.as_deref(), MAX_LONG_TEXT);
        match self.action.as_deref().map(str::trim) {
            Some("extend") => Ok(Action::Extend { reason: long(Field::Reason, &self.reason)? }),
            Some("incomplete") => Ok(Action::Incomplete { reason: long(Field::Reason, &self.reason)? }),
            Some("complete") => Ok(Action::Complete),
            Some("answer") => Ok(Action::Answer { answer: long(Field::Answer, &self.answer)? }),
            Some("close") => Ok(Action::Close),
            _ => Err(AppError::bad_request(Msg::DataRequestActionInvalid)),
        }
    }
}

/// The list's filters and page.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// `open`, `incomplete`, `answered` or `closed`; absent: every one.
    pub status: Option<String>,
    /// `consulta` or `reclamo`; absent: both.
    pub kind: Option<String>,
    /// From 1.
    pub page: Option<i64>,
    /// 10, 25 or 50.
    pub page_size: Option<i64>,
}
