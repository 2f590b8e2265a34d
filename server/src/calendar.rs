//! Colombian business days: the national holidays of any year, computed rather than typed in,
//! and the business-day arithmetic of the legal deadlines of Ley 1581 de 2012 (docs/privacy.md).
//!
//! The holidays are of three kinds:
//! - fixed: 1 January, 1 May, 20 July, 7 August, 8 December and 25 December, kept on their day
//!   even on a weekend;
//! - moved to the following Monday by Ley 51 de 1983 (when they do not fall on a Monday):
//!   6 January, 19 March, 29 June, 15 August, 12 October, 1 November and 11 November;
//! - following Easter Sunday: Holy Thursday and Good Friday, and, already Mondays by the same
//!   law, Ascension (+43 days), Corpus Christi (+64) and the Sacred Heart (+71).
//!
//! Easter Sunday comes from the anonymous Gregorian algorithm (Meeus/Jones/Butcher). Two
//! holidays can share a day (29 June and the Sacred Heart in 2025, both on 30 June), so a year
//! has 18 holidays on 17 or 18 dates.

use chrono::{Datelike, Days, NaiveDate, Weekday};

/// Fixed holidays, as (month, day): kept on their day whatever the weekday.
const FIXED: [(u32, u32); 6] = [(1, 1), (5, 1), (7, 20), (8, 7), (12, 8), (12, 25)];

/// Holidays that Ley 51 de 1983 moves to the following Monday, as (month, day).
const MOVED_TO_MONDAY: [(u32, u32); 7] = [(1, 6), (3, 19), (6, 29), (8, 15), (10, 12), (11, 1), (11, 11)];

/// Days from Easter Sunday of the holidays that follow it: Holy Thursday, Good Friday, and the
/// Mondays of Ascension, Corpus Christi and the Sacred Heart.
const FROM_EASTER: [i64; 5] = [-3, -2, 43, 64, 71];

/// Easter Sunday of a Gregorian year (the anonymous algorithm).
pub fn easter_sunday(year: i32) -> NaiveDate {
    let a = year % 19;
    let b = year / 100;
    let c = year % 100;
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    date(year, month as u32, day as u32)
}

/// The national holidays of a year, sorted, each date once.
pub fn holidays(year: i32) -> Vec<NaiveDate> {
    let easter = easter_sunday(year);
    let mut days: Vec<NaiveDate> = FIXED
        .iter()
        .map(|&(m, d)| date(year, m, d))
        .chain(MOVED_TO_MONDAY.iter().map(|&(m, d)| next_monday(date(year, m, d))))
        .chain(FROM_EASTER.iter().map(|&offset| easter + chrono::Duration::days(offset)))
        .collect();
    days.sort_unstable();
    days.dedup();
    days
}

/// Whether a day is a national holiday.
pub fn is_holiday(day: NaiveDate) -> bool {
    holidays(day.year()).binary_search(&day).is_ok()
}

/// Whether a day is a business day: Monday to Friday and not a national holiday.
pub fn is_business_day(day: NaiveDate) -> bool {
    !matches!(day.weekday(), Weekday::Sat | Weekday::Sun) && !is_holiday(day)
}

/// The `n`-th business day after `from`, counting from the day after it: a request filed on
/// `from` and answerable within `n` business days is due on this day. `n = 0` is `from` itself.
pub fn add_business_days(from: NaiveDate, n: u32) -> NaiveDate {
    let mut day = from;
    let mut left = n;
    while left > 0 {
        day = day + Days::new(1);
        if is_business_day(day) {
            left -= 1;
        }
    }
    day
}

/// Business days from `today` to `due`: those after `today` up to `due` (0 when due today or
/// on the next non-business days); negative when `due` has passed, by the business days after
/// it up to `today`.
pub fn business_days_between(today: NaiveDate, due: NaiveDate) -> i64 {
    let (from, to, sign) = if due >= today { (today, due, 1) } else { (due, today, -1) };
    let mut count = 0;
    let mut day = from;
    while day < to {
        day = day + Days::new(1);
        if is_business_day(day) {
            count += 1;
        }
    }
    sign * count
}

/// The day itself when a Monday, else the Monday after it.
fn next_monday(day: NaiveDate) -> NaiveDate {
    let ahead = (7 - day.weekday().num_days_from_monday()) % 7;
    day + Days::new(u64::from(ahead))
}

fn date(year: i32, month: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(year, month, day).expect("a calendar date")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().expect("a date")
    }

    fn days(list: &[&str]) -> Vec<NaiveDate> {
        list.iter().map(|s| d(s)).collect()
    }

    #[test]
    fn easter_sunday_matches_the_known_dates() {
        assert_eq!(easter_sunday(2024), d("2024-03-31"));
        assert_eq!(easter_sunday(2025), d("2025-04-20"));
        assert_eq!(easter_sunday(2026), d("2026-04-05"));
        assert_eq!(easter_sunday(2027), d("2027-03-28"));
        assert_eq!(easter_sunday(2038), d("2038-04-25"));
        assert_eq!(easter_sunday(2285), d("2285-03-22"));
    }

    /// The official calendar of 2025: 18 holidays, two of them (San Pedro y San Pablo, moved
    /// from Sunday 29 June, and the Sacred Heart) on Monday 30 June.
    #[test]
    fn the_holidays_of_2025_are_the_official_ones() {
        let official = days(&[
            "2025-01-01", // Año Nuevo
            "2025-01-06", // Reyes Magos (already a Monday)
            "2025-03-24", // San José (19 March, a Wednesday)
            "2025-04-17", // Jueves Santo
            "2025-04-18", // Viernes Santo
            "2025-05-01", // Día del Trabajo
            "2025-06-02", // Ascensión del Señor
            "2025-06-23", // Corpus Christi
            "2025-06-30", // Sagrado Corazón and San Pedro y San Pablo (29 June, a Sunday)
            "2025-07-20", // Independencia (a Sunday, not moved)
            "2025-08-07", // Batalla de Boyacá
            "2025-08-18", // Asunción de la Virgen (15 August, a Friday)
            "2025-10-13", // Día de la Raza (12 October, a Sunday)
            "2025-11-03", // Todos los Santos (1 November, a Saturday)
            "2025-11-17", // Independencia de Cartagena (11 November, a Tuesday)
            "2025-12-08", // Inmaculada Concepción
            "2025-12-25", // Navidad
        ]);
        assert_eq!(holidays(2025), official);
    }

    #[test]
    fn the_holidays_of_2026_are_the_official_ones() {
        let official = days(&[
            "2026-01-01", // Año Nuevo
            "2026-01-12", // Reyes Magos (6 January, a Tuesday)
            "2026-03-23", // San José (19 March, a Thursday)
            "2026-04-02", // Jueves Santo
            "2026-04-03", // Viernes Santo
            "2026-05-01", // Día del Trabajo
            "2026-05-18", // Ascensión del Señor
            "2026-06-08", // Corpus Christi
            "2026-06-15", // Sagrado Corazón
            "2026-06-29", // San Pedro y San Pablo (a Monday)
            "2026-07-20", // Independencia
            "2026-08-07", // Batalla de Boyacá
            "2026-08-17", // Asunción de la Virgen (15 August, a Saturday)
            "2026-10-12", // Día de la Raza (a Monday)
            "2026-11-02", // Todos los Santos (1 November, a Sunday)
            "2026-11-16", // Independencia de Cartagena (11 November, a Wednesday)
            "2026-12-08", // Inmaculada Concepción
            "2026-12-25", // Navidad
        ]);
        assert_eq!(holidays(2026), official);
    }

    #[test]
    fn the_holidays_of_2027_are_the_official_ones() {
        let official = days(&[
            "2027-01-01", // Año Nuevo
            "2027-01-11", // Reyes Magos (6 January, a Wednesday)
            "2027-03-22", // San José (19 March, a Friday)
            "2027-03-25", // Jueves Santo
            "2027-03-26", // Viernes Santo
            "2027-05-01", // Día del Trabajo (a Saturday, not moved)
            "2027-05-10", // Ascensión del Señor
            "2027-05-31", // Corpus Christi
            "2027-06-07", // Sagrado Corazón
            "2027-07-05", // San Pedro y San Pablo (29 June, a Tuesday)
            "2027-07-20", // Independencia
            "2027-08-07", // Batalla de Boyacá (a Saturday, not moved)
            "2027-08-16", // Asunción de la Virgen (15 August, a Sunday)
            "2027-10-18", // Día de la Raza (12 October, a Tuesday)
            "2027-11-01", // Todos los Santos (a Monday)
            "2027-11-15", // Independencia de Cartagena (11 November, a Thursday)
            "2027-12-08", // Inmaculada Concepción
            "2027-12-25", // Navidad (a Saturday)
        ]);
        assert_eq!(holidays(2027), official);
    }

    #[test]
    fn every_moved_holiday_and_easter_monday_holiday_falls_on_a_monday() {
        for year in 1984..2100 {
            let easter = easter_sunday(year);
            assert_eq!(easter.weekday(), Weekday::Sun, "{year}");
            for offset in [43, 64, 71] {
                assert_eq!((easter + chrono::Duration::days(offset)).weekday(), Weekday::Mon, "{year}");
            }
            for &(m, day) in &MOVED_TO_MONDAY {
                let moved = next_monday(date(year, m, day));
                assert_eq!(moved.weekday(), Weekday::Mon);
                assert!((0..7).contains(&(moved - date(year, m, day)).num_days()));
            }
        }
    }

    #[test]
    fn weekends_and_holidays_are_not_business_days() {
        assert!(!is_business_day(d("2026-11-28"))); // Saturday
        assert!(!is_business_day(d("2026-11-29"))); // Sunday
        assert!(!is_business_day(d("2026-12-08"))); // Tuesday, a holiday
        assert!(!is_business_day(d("2025-06-30"))); // two holidays on one Monday
        assert!(is_business_day(d("2026-11-27"))); // a plain Friday
        assert!(is_business_day(d("2026-01-06"))); // 6 January itself, moved to the 12th
    }

    #[test]
    fn business_days_are_counted_from_the_day_after_filing() {
        // Filed Friday 27 Nov 2026: Mon 30 Nov is the first; 8 Dec is a holiday.
        assert_eq!(add_business_days(d("2026-11-27"), 1), d("2026-11-30"));
        assert_eq!(add_business_days(d("2026-11-27"), 10), d("2026-12-14"));
        assert_eq!(add_business_days(d("2026-11-27"), 15), d("2026-12-21"));
        // Filed on a Saturday or a Sunday: the count starts on Monday.
        assert_eq!(add_business_days(d("2026-11-28"), 1), d("2026-11-30"));
        assert_eq!(add_business_days(d("2026-11-29"), 1), d("2026-11-30"));
        // Filed on a holiday Monday (Reyes 2026): the next day counts.
        assert_eq!(add_business_days(d("2026-01-12"), 1), d("2026-01-13"));
        // Holy Week: Thursday and Friday skipped along with the weekend.
        assert_eq!(add_business_days(d("2026-04-01"), 1), d("2026-04-06"));
        // Across the new year: 25 Dec, weekends and 1 Jan skipped.
        assert_eq!(add_business_days(d("2026-12-24"), 1), d("2026-12-28"));
        assert_eq!(add_business_days(d("2026-12-31"), 1), d("2027-01-04"));
        // A consulta of 10 days extended by 5 is the same as 15 from filing.
        let due = add_business_days(d("2027-03-19"), 10);
        assert_eq!(add_business_days(due, 5), add_business_days(d("2027-03-19"), 15));
        assert_eq!(add_business_days(d("2026-11-27"), 0), d("2026-11-27"));
    }

    #[test]
    fn days_left_count_business_days_and_go_negative_when_overdue() {
        let due = d("2026-12-14"); // a Monday
        assert_eq!(business_days_between(d("2026-12-14"), due), 0);
        assert_eq!(business_days_between(d("2026-12-11"), due), 1); // Friday before
        assert_eq!(business_days_between(d("2026-12-12"), due), 1); // Saturday before
        assert_eq!(business_days_between(d("2026-12-07"), due), 4); // 8 Dec a holiday
        assert_eq!(business_days_between(d("2026-12-15"), due), -1);
        assert_eq!(business_days_between(d("2026-12-19"), due), -4); // Saturday after
    }
}
