//! Data access of the settings: every SQL statement of the entity. Functions run inside the
//! caller's tenant transaction and never commit.

use tracing::instrument;

use super::model::{RolePermissions, Settings};
use crate::db::Conn;
use crate::error::{AppError, AppResult};

/// The statement of [`load`], for [`crate::db::pipeline`]. It also tells whether the company has
/// webhook endpoints, which the transaction remembers ([`Conn::note_webhook_endpoints`]): a sale
/// of a company without any then writes no event to an outbox it does not have.
pub const SELECT: &str = "select points_per_peso, redemption_rate, campaign_multiplier, expiration_policy, \
    points_expiration_days, inactivity_days, enable_first_purchase_bonus, first_purchase_bonus_multiplier, \
    enable_birthday_bonus, birthday_bonus_multiplier, role_permissions, time_zone, return_of_spent_points, \
    max_accreditations_per_customer_per_day, max_points_per_customer_per_day, alert_operations_per_day, retention_years, \
    exists (select 1 from webhook_endpoints) as has_webhook_endpoints from settings";

/// The company's rules.
#[instrument(level = "debug", skip_all)]
pub async fn load(conn: &Conn) -> AppResult<Settings> {
    let stmt = conn.prepare_cached(SELECT).await?;
    let row = conn.query_one(&stmt, &[]).await?;
    let permissions: serde_json::Value = row.get("role_permissions");
    conn.note_webhook_endpoints(row.get("has_webhook_endpoints"));
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
        return_of_spent_points: row.get("return_of_spent_points"),
        max_accreditations_per_customer_per_day: row.get("max_accreditations_per_customer_per_day"),
        max_points_per_customer_per_day: row.get("max_points_per_customer_per_day"),
        alert_operations_per_day: row.get("alert_operations_per_day"),
        retention_years: row.get("retention_years"),
    })
}

/// Locks the settings row for the rest of the transaction, so that two saves do not each
/// apply their change to the same rules.
#[instrument(level = "debug", skip_all)]
pub async fn lock(conn: &Conn) -> AppResult<()> {
    conn.execute("select 1 from settings for update", &[]).await?;
    Ok(())
}

/// Saves the company's rules.
#[instrument(level = "debug", skip_all)]
pub async fn save(conn: &Conn, s: &Settings) -> AppResult<()> {
    let permissions = serde_json::to_value(&s.role_permissions).map_err(AppError::internal)?;
    conn.execute(
        "update settings set points_per_peso = $1, redemption_rate = $2, campaign_multiplier = $3, \
         expiration_policy = $4, points_expiration_days = $5, inactivity_days = $6, \
         enable_first_purchase_bonus = $7, first_purchase_bonus_multiplier = $8, enable_birthday_bonus = $9, \
         birthday_bonus_multiplier = $10, role_permissions = $11, time_zone = $12, return_of_spent_points = $13, \
         max_accreditations_per_customer_per_day = $14, max_points_per_customer_per_day = $15, \
         alert_operations_per_day = $16, retention_years = $17, updated_at = now()",
        &[
            &s.points_per_peso,
            &s.redemption_rate,
            &s.campaign_multiplier,
            &s.expiration_policy,
            &s.points_expiration_days,
            &s.inactivity_days,
            &s.enable_first_purchase_bonus,
            &s.first_purchase_bonus_multiplier,
            &s.enable_birthday_bonus,
            &s.birthday_bonus_multiplier,
            &permissions,
            &s.time_zone,
            &s.return_of_spent_points,
            &s.max_accreditations_per_customer_per_day,
            &s.max_points_per_customer_per_day,
            &s.alert_operations_per_day,
            &s.retention_years,
        ],
    )
    .await?;
    Ok(())
}

/// Active points of sale, active supervisors and cashiers, and active products worth at least
/// 1 point.
#[instrument(level = "debug", skip_all)]
pub async fn setup_counts(conn: &Conn) -> AppResult<(i64, i64, i64)> {
    let stmt = conn
        .prepare_cached(
            "select (select count(*) from points_of_sale where is_active) as points_of_sale, \
                    (select count(*) from users where is_active and role <> 'admin') as users, \
                    (select count(*) from products where is_active and points_value >= 1) as products",
        )
        .await?;
    let row = conn.query_one(&stmt, &[]).await?;
    Ok((row.get("points_of_sale"), row.get("users"), row.get("products")))
}
