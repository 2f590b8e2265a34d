//! The program's rules and role permissions as the API answers and takes them, with their
//! bounds.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult, Field, Msg};

/// The screens supervisors and cajeros may use, as paths (admins may use every one). Grantable:
/// `/main`, `/accreditar`, `/redimir`, `/reportes`, `/settings/customers`, `/settings/products`,
/// `/settings/categories`, `/solicitudes-datos`, and for supervisors only `/alertas` (docs/roles.md).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct RolePermissions {
    /// The paths supervisors may use.
    pub supervisor: Vec<String>,
    /// The paths cajeros may use.
    pub cajero: Vec<String>,
}

/// The company's points program: its rules, its role permissions and its time zone
/// (docs/points.md).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// Points an invoice earns per peso, before the campaign and bonuses: 0.001 to 1000 in steps of
    /// 0.001. A new company starts at 0, and the till refuses to accredit or redeem until it is
    /// set.
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub points_per_peso: Decimal,
    /// Points per peso of redeemed value: points are worth `floor(points / redemptionRate)` pesos.
    /// 1 to 1,000,000, whole; a new company starts at 0, and the till refuses to accredit or redeem
    /// until it is set.
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub redemption_rate: Decimal,
    /// Multiplies the points of every accreditation: 1 to 100 in steps of 0.5 (1: no campaign).
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub campaign_multiplier: Decimal,
    /// `none`; `fifo` (a batch expires `pointsExpirationDays` after it was earned); `inactivity`
    /// (every point of a customer with no accreditation or redemption for `inactivityDays`); or
    /// `calendar` (points earned in a year expire when the next year ends).
    pub expiration_policy: String,
    /// Days a batch of points lasts under `fifo`: 1 to 36,500.
    pub points_expiration_days: i32,
    /// Days without activity after which `inactivity` expires a customer's points: 1 to 36,500.
    pub inactivity_days: i32,
    /// Whether a customer's first accreditation (none earlier that is not voided) is multiplied by
    /// `firstPurchaseBonusMultiplier`.
    pub enable_first_purchase_bonus: bool,
    /// The first-purchase bonus's multiplier: 1 to 100 in steps of 0.1.
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub first_purchase_bonus_multiplier: Decimal,
    /// Whether accreditations on the customer's birthday, in the company's time zone, are
    /// multiplied by `birthdayBonusMultiplier`.
    pub enable_birthday_bonus: bool,
    /// The birthday bonus's multiplier: 1 to 100 in steps of 0.1.
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub birthday_bonus_multiplier: Decimal,
    /// The screens supervisors and cajeros may use.
    pub role_permissions: RolePermissions,
    /// The company's IANA time zone: its days, birthdays and expiration dates are taken there
    /// (`America/Bogota` when missing or unknown).
    pub time_zone: String,
    /// What a return does when the customer already spent the points it reverses: `refuse`
    /// (the default: 409 naming the points missing) or `negative` (the balance goes below zero
    /// and redemptions wait until it is positive again).
    pub return_of_spent_points: String,
    /// The most accreditations one customer may receive in a calendar day of the company's time
    /// zone; beyond it a supervisor or admin must approve (docs/points.md, "Velocity limits").
    /// 0, the default, is no limit.
    pub max_accreditations_per_customer_per_day: i32,
    /// The most points one customer may be credited in a calendar day of the company's time zone;
    /// beyond it a supervisor or admin must approve. 0, the default, is no limit.
    pub max_points_per_customer_per_day: i64,
    /// An alert is raised for a customer with more than this many accreditations and redemptions
    /// in one local day: 0 to 1,000 (0 turns it off; docs/points.md, "Alerts").
    pub alert_operations_per_day: i32,
    /// Customers without activity (accreditation or redemption, else enrolment) for this many
    /// years are anonymised by the daily job: 1 to 100; 0, the default, is off (docs/privacy.md,
    /// "Retention").
    pub retention_years: i32,
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

/// The paths a role's permission list may hold.
pub const GRANTABLE_PATHS: [&str; 9] = [
    "/main",
    "/accreditar",
    "/redimir",
    "/reportes",
    "/settings/customers",
    "/settings/products",
    "/settings/categories",
    "/solicitudes-datos",
    "/alertas",
];

/// Paths only supervisors may be granted: cajeros never see alerts.
pub const SUPERVISOR_ONLY_PATHS: [&str; 1] = ["/alertas"];

pub const EXPIRATION_POLICIES: [&str; 4] = ["none", "fifo", "inactivity", "calendar"];

/// What a return of spent points may do (`Settings::return_of_spent_points`).
pub const RETURN_OF_SPENT_POINTS: [&str; 2] = ["refuse", "negative"];

/// A settings update: every field is optional and an absent one keeps its current value. A value
/// equal to the current one is accepted even out of bounds, so the object `GET /settings` answered
/// can be saved back.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingsInput {
    /// 0.001 to 1000, in steps of 0.001.
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    points_per_peso: Option<Decimal>,
    /// 1 to 1,000,000, whole.
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    redemption_rate: Option<Decimal>,
    /// 1 to 100, in steps of 0.5.
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    campaign_multiplier: Option<Decimal>,
    /// `none`, `fifo`, `inactivity` or `calendar`.
    expiration_policy: Option<String>,
    /// 1 to 36,500.
    points_expiration_days: Option<i64>,
    /// 1 to 36,500.
    inactivity_days: Option<i64>,
    /// Turns the first-purchase bonus on or off.
    enable_first_purchase_bonus: Option<bool>,
    /// 1 to 100, in steps of 0.1.
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    first_purchase_bonus_multiplier: Option<Decimal>,
    /// Turns the birthday bonus on or off.
    enable_birthday_bonus: Option<bool>,
    /// 1 to 100, in steps of 0.1.
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    birthday_bonus_multiplier: Option<Decimal>,
    /// Replaces both lists; a path outside the grantable ones is refused, a repeated one kept once.
    role_permissions: Option<RolePermissions>,
    /// An IANA time zone, e.g. America/Bogota.
    time_zone: Option<String>,
    /// `refuse` or `negative`.
    return_of_spent_points: Option<String>,
    /// A whole number from 0 (no limit) to 1,000,000.
    #[schema(value_type = Option<i64>)]
    max_accreditations_per_customer_per_day: Option<serde_json::Value>,
    /// A whole number from 0 (no limit) to 10^15.
    #[schema(value_type = Option<i64>)]
    max_points_per_customer_per_day: Option<serde_json::Value>,
    /// 0 to 1,000 operations of a customer in a day before an alert (0: off).
    alert_operations_per_day: Option<i64>,
    /// 0 (off) to 100 years without activity before a customer is anonymised.
    retention_years: Option<i64>,
}

/// The most a daily accreditation limit may be set to.
pub const MAX_DAILY_ACCREDITATIONS: i64 = 1_000_000;
/// The most a daily points limit may be set to: 10^15, the most a balance may hold.
pub const MAX_DAILY_POINTS: i64 = 1_000_000_000_000_000;

/// A velocity limit: a whole number from 0 (no limit) to `max`.
fn limit(field: Field, value: &serde_json::Value, max: i64) -> AppResult<i64> {
    let whole = match value {
        serde_json::Value::Number(n) => n.as_i64().or_else(|| n.as_u64().map(|_| i64::MAX)),
        _ => None,
    };
    match whole {
        Some(v) if (0..=max).contains(&v) => Ok(v),
        Some(v) if v > max => Err(AppError::bad_request(Msg::FieldTooLarge.field(field).with("max", max))),
        _ => Err(AppError::bad_request(Msg::FieldWholeNumber.field(field))),
    }
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
    let grantable: Vec<&str> = GRANTABLE_PATHS
        .into_iter()
        .filter(|path| role == "supervisor" || !SUPERVISOR_ONLY_PATHS.contains(path))
        .collect();
    let mut out: Vec<String> = Vec::new();
    for path in list {
        if !grantable.contains(&path.as_str()) {
            return Err(AppError::bad_request(
                Msg::PermissionsInvalid.with("role", role).with("paths", grantable.join(", ")),
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
    pub fn apply(self, mut s: Settings) -> AppResult<Settings> {
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
        if let Some(v) = self.return_of_spent_points {
            if !RETURN_OF_SPENT_POINTS.contains(&v.as_str()) {
                return Err(AppError::bad_request(Msg::ReturnOfSpentPointsInvalid));
            }
            s.return_of_spent_points = v;
        }
        if let Some(v) = self.max_accreditations_per_customer_per_day {
            let max = MAX_DAILY_ACCREDITATIONS;
            s.max_accreditations_per_customer_per_day =
                limit(Field::MaxAccreditationsPerCustomerPerDay, &v, max)? as i32;
        }
        if let Some(v) = self.max_points_per_customer_per_day {
            s.max_points_per_customer_per_day = limit(Field::MaxPointsPerCustomerPerDay, &v, MAX_DAILY_POINTS)?;
        }
        if let Some(v) = self.alert_operations_per_day {
            if !(0..=1_000).contains(&v) {
                return Err(AppError::bad_request(
                    Msg::FieldRange.field(Field::AlertOperationsPerDay).with("min", 0).with("max", 1_000),
                ));
            }
            s.alert_operations_per_day = v as i32;
        }
        if let Some(v) = self.retention_years {
            if !(0..=100).contains(&v) {
                return Err(AppError::bad_request(
                    Msg::FieldRange.field(Field::RetentionYears).with("min", 0).with("max", 100),
                ));
            }
            s.retention_years = v as i32;
        }
        Ok(s)
    }
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
