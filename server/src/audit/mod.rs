//! The company's audit trail, readable: who changed rules, permissions and users, voided,
//! approved, expired points, impersonated or got locked out (docs/roles.md, "Audit trail").
//! The entries are written where each action happens (`tenant::audit`); this area reads them.

use chrono::NaiveDate;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{AppError, AppResult, Field, Msg};
use crate::extract::{Json, Query};
use crate::points::rules;
use crate::session::Tenant;
use crate::state::AppState;
use crate::tenant::settings;

pub mod model;
mod store;

use model::AuditPage;
use store::AuditFilter;

/// Entries per page the reader offers.
pub const PAGE_SIZES: [i64; 3] = [10, 25, 50];

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(search))
}

/// The reader's filters as query parameters; empty values do not filter.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AuditParams {
    /// A username (case-insensitive): what they did, and what a super admin of that name did
    /// while impersonating.
    pub actor: Option<String>,
    /// An action's code, such as `user.create` (exact).
    pub action: Option<String>,
    /// First day, `YYYY-MM-DD`, from its start in the company's time zone.
    pub from: Option<String>,
    /// Last day, `YYYY-MM-DD`, to its end in the company's time zone.
    pub to: Option<String>,
    /// From 1 (default 1).
    pub page: Option<String>,
    /// 10, 25 or 50 (default 10).
    pub page_size: Option<String>,
}

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

fn date_param(field: Field, value: &Option<String>) -> AppResult<Option<NaiveDate>> {
    present(value)
        .map(|v| {
            NaiveDate::parse_from_str(v, "%Y-%m-%d").map_err(|_| AppError::bad_request(Msg::FieldDate.field(field)))
        })
        .transpose()
}

fn number_param(value: &Option<String>, default: i64, valid: impl Fn(i64) -> bool, invalid: Msg) -> AppResult<i64> {
    match present(value) {
        None => Ok(default),
        Some(v) => v.parse::<i64>().ok().filter(|n| valid(*n)).ok_or_else(|| AppError::bad_request(invalid)),
    }
}

/// A validated request: its filter (without the instants yet), days and page.
struct AuditRequest {
    filter: AuditFilter,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    page: i64,
    page_size: i64,
}

impl AuditParams {
    fn parse(&self) -> AppResult<AuditRequest> {
        let actor = crate::domain::optional_text(Field::Actor, self.actor.as_deref(), 100)?;
        let action = crate::domain::optional_text(Field::Action, self.action.as_deref(), 100)?;
        Ok(AuditRequest {
            filter: AuditFilter { actor: actor.map(|a| a.to_lowercase()), action, from: None, until: None },
            from: date_param(Field::From, &self.from)?,
            to: date_param(Field::To, &self.to)?,
            page: number_param(&self.page, 1, |p| (1..=1_000_000).contains(&p), Msg::PageInvalid)?,
            page_size: number_param(&self.page_size, PAGE_SIZES[0], |s| PAGE_SIZES.contains(&s), Msg::PageSizeInvalid)?,
        })
    }
}

/// One page of the company's audit trail, newest first, filtered by actor, action and days in
/// the company's time zone (admin).
#[utoipa::path(get, path = "/audit", tag = "audit", security(("bearer" = [])), params(AuditParams),
    responses((status = 200, body = AuditPage), crate::error::ApiErrors))]
async fn search(t: Tenant, Query(params): Query<AuditParams>) -> AppResult<Json<AuditPage>> {
    t.require_admin()?;
    let AuditRequest { mut filter, from, to, page, page_size } = params.parse()?;
    if from.is_some() || to.is_some() {
        let tz = rules::time_zone(&settings::load(&t).await?.time_zone);
        filter.from = from.map(|day| rules::local_day_start(day, tz));
        filter.until = to.and_then(|day| day.succ_opt()).map(|next| rules::local_day_start(next, tz));
    }
    let (items, total, total_exact) = store::search(&t, &filter, page_size, (page - 1) * page_size).await?;
    t.commit().await?;
    Ok(Json(AuditPage { items, total, total_exact, page, page_size }))
}
