//! The start-up warm-up: a company's sale statements prepared and planned on its connection
//! before the server takes requests, so that its first sale after a restart finds them.

use std::time::Duration;

use loyalty::domain::Prefix;
use loyalty::points::warm::{sale_statements, warm_company, warm_up};
use reqwest::StatusCode;
use serde_json::json;

use super::support::*;
use crate::helpers::{spawn_app_with_pool, TestApp};

/// The company's statements prepared on the pool's one connection, how many keep a plan, and
/// how many were planned at some execution of their own.
async fn prepared(app: &TestApp, shop: &Shop) -> (i64, i64, i64) {
    let pooled = app.state.pool.get().await.unwrap();
    let tag = format!("/* {} */ %", shop.schema());
    let row = pooled
        .query_one(
            "select count(*), count(*) filter (where generic_plans > 0), \
                    count(*) filter (where custom_plans > 0) \
             from pg_prepared_statements where statement like $1",
            &[&tag],
        )
        .await
        .unwrap();
    (row.get(0), row.get(1), row.get(2))
}

#[tokio::test]
async fn a_warmed_company_sells_without_preparing_or_planning_a_statement_more() {
    let app = spawn_app_with_pool(1).await;
    let acme = shop(&app, "acme").await;
    let customer = add_customer(&app, &acme, "100", None).await;
    let product = add_product(&app, &acme, "TAZ-1", 150, 15_000, true).await;
    assert_eq!(prepared(&app, &acme).await, (0, 0, 0));

    warm_company(&app.state.pool, &Prefix::parse("acme").unwrap()).await.unwrap();
    let statements = sale_statements().len() as i64;
    assert_eq!(prepared(&app, &acme).await, (statements, statements, 0), "each prepared and planned once");
    let nothing_written = number(&app, &acme, "select count(*) from transactions").await
        + number(&app, &acme, "select count(*) from idempotency_keys").await;
    assert_eq!(nothing_written, 0, "the warm-up runs no statement");

    // The sales of a till, each under an Idempotency-Key, as `make bench` sends them.
    let accredit = format!("/api/customers/{customer}/accredit");
    let (status, _, _) = post_with_key(&app, &accredit, &acme.admin, "k-1", json!({ "invoiceAmount": 50_000 })).await;
    assert_eq!(status, StatusCode::OK);
    let redeem = format!("/api/customers/{customer}/redeem");
    let (status, _, _) = post_with_key(&app, &redeem, &acme.admin, "k-2", json!({ "pointsToRedeem": 100 })).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body, _) = post_with_key(&app, &redeem, &acme.admin, "k-3", json!({ "productId": product })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(balance(&app, &acme, customer).await, 250);
    assert_eq!(
        prepared(&app, &acme).await,
        (statements, statements, 0),
        "a sale prepared a statement the warm-up does not (points::warm::sale_statements), \
         or planned one at its execution instead of keeping its plan"
    );
}

#[tokio::test]
async fn the_warm_up_covers_every_active_company_within_its_time_and_none_without_any() {
    let app = spawn_app_with_pool(2).await;
    shop(&app, "acme").await;
    shop(&app, "globex").await;
    app.sql("update platform.companies set state = 'deleting' where prefix = 'globex'").await;
    shop(&app, "initech").await;

    let none = warm_up(&app.state, Duration::ZERO).await.unwrap();
    assert_eq!((none.companies, none.warmed, none.failed), (2, 0, 0));
    let all = warm_up(&app.state, Duration::from_secs(30)).await.unwrap();
    assert_eq!((all.companies, all.warmed, all.failed), (2, 2, 0), "the active companies");
}
