//! The program's rules and the role permission lists.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::Conn;
use crate::error::{AppError, AppResult, Field, Msg};
use crate::extract::Json;
use crate::session::Tenant;
use crate::state::AppState;

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

impl Settings {
    /// Whether an admin has set the rules a sale needs: points per peso and the redemption rate.
    /// A new company starts with both at 0, and the till refuses to accredit or redeem until
    /// they are set (`docs/decisions.md`).
    pub fn rules_set(&self) -> bool {
        self.points_per_peso > Decimal::ZERO && self.redemption_rate > Decimal::ZERO
    }

    /// Refuses a sale while the rules are not set.
    pub fn require_rules(&self) -> AppResult<()> {
        if self.rules_set() {
            Ok(())
        } else {
            Err(AppError::conflict(Msg::RulesNotSet))
        }
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(read, save)).routes(routes!(setup))
}

/// The statement of [`load`], for [`crate::db::pipeline`].
pub const SELECT: &str = "select points_per_peso, redemption_rate, campaign_multiplier, expiration_policy, \
    points_expiration_days, inactivity_days, enable_first_purchase_bonus, first_purchase_bonus_multiplier, \
    enable_birthday_bonus, birthday_bonus_multiplier, role_permissions, time_zone from settings";

/// The company's rules.
pub async fn load(conn: &Conn) -> AppResult<Settings> {
    let stmt = conn.prepare_cached(SELECT).await?;
    let row = conn.query_one(&stmt, &[]).await?;
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

/// The paths a role's permission list may hold.
pub const GRANTABLE_PATHS: [&str; 7] = [
    "/main",
    "/accreditar",
    "/redimir",
    "/reportes",
    "/settings/customers",
    "/settings/products",
    "/settings/categories",
];

pub const EXPIRATION_POLICIES: [&str; 4] = ["none", "fifo", "inactivity", "calendar"];

/// A settings update: every field is optional and an absent one keeps its current value.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingsInput {
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    points_per_peso: Option<Decimal>,
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    redemption_rate: Option<Decimal>,
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    campaign_multiplier: Option<Decimal>,
    expiration_policy: Option<String>,
    points_expiration_days: Option<i64>,
    inactivity_days: Option<i64>,
    enable_first_purchase_bonus: Option<bool>,
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    first_purchase_bonus_multiplier: Option<Decimal>,
    enable_birthday_bonus: Option<bool>,
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    birthday_bonus_multiplier: Option<Decimal>,
    role_permissions: Option<RolePermissions>,
    /// An IANA time zone, e.g. America/Bogota.
    time_zone: Option<String>,
}

/// A decimal within `[min, max]` that is a whole multiple of `step`; the current value is
/// accepted as it is, so the object `GET /settings` answered can be saved back (a new company's
/// rules start at 0, below every minimum).
fn stepped(
    field: Field,
    value: Decimal,
    current: Decimal,
    (min, max, step): (Decimal, Decimal, Decimal),
) -> AppResult<Decimal> {
    let value = value.round_dp(6).normalize();
    if value == current.normalize() {
        return Ok(current);
    }
    if value < min || value > max {
        return Err(AppError::bad_request(
            Msg::FieldRange.field(field).with("min", min.to_string()).with("max", max.to_string()),
        ));
    }
    if !(value / step).fract().is_zero() {
        return Err(AppError::bad_request(Msg::FieldStep.field(field).with("step", step.to_string())));
    }
    Ok(value)
}

fn days(field: Field, value: i64, current: i32) -> AppResult<i32> {
    if value == i64::from(current) {
        return Ok(current);
    }
    if !(1..=36_500).contains(&value) {
        return Err(AppError::bad_request(Msg::FieldDays.field(field)));
    }
    Ok(value as i32)
}

fn permissions(list: &[String], role: &str) -> AppResult<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for path in list {
        if !GRANTABLE_PATHS.contains(&path.as_str()) {
            return Err(AppError::bad_request(
                Msg::PermissionsInvalid.with("role", role).with("paths", GRANTABLE_PATHS.join(", ")),
            ));
        }
        if !out.contains(path) {
            out.push(path.clone());
        }
    }
    Ok(out)
}

impl SettingsInput {
    /// The current settings with this update applied, validated.
    fn apply(self, mut s: Settings) -> AppResult<Settings> {
        let d = |text: &str| text.parse::<Decimal>().expect("constant");
        if let Some(v) = self.points_per_peso {
            s.points_per_peso =
                stepped(Field::PointsPerPeso, v, s.points_per_peso, (d("0.001"), d("1000"), d("0.001")))?;
        }
        if let Some(v) = self.redemption_rate {
            s.redemption_rate = stepped(Field::RedemptionRate, v, s.redemption_rate, (d("1"), d("1000000"), d("1")))?;
        }
        if let Some(v) = self.campaign_multiplier {
            s.campaign_multiplier =
                stepped(Field::CampaignMultiplier, v, s.campaign_multiplier, (d("1"), d("100"), d("0.5")))?;
        }
        if let Some(v) = self.expiration_policy {
            if !EXPIRATION_POLICIES.contains(&v.as_str()) {
                return Err(AppError::bad_request(Msg::ExpirationPolicyInvalid));
            }
            s.expiration_policy = v;
        }
        if let Some(v) = self.points_expiration_days {
            s.points_expiration_days = days(Field::PointsExpirationDays, v, s.points_expiration_days)?;
        }
        if let Some(v) = self.inactivity_days {
            s.inactivity_days = days(Field::InactivityDays, v, s.inactivity_days)?;
        }
        if let Some(v) = self.enable_first_purchase_bonus {
            s.enable_first_purchase_bonus = v;
        }
        if let Some(v) = self.first_purchase_bonus_multiplier {
            s.first_purchase_bonus_multiplier = stepped(
                Field::FirstPurchaseBonusMultiplier,
                v,
                s.first_purchase_bonus_multiplier,
                (d("1"), d("100"), d("0.1")),
            )?;
        }
        if let Some(v) = self.enable_birthday_bonus {
            s.enable_birthday_bonus = v;
        }
        if let Some(v) = self.birthday_bonus_multiplier {
            s.birthday_bonus_multiplier =
                stepped(Field::BirthdayBonusMultiplier, v, s.birthday_bonus_multiplier, (d("1"), d("100"), d("0.1")))?;
        }
        if let Some(p) = self.role_permissions {
            s.role_permissions = RolePermissions {
                supervisor: permissions(&p.supervisor, "supervisor")?,
                cajero: permissions(&p.cajero, "cajero")?,
            };
        }
        if let Some(tz) = self.time_zone {
            if tz.parse::<chrono_tz::Tz>().is_err() {
                return Err(AppError::bad_request(Msg::TimeZoneInvalid));
            }
            s.time_zone = tz;
        }
        Ok(s)
    }
}

/// Saves the program's rules and role permissions (admin); answers the saved settings.
#[utoipa::path(post, path = "/settings", tag = "settings", security(("bearer" = [])), request_body = SettingsInput,
    responses((status = 200, body = Settings), crate::error::ApiErrors))]
async fn save(t: Tenant, Json(input): Json<SettingsInput>) -> AppResult<Json<Settings>> {
    t.require_admin()?;
    t.execute("select 1 from settings for update", &[]).await?;
    let before = load(&t).await?;
    let s = input.apply(before.clone())?;
    let permissions = serde_json::to_value(&s.role_permissions).map_err(AppError::internal)?;
    t.execute(
        "update settings set points_per_peso = $1, redemption_rate = $2, campaign_multiplier = $3, \
         expiration_policy = $4, points_expiration_days = $5, inactivity_days = $6, \
         enable_first_purchase_bonus = $7, first_purchase_bonus_multiplier = $8, enable_birthday_bonus = $9, \
         birthday_bonus_multiplier = $10, role_permissions = $11, time_zone = $12, updated_at = now()",
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
        ],
    )
    .await?;
    let detail = serde_json::json!({ "before": before, "after": s });
    crate::tenant::audit(&t, "settings.update", "settings", None, detail).await?;
    if before.role_permissions != s.role_permissions {
        let detail = serde_json::json!({ "before": before.role_permissions, "after": s.role_permissions });
        crate::tenant::audit(&t, "permissions.update", "settings", None, detail).await?;
    }
    let saved = load(&t).await?;
    t.commit().await?;
    Ok(Json(saved))
}

/// What a new company still has to set up before its tills can work.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetupProgress {
    /// Points per peso and the redemption rate are set.
    pub rules: bool,
    /// Active points of sale.
    pub points_of_sale: i64,
    /// Active supervisors and cashiers.
    pub users: i64,
    /// Active products that can be redeemed (worth at least 1 point).
    pub products: i64,
}

/// The admin's set-up checklist: the rules, points of sale, staff and products.
#[utoipa::path(get, path = "/settings/setup", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = SetupProgress), crate::error::ApiErrors))]
async fn setup(t: Tenant) -> AppResult<Json<SetupProgress>> {
    t.require_admin()?;
    let rules = load(&t).await?.rules_set();
    let (points_of_sale, users, products) = setup_counts(&t).await?;
    t.commit().await?;
    Ok(Json(SetupProgress { rules, points_of_sale, users, products }))
}

async fn setup_counts(conn: &Conn) -> AppResult<(i64, i64, i64)> {
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
