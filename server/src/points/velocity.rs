//! Velocity limits (docs/points.md, "Velocity limits"): the most accreditations and the most
//! points one customer may be credited in a calendar day of the company's time zone. Pure
//! values and functions: the accreditation reads the day's figures under the customer's lock and
//! asks [`excesses`] which limits the new one would pass.

use chrono::{DateTime, Duration, Utc};
use chrono_tz::Tz;
use serde::Serialize;

use super::rules;
use crate::error::{AppError, Msg};
use crate::tenant::settings::model::Settings;

/// A company's daily limits per customer; 0 is no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub accreditations: i64,
    pub points: i64,
}

impl Limits {
    pub fn from_settings(settings: &Settings) -> Self {
        Limits {
            accreditations: i64::from(settings.max_accreditations_per_customer_per_day),
            points: settings.max_points_per_customer_per_day,
        }
    }

    /// Whether any limit is set (otherwise the day's figures need not be read).
    pub fn any(self) -> bool {
        self.accreditations > 0 || self.points > 0
    }
}

/// What a customer has been credited in the day so far: the accreditations that are not voided,
/// and their points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CreditedToday {
    pub accreditations: i64,
    pub points: i64,
}

/// A limit an accreditation would pass, with the figures the refusal names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "limit", rename_all = "camelCase")]
pub enum Excess {
    /// The customer already has `today` accreditations and the limit is `max`.
    #[serde(rename_all = "camelCase")]
    Accreditations { max: i64, today: i64 },
    /// The customer was credited `today` points, and `points` more would pass `max`.
    #[serde(rename_all = "camelCase")]
    Points { max: i64, today: i64, points: i64 },
}

impl Excess {
    /// The 409 a till gets while no supervisor or admin approved.
    pub fn refusal(self) -> AppError {
        match self {
            Excess::Accreditations { max, today } => {
                AppError::conflict(Msg::VelocityAccreditations.with("limit", max).with("today", today))
            }
            Excess::Points { max, today, points } => {
                AppError::conflict(Msg::VelocityPoints.with("limit", max).with("today", today).with("points", points))
            }
        }
    }
}

/// The limits an accreditation of `points` would pass, given what the customer was credited
/// today: the accreditation limit first.
pub fn excesses(limits: Limits, today: CreditedToday, points: i64) -> Vec<Excess> {
    let mut out = Vec::new();
    if limits.accreditations > 0 && today.accreditations >= limits.accreditations {
        out.push(Excess::Accreditations { max: limits.accreditations, today: today.accreditations });
    }
    if limits.points > 0 && today.points.saturating_add(points) > limits.points {
        out.push(Excess::Points { max: limits.points, today: today.points, points });
    }
    out
}

/// The company's calendar day holding `now`, as the instants it starts (included) and ends
/// (excluded).
pub fn day_bounds(now: DateTime<Utc>, tz: Tz) -> (DateTime<Utc>, DateTime<Utc>) {
    let today = rules::local_date(now, tz);
    let tomorrow = today + Duration::days(1);
    (rules::local_day_start(today, tz), rules::local_day_start(tomorrow, tz))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    const BOGOTA: Tz = chrono_tz::America::Bogota;

    #[test]
    fn no_limit_is_ever_passed_while_both_are_zero() {
        let today = CreditedToday { accreditations: 1_000, points: 1_000_000 };
        assert!(excesses(Limits::default(), today, 5_000).is_empty());
        assert!(!Limits::default().any());
    }

    #[test]
    fn the_accreditation_limit_allows_exactly_that_many_a_day() {
        let limits = Limits { accreditations: 3, points: 0 };
        assert!(excesses(limits, CreditedToday { accreditations: 2, points: 0 }, 10).is_empty());
        assert_eq!(
            excesses(limits, CreditedToday { accreditations: 3, points: 0 }, 10),
            vec![Excess::Accreditations { max: 3, today: 3 }]
        );
    }

    #[test]
    fn the_points_limit_counts_the_new_accreditation_s_points() {
        let limits = Limits { accreditations: 0, points: 1_000 };
        assert!(excesses(limits, CreditedToday { accreditations: 4, points: 600 }, 400).is_empty());
        assert_eq!(
            excesses(limits, CreditedToday { accreditations: 4, points: 600 }, 401),
            vec![Excess::Points { max: 1_000, today: 600, points: 401 }]
        );
    }

    #[test]
    fn both_limits_can_be_passed_at_once() {
        let limits = Limits { accreditations: 1, points: 10 };
        assert_eq!(excesses(limits, CreditedToday { accreditations: 1, points: 5 }, 6).len(), 2);
    }

    #[test]
    fn a_day_in_bogota_runs_from_five_in_the_morning_utc() {
        // 04:30 UTC on 10 March is 23:30 on 9 March in Bogota.
        let late = Utc.with_ymd_and_hms(2026, 3, 10, 4, 30, 0).unwrap();
        let (start, end) = day_bounds(late, BOGOTA);
        assert_eq!(start, Utc.with_ymd_and_hms(2026, 3, 9, 5, 0, 0).unwrap());
        assert_eq!(end, Utc.with_ymd_and_hms(2026, 3, 10, 5, 0, 0).unwrap());
    }
}
