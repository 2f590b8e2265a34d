//! `loyalty seed-demo` (`make run`): a demo a shop owner recognises, made in seconds, once.

use std::time::{Duration, Instant};

use loyalty::seed;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::spawn_app;
use crate::points::support::assert_ledger_consistent_in;

const SCHEMA: &str = "tenant_demo";

async fn counts(app: &crate::helpers::TestApp) -> Vec<i64> {
    let mut out = Vec::new();
    for table in [
        "customers",
        "transactions",
        "point_batches",
        "batch_movements",
        "users",
        "points_of_sale",
        "products",
        "categories",
    ] {
        out.push(app.count(&format!("select count(*) from {SCHEMA}.{table}")).await);
    }
    out
}

#[tokio::test]
async fn the_demo_has_two_months_of_history_kept_to_the_ledgers_rules_and_a_second_run_adds_nothing() {
    let app = spawn_app().await;
    let started = Instant::now();
    assert!(seed::seed_demo(&app.state).await.unwrap(), "the first run creates the company");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(20), "seeding took {took:?}");

    let count = |sql: &str| {
        let sql = format!("set search_path to {SCHEMA}; {sql}");
        let app = &app;
        async move {
            let db = app.db().await;
            let messages = db.simple_query(&sql).await.expect(&sql);
            messages
                .iter()
                .find_map(|m| match m {
                    tokio_postgres::SimpleQueryMessage::Row(row) => row.get(0).map(|v| v.parse::<i64>().unwrap()),
                    _ => None,
                })
                .unwrap()
        }
    };
    assert!(count("select count(*) from customers where is_active").await >= 300);
    assert_eq!(count("select count(*) from points_of_sale where is_active").await, 3);
    assert!(count("select count(*) from users where role = 'cajero' and is_active").await >= 4);
    // Every point of sale and every cashier rang up sales.
    assert_eq!(count("select count(distinct pos_id) from transactions where type = 'accreditation'").await, 3);
    assert!(count("select count(distinct cashier_username) from transactions where type = 'accreditation'").await >= 5);
    // Sixty days of accreditations and redemptions, nothing in the future.
    assert!(count("select count(*) from transactions where type = 'accreditation'").await >= 1000);
    assert!(count("select count(*) from transactions where type = 'redemption'").await >= 50);
    assert!(
        count("select count(*) from transactions where type = 'redemption' and product_id is not null").await >= 30
    );
    assert_eq!(count("select count(*) from transactions where created_at > now()").await, 0);
    assert!(
        count("select count(distinct (created_at at time zone 'America/Bogota')::date) from transactions where created_at > now() - interval '61 days'").await
            >= 55
    );
    // One void (with its cancellation) and one expiration, as the engine writes them.
    assert_eq!(count("select count(*) from transactions where is_voided").await, 1);
    assert_eq!(count("select count(*) from transactions where type = 'cancellation'").await, 1);
    assert_eq!(
        count("select count(*) from transactions where type = 'expiration' and cashier_username = 'system'").await,
        1
    );
    assert_eq!(count("select count(*) from expiration_runs").await, 1);
    // The catalogue agrees with what a point is worth, and every product can be redeemed.
    assert_eq!(
        count("select count(*) from products p, settings s where p.points_value <> p.price * s.redemption_rate or p.points_value < 1").await,
        0
    );
    assert!(count("select count(*) from products where is_active").await >= 6);
    // Invoice references of live accreditations are not repeated.
    assert_eq!(
        count("select count(*) from (select invoice_reference from transactions where type = 'accreditation' and not is_voided group by 1 having count(*) > 1) d").await,
        0
    );
    // Each accreditation holds its invoice, as the till writes it, so it cannot be credited again.
    assert_eq!(count("select count(*) from transactions where type = 'accreditation' and invoice_key is distinct from upper(invoice_reference)").await, 0);
    // The ledger keeps facts, not sentences, and each posting's balances: a reprint is exact.
    assert_eq!(count("select count(*) from transactions where description is not null").await, 0);
    assert_eq!(
        count("select count(*) from transactions where balance_after is distinct from balance_before + points or balance_before < 0").await,
        0
    );
    assert_eq!(
        count("select count(*) from customers c where c.points <> coalesce((select t.balance_after from transactions t where t.customer_id = c.id order by t.id desc limit 1), 0)").await,
        0
    );
    assert_ledger_consistent_in(&app.db().await, SCHEMA).await;

    let before = counts(&app).await;
    let started = Instant::now();
    assert!(!seed::seed_demo(&app.state).await.unwrap(), "the second run finds the company");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(counts(&app).await, before, "a second run adds nothing");

    // The README's logins work, and the screens read the history.
    let admin = app.login_ok("admin@demo", seed::DEMO_ADMIN_PASSWORD).await;
    for (username, password, _, _) in seed::DEMO_USERS {
        app.login_ok(&format!("{username}@demo"), password).await;
    }
    let dashboard = app.get("/api/stats/dashboard", &admin).await;
    assert_eq!(dashboard.status, StatusCode::OK, "{}", dashboard.body);
    assert!(dashboard.body["totalCustomers"].as_i64().unwrap() >= 300);
    assert!(dashboard.body["transactionsLast30Days"].as_i64().unwrap() >= 300);
    assert!(dashboard.body["pointsInCirculation"].as_i64().unwrap() > 0);
    let voided = app.get("/api/transactions/search?type=cancellation", &admin).await;
    assert_eq!(voided.body["total"], 1, "{}", voided.body);
    // The policy the demo runs agrees with its history: nothing more is due today.
    let expired = app.post("/api/tasks/expire-points", &admin, json!({})).await;
    assert_eq!(expired.status, StatusCode::OK, "{}", expired.body);
    assert_eq!(expired.body["points"], 0, "{}", expired.body);
    assert_ledger_consistent_in(&app.db().await, SCHEMA).await;
}
