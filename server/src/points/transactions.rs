//! The transaction report: the whole list, and a paged form with the report's filters.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::rules;
use super::store::{self, TransactionFilter};
use super::{Kind, Transaction};
use crate::error::{AppError, AppResult, Field, Msg};
use crate::extract::{Json, Query};
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::settings;

/// Screens that show transactions.
pub const PERMISSIONS: &[&str] = &["/reportes"];
pub const PAGE_SIZES: [i64; 3] = [10, 25, 50];

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(search)).routes(routes!(totals))
}

/// Every transaction, newest first.
#[utoipa::path(get, path = "/transactions", tag = "points", security(("bearer" = [])),
    responses((status = 200, body = Vec<Transaction>), crate::error::ApiErrors))]
async fn list(t: Tenant) -> AppResult<Json<Vec<Transaction>>> {
    t.require_permission(PERMISSIONS).await?;
    let items = store::all_transactions(&t).await?;
    t.commit().await?;
    Ok(Json(items))
}

/// The report's filters as query parameters; empty values do not filter.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct SearchParams {
    /// Part of the customer's name or document (case-insensitive).
    pub text: Option<String>,
    /// accreditation, redemption, expiration, cancellation, return or forfeit.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Point of sale id.
    pub pos_id: Option<String>,
    /// Cashier username (`system` for expirations).
    pub cashier: Option<String>,
    /// Customer id.
    pub customer_id: Option<String>,
    /// First day, `YYYY-MM-DD`, from its start in the company's time zone.
    pub from: Option<String>,
    /// Last day, `YYYY-MM-DD`, to its end in the company's time zone.
    pub to: Option<String>,
    /// An invoice reference (compared without case): the rows that carry it.
    pub invoice_reference: Option<String>,
    /// From 1 (default 1).
    pub page: Option<String>,
    /// 10, 25 or 50 (default 10).
    pub page_size: Option<String>,
}

/// One page of the transaction report.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransactionPage {
    /// The page's transactions, newest first.
    pub items: Vec<Transaction>,
    /// Transactions matching the filters in all; when `totalExact` is false, at least this many
    /// (the report counts exactly up to 10,000 matches past the page).
    pub total: i64,
    /// Whether `total` is the exact count.
    pub total_exact: bool,
    /// The page answered, from 1.
    pub page: i64,
    /// Transactions per page: 10, 25 or 50.
    pub page_size: i64,
}

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

fn id_param(field: Field, value: &Option<String>) -> AppResult<Option<i64>> {
    present(value)
        .map(|v| {
            v.parse::<i64>()
                .ok()
                .filter(|id| *id > 0)
                .ok_or_else(|| AppError::bad_request(Msg::FieldPositiveId.field(field)))
        })
        .transpose()
}

fn date_param(field: Field, value: &Option<String>) -> AppResult<Option<NaiveDate>> {
    present(value)
        .map(|v| {
            NaiveDate::parse_from_str(v, "%Y-%m-%d").map_err(|_| AppError::bad_request(Msg::FieldDate.field(field)))
        })
        .transpose()
}

/// A validated report request; the days are still local days of the company.
struct ReportRequest {
    filter: TransactionFilter,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    page: i64,
    page_size: i64,
}

impl SearchParams {
    fn parse(&self) -> AppResult<ReportRequest> {
        let kind = present(&self.kind)
            .map(|k| Kind::parse(k).ok_or_else(|| AppError::bad_request(Msg::TypeInvalid)))
            .transpose()?;
        let page = match present(&self.page) {
            None => 1,
            Some(p) => p
                .parse::<i64>()
                .ok()
                .filter(|p| (1..=1_000_000).contains(p))
                .ok_or_else(|| AppError::bad_request(Msg::PageInvalid))?,
        };
        let page_size = match present(&self.page_size) {
            None => PAGE_SIZES[0],
            Some(s) => s
                .parse::<i64>()
                .ok()
                .filter(|s| PAGE_SIZES.contains(s))
                .ok_or_else(|| AppError::bad_request(Msg::PageSizeInvalid))?,
        };
        for (field, value) in [
            (Field::Text, &self.text),
            (Field::Cashier, &self.cashier),
            (Field::InvoiceReference, &self.invoice_reference),
        ] {
            crate::domain::optional_text(field, value.as_deref(), 100)?;
        }
        let text = present(&self.text);
        if text.is_some_and(|t| t.chars().count() > 100) {
            return Err(AppError::bad_request(Msg::FieldTooLong.field(Field::Text).with("max", 100)));
        }
        let filter = TransactionFilter {
            customer_pattern: text.map(|text| crate::domain::like_pattern(&crate::domain::search_text(text))),
            kind,
            pos_id: id_param(Field::PosId, &self.pos_id)?,
            cashier: present(&self.cashier).map(str::to_lowercase),
            customer_id: id_param(Field::CustomerId, &self.customer_id)?,
            from: None,
            until: None,
            invoice_reference: present(&self.invoice_reference).map(str::to_string),
        };
        Ok(ReportRequest {
            filter,
            from: date_param(Field::From, &self.from)?,
            to: date_param(Field::To, &self.to)?,
            page,
            page_size,
        })
    }
}

/// The report's filters with the days turned into instants of the company's time zone.
async fn resolved_filter(t: &Tenant, params: &SearchParams) -> AppResult<ReportRequest> {
    let mut request = params.parse()?;
    if request.from.is_some() || request.to.is_some() {
        let tz = rules::time_zone(&settings::load(t).await?.time_zone);
        request.filter.from = request.from.map(|day| rules::local_day_start(day, tz));
        request.filter.until = request.to.and_then(|day| day.succ_opt()).map(|next| rules::local_day_start(next, tz));
    }
    Ok(request)
}

/// The totals of every transaction matching the report's filters (not only a page): points
/// accredited, redeemed and returned, invoice amounts, redeemed value and returned pesos, voided
/// rows (and the returns of voided accreditations) left out.
#[utoipa::path(get, path = "/transactions/totals", tag = "points", security(("bearer" = [])),
    params(SearchParams),
    responses((status = 200, body = store::ReportTotals), crate::error::ApiErrors))]
async fn totals(t: Tenant, Query(params): Query<SearchParams>) -> AppResult<Json<store::ReportTotals>> {
    t.require_permission(PERMISSIONS).await?;
    let request = resolved_filter(&t, &params).await?;
    let totals = store::transaction_totals(&t, &request.filter).await?;
    t.commit().await?;
    Ok(Json(totals))
}

/// One page of the transactions matching the report's filters, newest first.
#[utoipa::path(get, path = "/transactions/search", tag = "points", security(("bearer" = [])),
    params(SearchParams),
    responses((status = 200, body = TransactionPage), crate::error::ApiErrors))]
async fn search(t: Tenant, Query(params): Query<SearchParams>) -> AppResult<Json<TransactionPage>> {
    t.require_permission(PERMISSIONS).await?;
    let ReportRequest { filter, page, page_size, .. } = resolved_filter(&t, &params).await?;
    let matches = store::search_transactions(&t, &filter, page_size, (page - 1) * page_size).await?;
    t.commit().await?;
    Ok(Json(TransactionPage {
        items: matches.items,
        total: matches.total,
        total_exact: matches.exact,
        page,
        page_size,
    }))
}
