//! The program's rules and the role permission lists.

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::auth::Tenant;
use crate::error::AppResult;
use crate::http::{AppState, Json};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct RolePermissions {
    pub supervisor: Vec<String>,
    pub cajero: Vec<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub points_per_peso: Decimal,
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub redemption_rate: Decimal,
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub campaign_multiplier: Decimal,
    pub expiration_policy: String,
    pub points_expiration_days: i32,
    pub inactivity_days: i32,
    pub enable_first_purchase_bonus: bool,
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub first_purchase_bonus_multiplier: Decimal,
    pub enable_birthday_bonus: bool,
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub birthday_bonus_multiplier: Decimal,
    pub role_permissions: RolePermissions,
    pub time_zone: String,
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(read))
}

pub async fn load(client: &tokio_postgres::Client) -> AppResult<Settings> {
    let row = client
        .query_one(
            "select points_per_peso, redemption_rate, campaign_multiplier, expiration_policy, \
             points_expiration_days, inactivity_days, enable_first_purchase_bonus, \
             first_purchase_bonus_multiplier, enable_birthday_bonus, birthday_bonus_multiplier, \
             role_permissions, time_zone from settings",
            &[],
        )
        .await?;
    let permissions: serde_json::Value = row.get("role_permissions");
    Ok(Settings {
        points_per_peso: row.get("points_per_peso"),
        redemption_rate: row.get("redemption_rate"),
        campaign_multiplier: row.get("campaign_multiplier"),
        expiration_policy: row.get("expiration_policy"),
        points_expiration_days: row.get("points_expiration_days"),
        inactivity_days: row.get("inactivity_days"),
        enable_first_purchase_bonus: row.get("enable_first_purchase_bonus"),
        first_purchase_bonus_multiplier: row.get("first_purchase_bonus_multiplier"),
        enable_birthday_bonus: row.get("enable_birthday_bonus"),
        birthday_bonus_multiplier: row.get("birthday_bonus_multiplier"),
        role_permissions: serde_json::from_value(permissions)
            .unwrap_or(RolePermissions { supervisor: vec![], cajero: vec![] }),
        time_zone: row.get("time_zone"),
    })
}

/// The program's rules and role permissions (every company role).
#[utoipa::path(get, path = "/settings", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = Settings), crate::error::ApiErrors))]
async fn read(t: Tenant) -> AppResult<Json<Settings>> {
    let settings = load(&t).await?;
    t.commit().await?;
    Ok(Json(settings))
}
