//! The points rules (docs/points.md, "The rules") as pure functions and values: no clock, no
//! database. Everything here is unit-tested below; the handlers and the ledger only apply it.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;
use serde_json::Value;

use crate::error::{AppError, Msg};
use crate::tenant::settings::model::Settings;

/// The company's default time zone when its setting is missing or unknown.
pub const DEFAULT_TIME_ZONE: Tz = chrono_tz::America::Bogota;

/// The largest invoice accepted: one trillion pesos.
pub const MAX_INVOICE_AMOUNT: i64 = 1_000_000_000_000;
/// The most points one ledger row may post: one quadrillion (10^15), below 2^53 so that every
/// figure stays exact as a JSON number in a browser.
pub const MAX_POSTING_POINTS: i64 = 1_000_000_000_000_000;
/// The most points a customer's balance may hold: one quadrillion (10^15).
pub const MAX_BALANCE_POINTS: i64 = 1_000_000_000_000_000;

/// Refuses a posting of `delta` points that would take `balance` past [`MAX_BALANCE_POINTS`].
pub fn check_balance(balance: i64, delta: i64) -> Result<(), AppError> {
    match balance.checked_add(delta) {
        Some(after) if after <= MAX_BALANCE_POINTS => Ok(()),
        _ => Err(AppError::conflict(Msg::BalanceTooLarge.with("max", MAX_BALANCE_POINTS))),
    }
}

// ---------------------------------------------------------------------------------------------
// Values parsed once at the edge

/// An invoice amount: whole Colombian pesos, greater than zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvoiceAmount(i64);

impl InvoiceAmount {
    /// Accepts a JSON number or a string of digits (the till sends digits only).
    pub fn parse(value: Option<&Value>) -> Result<Self, AppError> {
        match whole_number(value) {
            Number::Whole(amount) if amount > 0 && amount <= MAX_INVOICE_AMOUNT => Ok(InvoiceAmount(amount)),
            Number::Whole(amount) if amount > MAX_INVOICE_AMOUNT => Err(too_large()),
            Number::TooLarge => Err(too_large()),
            Number::Fraction(amount) if amount > 0.0 => Err(AppError::bad_request(Msg::InvoiceAmountNotWhole)),
            _ => Err(AppError::bad_request(Msg::InvoiceAmountNotPositive)),
        }
    }

    pub fn pesos(self) -> i64 {
        self.0
    }
}

fn too_large() -> AppError {
    AppError::bad_request(Msg::InvoiceAmountTooLarge.with("max", MAX_INVOICE_AMOUNT))
}

/// A number of points to redeem: a whole number of at least 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points(i64);

impl Points {
    pub fn parse(value: Option<&Value>) -> Result<Self, AppError> {
        match whole_number(value) {
            Number::Whole(points) if points >= 1 => Ok(Points(points)),
            _ => Err(AppError::bad_request(Msg::PointsInvalid)),
        }
    }

    pub fn new(points: i64) -> Option<Self> {
        (points >= 1).then_some(Points(points))
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

enum Number {
    Whole(i64),
    /// A whole number beyond what the ledger holds.
    TooLarge,
    Fraction(f64),
    Invalid,
}

fn whole_number(value: Option<&Value>) -> Number {
    match value {
        Some(Value::Number(n)) => match (n.as_i64(), n.as_f64()) {
            (Some(whole), _) => Number::Whole(whole),
            (None, Some(f)) if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e15 => Number::Whole(f as i64),
            (None, Some(f)) if f.is_finite() && f.fract() == 0.0 && f > 0.0 => Number::TooLarge,
            (None, Some(f)) if f.is_finite() => Number::Fraction(f),
            _ => Number::Invalid,
        },
        Some(Value::String(s)) => {
            let s = s.trim();
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                s.parse().map(Number::Whole).unwrap_or(Number::TooLarge)
            } else {
                Number::Invalid
            }
        }
        _ => Number::Invalid,
    }
}

// ---------------------------------------------------------------------------------------------
// Accreditation

/// The parts of the program's rules that decide how many points a purchase earns.
#[derive(Clone, Debug)]
pub struct EarningRules {
    pub points_per_peso: Decimal,
    pub campaign_multiplier: Decimal,
    /// The first-purchase multiplier, when that bonus is enabled.
    pub first_purchase_bonus: Option<Decimal>,
    /// The birthday multiplier, when that bonus is enabled.
    pub birthday_bonus: Option<Decimal>,
}

impl EarningRules {
    pub fn from_settings(settings: &Settings) -> Self {
        EarningRules {
            points_per_peso: settings.points_per_peso,
            campaign_multiplier: settings.campaign_multiplier,
            first_purchase_bonus: settings
                .enable_first_purchase_bonus
                .then_some(settings.first_purchase_bonus_multiplier),
            birthday_bonus: settings.enable_birthday_bonus.then_some(settings.birthday_bonus_multiplier),
        }
    }
}

/// What is known about the purchase besides its amount.
#[derive(Clone, Copy, Debug, Default)]
pub struct Occasion {
    /// The customer has no earlier non-voided accreditation.
    pub first_purchase: bool,
    /// Today, in the company's time zone, is the customer's birthday.
    pub birthday: bool,
}

/// `floor(invoiceAmount x pointsPerPeso x campaignMultiplier x bonus)` in exact decimals.
/// `None` when the result is more than one posting may hold ([`MAX_POSTING_POINTS`]).
pub fn accreditation_points(rules: &EarningRules, amount: InvoiceAmount, occasion: Occasion) -> Option<i64> {
    let mut points =
        Decimal::from(amount.pesos()).checked_mul(rules.points_per_peso)?.checked_mul(rules.campaign_multiplier)?;
    if occasion.first_purchase {
        if let Some(bonus) = rules.first_purchase_bonus {
            points = points.checked_mul(bonus)?;
        }
    }
    if occasion.birthday {
        if let Some(bonus) = rules.birthday_bonus {
            points = points.checked_mul(bonus)?;
        }
    }
    points.floor().to_i64().map(|p| p.max(0)).filter(|p| *p <= MAX_POSTING_POINTS)
}

/// What a purchase earns and the bonuses that made it: the multipliers of the enabled bonuses
/// whose occasion holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Earning {
    pub points: i64,
    pub first_purchase_bonus: Option<Decimal>,
    pub birthday_bonus: Option<Decimal>,
}

/// [`accreditation_points`] with the bonuses that applied, for the till to show before the sale.
pub fn earning(rules: &EarningRules, amount: InvoiceAmount, occasion: Occasion) -> Option<Earning> {
    Some(Earning {
        points: accreditation_points(rules, amount, occasion)?,
        first_purchase_bonus: rules.first_purchase_bonus.filter(|_| occasion.first_purchase),
        birthday_bonus: rules.birthday_bonus.filter(|_| occasion.birthday),
    })
}

/// Whether `today` is the birthday of someone born on `birthdate`; 29 February counts on
/// 28 February in years without a 29th.
pub fn is_birthday(birthdate: NaiveDate, today: NaiveDate) -> bool {
    if (birthdate.month(), birthdate.day()) == (today.month(), today.day()) {
        return true;
    }
    let leap_day_birth = birthdate.month() == 2 && birthdate.day() == 29;
    let leap_year = NaiveDate::from_ymd_opt(today.year(), 2, 29).is_some();
    leap_day_birth && !leap_year && today.month() == 2 && today.day() == 28
}

// ---------------------------------------------------------------------------------------------
// Redemption

/// The peso value of redeeming `points` without a product: `floor(points / redemptionRate)`;
/// zero while the company has no redemption rate.
pub fn redeemed_value(points: Points, redemption_rate: Decimal) -> i64 {
    if redemption_rate <= Decimal::ZERO {
        return 0;
    }
    Decimal::from(points.get()).checked_div(redemption_rate).and_then(|value| value.floor().to_i64()).unwrap_or(0)
}

/// The peso value of a sum of points (`floor(points / redemptionRate)`, 0 without a rate).
pub fn peso_value(points: i128, redemption_rate: Decimal) -> i128 {
    if redemption_rate <= Decimal::ZERO || points <= 0 {
        return 0;
    }
    Decimal::try_from_i128_with_scale(points, 0)
        .ok()
        .and_then(|points| points.checked_div(redemption_rate))
        .and_then(|value| value.floor().to_i128())
        .unwrap_or(i128::MAX)
}

/// An open point batch: its id and the points still in it, oldest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenBatch {
    pub id: i64,
    pub remaining: i64,
}

/// How many points to take from which batch to cover `points`, oldest batches first.
/// `None` when the batches hold fewer points.
pub fn plan_consumption(open: &[OpenBatch], points: i64) -> Option<Vec<(i64, i64)>> {
    let mut plan = Vec::new();
    let mut missing = points;
    for batch in open {
        if missing == 0 {
            break;
        }
        let take = batch.remaining.min(missing);
        if take > 0 {
            plan.push((batch.id, take));
            missing -= take;
        }
    }
    (missing == 0).then_some(plan)
}

// ---------------------------------------------------------------------------------------------
// Returns (docs/points.md, "Returns")

/// Pesos of an invoice given back: whole, greater than zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReturnedAmount(i64);

impl ReturnedAmount {
    /// Accepts a JSON number or a string of digits, as an invoice amount.
    pub fn parse(value: Option<&Value>) -> Result<Self, AppError> {
        match whole_number(value) {
            Number::Whole(amount) if amount > 0 && amount <= MAX_INVOICE_AMOUNT => Ok(ReturnedAmount(amount)),
            _ => Err(AppError::bad_request(Msg::ReturnAmountInvalid)),
        }
    }

    pub fn pesos(self) -> i64 {
        self.0
    }
}

/// What the earlier returns of one accreditation gave back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Returned {
    /// Pesos of the invoice returned so far.
    pub amount: i64,
    /// Points those returns reversed (positive).
    pub points: i64,
    /// How many returns.
    pub count: i64,
}

/// The points a return of `amount` pesos reverses of an accreditation that earned `earned`
/// points for `invoice` pesos, after the returns `before`: `floor(earned x amount / invoice)`,
/// never more than what is left of `earned`, and exactly what is left when it completes the
/// invoice. `None` when `amount` exceeds what is left of the invoice.
pub fn returned_points(earned: i64, invoice: i64, before: Returned, amount: i64) -> Option<i64> {
    let left_amount = invoice - before.amount;
    let left_points = (earned - before.points).max(0);
    if amount > left_amount || amount <= 0 {
        return None;
    }
    if amount == left_amount {
        return Some(left_points);
    }
    let share = i128::from(earned) * i128::from(amount) / i128::from(invoice);
    Some((share as i64).min(left_points))
}

/// Where a return's `points` come from: the accreditation's own batch first, then the
/// customer's other open batches, oldest first. Answers the plan and the points no batch holds
/// (spent).
pub fn plan_return(own: Option<OpenBatch>, others: &[OpenBatch], points: i64) -> (Vec<(i64, i64)>, i64) {
    let mut plan = Vec::new();
    let mut missing = points;
    let own_id = own.map(|batch| batch.id);
    for batch in own.iter().chain(others.iter().filter(|batch| Some(batch.id) != own_id)) {
        let take = batch.remaining.min(missing);
        if take > 0 {
            plan.push((batch.id, take));
            missing -= take;
        }
    }
    (plan, missing)
}

// ---------------------------------------------------------------------------------------------
// Expiration

/// The company's expiration policy with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    None,
    /// A batch expires `days` after it was earned.
    Fifo {
        days: i64,
    },
    /// All points of a customer with no accreditation or redemption for `days` expire.
    Inactivity {
        days: i64,
    },
    /// Points earned in year Y expire when Y+1 ends (in the company's time zone).
    Calendar,
}

impl Policy {
    pub fn from_settings(settings: &Settings) -> Self {
        match settings.expiration_policy.as_str() {
            "fifo" => Policy::Fifo { days: i64::from(settings.points_expiration_days.max(1)) },
            "inactivity" => Policy::Inactivity { days: i64::from(settings.inactivity_days.max(1)) },
            "calendar" => Policy::Calendar,
            _ => Policy::None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Policy::None => "none",
            Policy::Fifo { .. } => "fifo",
            Policy::Inactivity { .. } => "inactivity",
            Policy::Calendar => "calendar",
        }
    }

    /// The instant that decides what is due at `now`: batches earned at or before it (fifo,
    /// calendar), or customers last active at or before it (inactivity). `None` for `none`.
    pub fn cutoff(self, now: DateTime<Utc>, tz: Tz) -> Option<DateTime<Utc>> {
        match self {
            Policy::None => None,
            Policy::Fifo { days } | Policy::Inactivity { days } => Some(now - Duration::days(days)),
            Policy::Calendar => {
                // Now in year Z: everything earned before 1 January of Z-1 is due.
                let year = local_date(now, tz).year();
                let start = NaiveDate::from_ymd_opt(year - 1, 1, 1)?;
                Some(local_day_start(start, tz) - Duration::microseconds(1))
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Company time

/// The company's time zone; the default when the setting is not a known zone.
pub fn time_zone(name: &str) -> Tz {
    name.parse().unwrap_or(DEFAULT_TIME_ZONE)
}

/// The company's calendar date at `now`.
pub fn local_date(now: DateTime<Utc>, tz: Tz) -> NaiveDate {
    now.with_timezone(&tz).date_naive()
}

/// The instant a local calendar day starts (the first valid local time, should a zone skip
/// midnight).
pub fn local_day_start(date: NaiveDate, tz: Tz) -> DateTime<Utc> {
    let midnight = date.and_hms_opt(0, 0, 0).expect("midnight exists");
    (0..=3)
        .find_map(|hour| tz.from_local_datetime(&(midnight + Duration::hours(hour))).earliest())
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(|| Utc.from_utc_datetime(&midnight))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::prelude::FromStr;
    use serde_json::json;

    #[test]
    fn returns_reverse_the_returned_share_and_the_last_one_takes_the_remainder() {
        let none = Returned::default();
        // 333 points for 100,000 pesos: 33,333 back reverses floor(333 x 33,333 / 100,000) = 110.
        assert_eq!(returned_points(333, 100_000, none, 33_333), Some(110));
        let before = Returned { amount: 33_333, points: 110, count: 1 };
        assert_eq!(returned_points(333, 100_000, before, 33_333), Some(110));
        let before = Returned { amount: 66_666, points: 220, count: 2 };
        // The return that completes the invoice takes exactly what is left.
        assert_eq!(returned_points(333, 100_000, before, 33_334), Some(113));
        assert_eq!(returned_points(333, 100_000, before, 33_335), None);
        assert_eq!(returned_points(333, 100_000, none, 0), None);
        // Never more than what is left.
        assert_eq!(returned_points(10, 100, Returned { amount: 10, points: 10, count: 1 }, 50), Some(0));
    }

    #[test]
    fn a_return_takes_its_own_batch_first_then_the_oldest_others() {
        let own = OpenBatch { id: 7, remaining: 30 };
        let others = [OpenBatch { id: 2, remaining: 50 }, own, OpenBatch { id: 9, remaining: 5 }];
        assert_eq!(plan_return(Some(own), &others, 20), (vec![(7, 20)], 0));
        assert_eq!(plan_return(Some(own), &others, 90), (vec![(7, 30), (2, 50), (9, 5)], 5));
        assert_eq!(plan_return(None, &[], 4), (vec![], 4));
    }

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn rules(ppp: &str, campaign: &str, first: Option<&str>, birthday: Option<&str>) -> EarningRules {
        EarningRules {
            points_per_peso: dec(ppp),
            campaign_multiplier: dec(campaign),
            first_purchase_bonus: first.map(dec),
            birthday_bonus: birthday.map(dec),
        }
    }

    fn amount(pesos: i64) -> InvoiceAmount {
        InvoiceAmount::parse(Some(&json!(pesos))).unwrap()
    }

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    const PLAIN: Occasion = Occasion { first_purchase: false, birthday: false };
    const FIRST: Occasion = Occasion { first_purchase: true, birthday: false };
    const BIRTHDAY: Occasion = Occasion { first_purchase: false, birthday: true };
    const BOTH: Occasion = Occasion { first_purchase: true, birthday: true };

    /// (pointsPerPeso, campaign, first bonus, birthday bonus, amount, occasion, points)
    type FormulaCase = (&'static str, &'static str, Option<&'static str>, Option<&'static str>, i64, Occasion, i64);

    #[test]
    fn the_accreditation_formula_matches_the_table() {
        let table: &[FormulaCase] = &[
            ("0.01", "1", None, None, 150_000, PLAIN, 1_500),
            ("0.01", "2", None, None, 150_000, PLAIN, 3_000),
            ("0.01", "1.5", None, None, 10_001, PLAIN, 150), // 150.015 floors
            ("0", "1", None, None, 150_000, PLAIN, 0),
            ("1", "1", None, None, 1, PLAIN, 1),
            ("0.001", "1", None, None, 999, PLAIN, 0), // 0.999 floors to nothing
            ("0.013", "1", None, None, 999, PLAIN, 12), // 12.987
            ("0.01", "1", Some("2"), None, 50_000, FIRST, 1_000),
            ("0.01", "1", Some("2"), None, 50_000, PLAIN, 500),
            ("0.01", "1", None, Some("2"), 50_000, FIRST, 500), // first-purchase bonus disabled
            ("0.01", "1", None, Some("1.5"), 50_000, BIRTHDAY, 750),
            ("0.01", "1", Some("2"), None, 50_000, BIRTHDAY, 500), // birthday bonus disabled
            ("0.01", "2", Some("1.5"), Some("1.1"), 33_333, BOTH, 1_099), // 1099.989
            ("0.333", "3", None, None, 1_000, PLAIN, 999),         // exact: no binary-float 998
            ("0.1", "3", None, None, 10, PLAIN, 3),                // 0.1 x 3 x 10 is exactly 3 in decimals
        ];
        for (ppp, campaign, first, birthday, pesos, occasion, expected) in table {
            let got = accreditation_points(&rules(ppp, campaign, *first, *birthday), amount(*pesos), *occasion);
            assert_eq!(got, Some(*expected), "{ppp} x {campaign} x {first:?}/{birthday:?} x {pesos} {occasion:?}");
        }
    }

    #[test]
    fn a_posting_and_a_balance_hold_at_most_their_bounds() {
        let most = rules("1000", "100", Some("100"), None);
        let first = Occasion { first_purchase: true, birthday: false };
        assert_eq!(accreditation_points(&most, amount(100_000_000), first), Some(MAX_POSTING_POINTS));
        assert_eq!(accreditation_points(&most, amount(100_000_001), first), None);
        assert!(check_balance(MAX_BALANCE_POINTS - 5, 5).is_ok());
        assert_eq!(check_balance(MAX_BALANCE_POINTS - 5, 6).unwrap_err().status(), axum::http::StatusCode::CONFLICT);
        assert!(check_balance(i64::MAX, 1).is_err());
        assert_eq!(peso_value(18_000_000_000_000_000_000, Decimal::new(2, 0)), 9_000_000_000_000_000_000);
    }

    #[test]
    fn the_earning_names_only_the_enabled_bonuses_whose_occasion_holds() {
        let both = rules("0.01", "1", Some("1.5"), Some("2"));
        let earned = earning(&both, amount(10_000), BOTH).unwrap();
        assert_eq!(
            earned,
            Earning { points: 300, first_purchase_bonus: Some(dec("1.5")), birthday_bonus: Some(dec("2")) }
        );
        let earned = earning(&both, amount(10_000), BIRTHDAY).unwrap();
        assert_eq!(earned, Earning { points: 200, first_purchase_bonus: None, birthday_bonus: Some(dec("2")) });
        let disabled = rules("0.01", "1", None, None);
        let earned = earning(&disabled, amount(10_000), BOTH).unwrap();
        assert_eq!(earned, Earning { points: 100, first_purchase_bonus: None, birthday_bonus: None });
    }

    #[test]
    fn an_overflowing_accreditation_is_refused_rather_than_wrapped() {
        let huge = rules("99999999999.999", "99999.999", Some("99999.999"), Some("99999.999"));
        assert_eq!(accreditation_points(&huge, amount(MAX_INVOICE_AMOUNT), BOTH), None);
    }

    #[test]
    fn a_birthday_is_the_same_month_and_day_in_any_year() {
        assert!(is_birthday(date("1990-04-12"), date("2025-04-12")));
        assert!(!is_birthday(date("1990-04-12"), date("2025-04-13")));
        assert!(!is_birthday(date("1990-04-12"), date("2025-05-12")));
    }

    #[test]
    fn a_29_february_birthday_counts_on_28_february_only_in_non_leap_years() {
        let born = date("2000-02-29");
        assert!(is_birthday(born, date("2023-02-28")));
        assert!(!is_birthday(born, date("2023-03-01")));
        assert!(!is_birthday(born, date("2024-02-28")));
        assert!(is_birthday(born, date("2024-02-29")));
        assert!(!is_birthday(date("2001-02-28"), date("2024-02-29")));
        assert!(is_birthday(date("2001-02-28"), date("2023-02-28")));
    }

    #[test]
    fn invoice_amounts_must_be_positive_whole_pesos() {
        assert_eq!(InvoiceAmount::parse(Some(&json!(150000))).unwrap().pesos(), 150_000);
        assert_eq!(InvoiceAmount::parse(Some(&json!("150000"))).unwrap().pesos(), 150_000);
        assert_eq!(InvoiceAmount::parse(Some(&json!(150000.0))).unwrap().pesos(), 150_000);
        for bad in [json!(0), json!(-5), json!("abc"), json!(""), json!(null), json!("1.5e3"), json!(true)] {
            let err = InvoiceAmount::parse(Some(&bad)).unwrap_err();
            assert_eq!(err.to_string(), "invoice amount must be positive", "{bad}");
        }
        assert_eq!(InvoiceAmount::parse(None).unwrap_err().to_string(), "invoice amount must be positive");
        assert_eq!(
            InvoiceAmount::parse(Some(&json!(10.5))).unwrap_err().to_string(),
            "invoice amount must be a whole number of pesos"
        );
        assert_eq!(
            InvoiceAmount::parse(Some(&json!(MAX_INVOICE_AMOUNT + 1))).unwrap_err().to_string(),
            "invoice amount is too large: the most is 1,000,000,000,000 pesos"
        );
        // Numbers past what JSON holds exactly are too large too, not fractions.
        for huge in [json!(1e20), json!(u64::MAX), json!("99999999999999999999999")] {
            assert_eq!(
                InvoiceAmount::parse(Some(&huge)).unwrap_err().problem().msg,
                Msg::InvoiceAmountTooLarge,
                "{huge}"
            );
        }
    }

    #[test]
    fn points_to_redeem_must_be_a_whole_number_of_at_least_one() {
        assert_eq!(Points::parse(Some(&json!(1))).unwrap().get(), 1);
        assert_eq!(Points::parse(Some(&json!("250"))).unwrap().get(), 250);
        for bad in [json!(0), json!(-1), json!(1.5), json!("1.5"), json!("x"), json!(null), json!([])] {
            assert_eq!(Points::parse(Some(&bad)).unwrap_err().to_string(), "enter valid points", "{bad}");
        }
    }

    #[test]
    fn the_redeemed_value_is_points_over_the_rate_rounded_down() {
        let points = |p| Points::new(p).unwrap();
        assert_eq!(redeemed_value(points(1_000), dec("1")), 1_000);
        assert_eq!(redeemed_value(points(1_050), dec("100")), 10);
        assert_eq!(redeemed_value(points(99), dec("100")), 0);
        assert_eq!(redeemed_value(points(10), dec("0.5")), 20);
        assert_eq!(redeemed_value(points(10), dec("3")), 3);
        assert_eq!(redeemed_value(points(10), Decimal::ZERO), 0);
    }

    #[test]
    fn redemptions_take_points_from_the_oldest_batches_first() {
        let open = [
            OpenBatch { id: 1, remaining: 30 },
            OpenBatch { id: 2, remaining: 50 },
            OpenBatch { id: 3, remaining: 20 },
        ];
        assert_eq!(plan_consumption(&open, 30), Some(vec![(1, 30)]));
        assert_eq!(plan_consumption(&open, 45), Some(vec![(1, 30), (2, 15)]));
        assert_eq!(plan_consumption(&open, 100), Some(vec![(1, 30), (2, 50), (3, 20)]));
        assert_eq!(plan_consumption(&open, 101), None);
        assert_eq!(plan_consumption(&[], 1), None);
    }

    #[test]
    fn fifo_and_inactivity_cutoffs_are_whole_days_before_now() {
        let now = Utc.with_ymd_and_hms(2025, 6, 15, 12, 0, 0).unwrap();
        let cutoff = Policy::Fifo { days: 365 }.cutoff(now, DEFAULT_TIME_ZONE).unwrap();
        assert_eq!(cutoff, Utc.with_ymd_and_hms(2024, 6, 15, 12, 0, 0).unwrap());
        let cutoff = Policy::Inactivity { days: 180 }.cutoff(now, DEFAULT_TIME_ZONE).unwrap();
        assert_eq!(cutoff, now - Duration::days(180));
        assert_eq!(Policy::None.cutoff(now, DEFAULT_TIME_ZONE), None);
    }

    #[test]
    fn calendar_points_of_a_year_expire_when_the_next_year_ends_in_the_company_zone() {
        let tz = DEFAULT_TIME_ZONE; // UTC-5, no daylight saving
                                    // 1 January 2026, 03:00 UTC is still 31 December 2025 in Bogotá: 2024's points not yet due.
        let now = Utc.with_ymd_and_hms(2026, 1, 1, 3, 0, 0).unwrap();
        let cutoff = Policy::Calendar.cutoff(now, tz).unwrap();
        assert_eq!(cutoff, Utc.with_ymd_and_hms(2024, 1, 1, 5, 0, 0).unwrap() - Duration::microseconds(1));
        // At 05:00 UTC it is 2026 in Bogotá: everything earned before 1 January 2025 (local) is due.
        let now = Utc.with_ymd_and_hms(2026, 1, 1, 5, 0, 0).unwrap();
        let cutoff = Policy::Calendar.cutoff(now, tz).unwrap();
        assert_eq!(cutoff, Utc.with_ymd_and_hms(2025, 1, 1, 5, 0, 0).unwrap() - Duration::microseconds(1));
    }

    #[test]
    fn an_unknown_time_zone_falls_back_to_bogota() {
        assert_eq!(time_zone("America/Bogota"), chrono_tz::America::Bogota);
        assert_eq!(time_zone("Europe/Madrid"), chrono_tz::Europe::Madrid);
        assert_eq!(time_zone("Mars/Olympus"), DEFAULT_TIME_ZONE);
    }
}
