use chrono::{Duration, Utc};
use reqwest::StatusCode;
use serde_json::json;

use super::support::*;

#[tokio::test]
async fn redeeming_points_takes_the_oldest_batches_first_and_values_them_at_the_redemption_rate() {
    let (app, shop, customer) = acme_with_customer().await;
    sql(&app, &shop, "update settings set redemption_rate = 100").await;
    let clock = Clock::new(&app, &shop).await;
    let start = Utc::now() - Duration::days(3);
    for (day, amount) in [(0, 10_000), (1, 20_000), (2, 30_000)] {
        clock.earn(customer, amount, start + Duration::days(day)).await;
    }
    assert_eq!(batches(&app, &shop, customer).await, [100, 200, 300]);

    let answer = redeem_api(&app, &shop.admin, customer, 250).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["updatedCustomer"]["points"], 350);
    let tx = &answer.body["newTransaction"];
    assert_eq!(tx["type"], "redemption");
    assert_eq!(tx["points"], -250);
    assert_eq!(tx["redeemedValue"], 2, "floor(250 / 100)");
    assert!(tx["invoiceAmount"].is_null());
    assert!(tx["description"].is_null(), "the ledger stores no sentence: {tx}");
    assert!(tx["productName"].is_null());
    assert_eq!(batches(&app, &shop, customer).await, [0, 50, 300]);
    let moved =
        number(&app, &shop, &format!("select count(*) from batch_movements where transaction_id = {}", tx["id"])).await;
    assert_eq!(moved, 2);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn redeeming_a_product_spends_its_points_and_records_its_price() {
    let (app, shop, customer) = acme_with_customer().await;
    let product = add_product(&app, &shop, "TAZ-1", 150, 15_000, true).await;
    accredit_api(&app, &shop.admin, customer, 20_000).await;

    let answer = redeem_with(
        &app,
        &shop.admin,
        customer,
        json!({ "pointsToRedeem": 150, "description": "", "invoiceReference": "R-9", "productId": product }),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let tx = &answer.body["newTransaction"];
    assert_eq!(tx["points"], -150);
    assert_eq!(tx["redeemedValue"], 15_000);
    assert_eq!(tx["productId"], product);
    assert!(tx["description"].is_null(), "the product is named by its own field: {tx}");
    assert_eq!(tx["productName"], "Producto TAZ-1");
    assert_eq!(tx["invoiceReference"], "R-9");
    assert_eq!(answer.body["updatedCustomer"]["points"], 50);

    // Without a number of points the product's own decides.
    let again = redeem_with(
        &app,
        &shop.admin,
        customer,
        json!({ "productId": product.to_string(), "pointsToRedeem": "", "description": "Taza" }),
    )
    .await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST);
    assert_eq!(again.message(), "not enough points");
    accredit_api(&app, &shop.admin, customer, 10_000).await;
    let again = redeem_with(&app, &shop.admin, customer, json!({ "productId": product, "description": "Taza" })).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(again.body["newTransaction"]["description"], "Taza");
    assert_eq!(again.body["updatedCustomer"]["points"], 0);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_redemption_refuses_invalid_points_a_short_balance_and_inactive_customers_or_products() {
    let (app, shop, customer) = acme_with_customer().await;
    accredit_api(&app, &shop.admin, customer, 10_000).await; // 100 points
    let path = format!("/api/customers/{customer}/redeem");
    for points in [json!(0), json!(-3), json!(1.5), json!("diez"), json!(null)] {
        let answer = app.post(&path, &shop.admin, json!({ "pointsToRedeem": points })).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{points}");
        assert_eq!(answer.message(), "enter valid points", "{points}");
    }
    let answer = redeem_api(&app, &shop.admin, customer, 101).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.message(), "not enough points");

    let inactive_product = add_product(&app, &shop, "OLD-1", 10, 1_000, false).await;
    let answer = app.post(&path, &shop.admin, json!({ "productId": inactive_product })).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.message(), "this product is inactive and cannot be redeemed");
    let answer = app.post(&path, &shop.admin, json!({ "productId": 999_999 })).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.message(), "product not found");
    let product = add_product(&app, &shop, "NEW-1", 40, 4_000, true).await;
    let answer = app.post(&path, &shop.admin, json!({ "productId": product, "pointsToRedeem": 30 })).await;
    assert_eq!(answer.status, StatusCode::CONFLICT, "the product's points changed since the till loaded it");

    let unknown = redeem_api(&app, &shop.admin, 999_999, 1).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.message(), "customer not found");
    sql(&app, &shop, &format!("update customers set is_active = false where id = {customer}")).await;
    let answer = redeem_api(&app, &shop.admin, customer, 10).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.message(), "customer not found");

    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    sql(&app, &shop, r#"update settings set role_permissions = '{"supervisor": [], "cajero": ["/accreditar"]}'"#).await;
    assert_eq!(redeem_api(&app, &cajero, customer, 1).await.status, StatusCode::FORBIDDEN);

    assert_eq!(balance(&app, &shop, customer).await, 100);
    assert_eq!(number(&app, &shop, "select count(*) from transactions where type = 'redemption'").await, 0);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn fifty_concurrent_redemptions_never_overdraw_a_customer() {
    let (app, shop, customer) = busy_acme_with_customer().await;
    let clock = Clock::new(&app, &shop).await;
    // Three batches, so concurrent redemptions also cross batch boundaries: 1,000 points.
    for amount in [30_000, 30_000, 40_000] {
        clock.earn(customer, amount, Utc::now()).await;
    }
    let answers =
        at_once(&app, &shop.admin, 50, |app, token| async move { redeem_api(&app, &token, customer, 30).await }).await;
    let mut succeeded = 0;
    for answer in answers {
        match answer.status {
            StatusCode::OK => succeeded += 1,
            StatusCode::BAD_REQUEST => assert_eq!(answer.message(), "not enough points"),
            other => panic!("unexpected {other}: {}", answer.body),
        }
    }
    assert_eq!(succeeded, 33, "1,000 points cover 33 redemptions of 30");
    assert_eq!(balance(&app, &shop, customer).await, 10);
    let ledger =
        number(&app, &shop, &format!("select sum(points)::bigint from transactions where customer_id = {customer}"))
            .await;
    assert_eq!(ledger, 10);
    assert_ledger_consistent(&app, &shop).await;
}
