//! Each policy with a clock of the test's own, mixed with redemptions and voids; the expected
//! figures are worked out by hand in the comments.

use chrono::{Duration, Utc};
use reqwest::StatusCode;
use serde_json::json;

use super::support::*;

/// (points, customers) of a run.
async fn expire(clock: &Clock<'_>, at: chrono::DateTime<Utc>) -> (i64, i64) {
    let expired = clock.expire(at).await;
    (expired.points, expired.customers)
}

#[tokio::test]
async fn fifo_expires_each_batch_its_configured_days_after_it_was_earned() {
    let (app, shop) = acme().await;
    with_fifo_after_30_days(&app, &shop).await;
    let [ana, beto, carla] = add_customers(&app, &shop, ["1", "2", "3"]).await;
    let clock = Clock::new(&app, &shop).await;
    let t0 = bogota(2025, 1, 10, 10, 0);
    let day = |n: i64| t0 + Duration::days(n);

    clock.earn(ana, 10_000, t0).await; //          ana batch 1: 100
    clock.earn(ana, 5_000, day(10)).await; //      ana batch 2: 50
    let thirty = clock.spend(ana, 30, day(15)).await; // batch 1: 70
    let twenty = clock.spend(ana, 20, day(20)).await; // batch 1: 50
    clock.void(twenty, day(21)).await.unwrap(); //  batch 1: 70 again
    clock.earn(beto, 20_000, day(5)).await; //     beto batch: 200
    clock.spend(beto, 200, day(6)).await; //       beto batch: 0, nothing left to expire
    clock.earn(carla, 10_000, t0).await; //        carla batch: 100

    assert_eq!(expire(&clock, day(30) - Duration::minutes(1)).await, (0, 0), "not yet 30 days");
    assert_eq!(expire(&clock, day(30)).await, (170, 2), "ana's first batch (70) and carla's (100)");
    assert_eq!(expire(&clock, day(30)).await, (0, 0), "running twice expires nothing more");
    assert_eq!((balance(&app, &shop, ana).await, balance(&app, &shop, carla).await), (50, 0));
    assert_eq!(expire(&clock, day(39)).await, (0, 0));
    assert_eq!(expire(&clock, day(40)).await, (50, 1), "ana's second batch");
    assert_eq!(balance(&app, &shop, ana).await, 0);

    // Voiding a redemption after its batch expired gives the points back to that batch, which is
    // past due: the next run expires them.
    clock.void(thirty, day(41)).await.unwrap();
    assert_eq!(batches(&app, &shop, ana).await, [30, 0]);
    assert_eq!(expire(&clock, day(41)).await, (30, 1));
    assert_eq!(expire(&clock, day(41)).await, (0, 0));

    let system_rows = number(
        &app,
        &shop,
        "select count(*) from transactions where type = 'expiration' and cashier_username = 'system' \
         and cashier_id is null and points < 0 and description is null",
    )
    .await;
    assert_eq!(system_rows, 4);
    assert_eq!(balance(&app, &shop, beto).await, 0);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn inactivity_expires_every_point_of_customers_without_accreditations_or_redemptions_for_the_configured_days() {
    let (app, shop) = acme().await;
    sql(&app, &shop, "update settings set expiration_policy = 'inactivity', inactivity_days = 180").await;
    let [ana, beto, carla] = add_customers(&app, &shop, ["1", "2", "3"]).await;
    let clock = Clock::new(&app, &shop).await;
    let t0 = bogota(2025, 1, 10, 10, 0);
    let day = |n: i64| t0 + Duration::days(n);

    clock.earn(ana, 10_000, t0).await; //                ana: 100, last active day 0
    clock.earn(ana, 5_000, t0).await; //                 ana: 150
    clock.earn(beto, 10_000, t0).await; //               beto: 100
    clock.spend(beto, 10, day(100)).await; //            beto: 90, last active day 100
    clock.earn(carla, 10_000, t0).await; //              carla: 100
    let redemption = clock.spend(carla, 40, day(10)).await; // carla: 60, last active day 10
    clock.void(redemption, day(170)).await.unwrap(); //  carla: 100; a void is no activity

    assert_eq!(expire(&clock, day(179)).await, (0, 0));
    assert_eq!(expire(&clock, day(180)).await, (150, 1), "ana: both batches");
    assert_eq!(expire(&clock, day(180)).await, (0, 0), "running twice expires nothing more");
    assert_eq!(expire(&clock, day(189)).await, (0, 0));
    assert_eq!(expire(&clock, day(190)).await, (100, 1), "carla, including the points her void gave back");
    assert_eq!(expire(&clock, day(279)).await, (0, 0));
    assert_eq!(expire(&clock, day(280)).await, (90, 1), "beto, 180 days after his redemption");
    assert_eq!(
        (balance(&app, &shop, ana).await, balance(&app, &shop, beto).await, balance(&app, &shop, carla).await),
        (0, 0, 0)
    );

    // Earning again starts a new period.
    clock.earn(ana, 10_000, day(300)).await;
    assert_eq!(expire(&clock, day(479)).await, (0, 0));
    assert_eq!(expire(&clock, day(480)).await, (100, 1));
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn calendar_expires_the_points_of_a_year_when_the_next_year_ends_in_the_company_time_zone() {
    let (app, shop) = acme().await;
    sql(&app, &shop, "update settings set expiration_policy = 'calendar'").await;
    let ana = add_customer(&app, &shop, "1", None).await;
    let clock = Clock::new(&app, &shop).await;

    clock.earn(ana, 10_000, bogota(2023, 3, 1, 12, 0)).await; //   2023: 100
    clock.earn(ana, 2_000, bogota(2023, 12, 31, 23, 30)).await; // 2023 in Bogotá (already 2024 in UTC): 20
    clock.earn(ana, 3_000, bogota(2024, 1, 1, 0, 30)).await; //    2024: 30
    clock.earn(ana, 5_000, bogota(2024, 6, 1, 12, 0)).await; //    2024: 50
    clock.spend(ana, 30, bogota(2024, 7, 1, 12, 0)).await; //      oldest first: 2023's 100 -> 70
    let refund = clock.spend(ana, 10, bogota(2024, 8, 1, 12, 0)).await; // 2023's 70 -> 60
    clock.void(refund, bogota(2024, 8, 2, 12, 0)).await.unwrap(); //       back to 70
    assert_eq!(balance(&app, &shop, ana).await, 170);

    assert_eq!(expire(&clock, bogota(2024, 12, 31, 23, 59)).await, (0, 0), "2023's points live until 2024 ends");
    assert_eq!(expire(&clock, bogota(2025, 1, 1, 0, 1)).await, (90, 1), "2023's 70 + 20");
    assert_eq!(expire(&clock, bogota(2025, 1, 1, 0, 1)).await, (0, 0), "running twice expires nothing more");
    assert_eq!(balance(&app, &shop, ana).await, 80);
    assert_eq!(expire(&clock, bogota(2025, 12, 31, 23, 0)).await, (0, 0));
    assert_eq!(expire(&clock, bogota(2026, 1, 1, 0, 0)).await, (80, 1), "2024's 30 + 50");
    assert_eq!(balance(&app, &shop, ana).await, 0);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn the_none_policy_expires_nothing() {
    let (app, shop) = acme().await;
    let ana = add_customer(&app, &shop, "1", None).await;
    let clock = Clock::new(&app, &shop).await;
    clock.earn(ana, 10_000, bogota(2015, 1, 1, 12, 0)).await;
    let expired = clock.expire(Utc::now()).await;
    assert_eq!((expired.policy, expired.points, expired.customers), ("none", 0, 0));
    assert_eq!(balance(&app, &shop, ana).await, 100);
}

#[tokio::test]
async fn the_expire_points_task_runs_the_policy_for_admins_only_and_is_audited() {
    let (app, shop) = acme().await;
    sql(&app, &shop, "update settings set expiration_policy = 'fifo', points_expiration_days = 365").await;
    let supervisor = add_staff(&app, &shop, "super1", "supervisor").await;
    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    let [ana, beto] = add_customers(&app, &shop, ["1", "2"]).await;
    let clock = Clock::new(&app, &shop).await;
    clock.earn(ana, 10_000, Utc::now() - Duration::days(400)).await;
    clock.earn(ana, 5_000, Utc::now()).await;
    clock.earn(beto, 20_000, Utc::now() - Duration::days(366)).await;

    for token in [&supervisor, &cajero] {
        assert_eq!(app.post("/api/tasks/expire-points", token, json!({})).await.status, StatusCode::FORBIDDEN);
    }
    let answer = app.post("/api/tasks/expire-points", &shop.admin, json!({})).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body, json!({ "message": "300 points of 2 customers expired", "points": 300, "customers": 2 }));
    let again = app.post("/api/tasks/expire-points", &shop.admin, json!({})).await;
    assert_eq!(again.body["points"], 0);
    assert_eq!(balance(&app, &shop, ana).await, 50);

    let runs =
        number(&app, &shop, "select count(*) from expiration_runs where trigger = 'manual' and actor = 'admin'").await;
    assert_eq!(runs, 2);
    let audited = number(
        &app,
        &shop,
        "select count(*) from audit_log where action = 'points.expire' and actor = 'admin' and detail ->> 'trigger' = 'manual'",
    )
    .await;
    assert_eq!(audited, 2);
    assert_ledger_consistent(&app, &shop).await;
}
