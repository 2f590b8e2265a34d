//! Alerts for supervisors and admins (docs/points.md, "Alerts"): each kind produced through the
//! till's own API, the list, its paging and filters, the review and who may see them.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::points::support::*;

async fn alerts(app: &TestApp, token: &str, query: &str) -> Value {
    let answer = app.get(&format!("/api/alerts{query}"), token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    answer.body
}

fn items(page: &Value) -> Vec<Value> {
    page["items"].as_array().unwrap().clone()
}

fn ids(values: &[Value]) -> Vec<i64> {
    values.iter().map(|v| v.as_i64().unwrap()).collect()
}

async fn set_operations_per_day(app: &TestApp, shop: &Shop, n: i64) {
    let saved = app.post("/api/settings", &shop.admin, json!({ "alertOperationsPerDay": n })).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(saved.body["alertOperationsPerDay"], n);
}

#[tokio::test]
async fn a_customer_with_more_operations_in_a_day_than_the_rule_raises_one_alert_that_later_reads_keep() {
    let (app, shop, customer) = acme_with_customer().await;
    set_operations_per_day(&app, &shop, 3).await;
    let mut posted = Vec::new();
    for amount in [10_000, 20_000] {
        posted.push(accredited(&app, &shop.admin, customer, amount).await.as_i64().unwrap());
    }
    let redeem = async |points| {
        let answer = redeem_api(&app, &shop.admin, customer, points).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        answer.body["newTransaction"]["id"].as_i64().unwrap()
    };
    posted.push(redeem(50).await);
    // Three operations are not more than three.
    assert_eq!(alerts(&app, &shop.admin, "").await["total"], 0);

    posted.push(redeem(60).await);
    let page = alerts(&app, &shop.admin, "?kind=customerOperations").await;
    assert_eq!(page["total"], 1, "{page}");
    assert_eq!(items(&page)[0]["occurrences"], 4);

    // A fifth updates the same alert.
    posted.push(accredited(&app, &shop.admin, customer, 5_000).await.as_i64().unwrap());
    let page = alerts(&app, &shop.admin, "?kind=customerOperations").await;
    assert_eq!(page["total"], 1, "{page}");
    let alert = &items(&page)[0];
    assert_eq!(alert["kind"], "customerOperations");
    assert_eq!(alert["status"], "new");
    assert_eq!(alert["customerId"], customer);
    assert_eq!(alert["customerDocument"], "100");
    assert_eq!(alert["occurrences"], 5);
    assert_eq!(alert["threshold"], 3);
    assert_eq!(alert["points"], 350);
    posted.sort_unstable();
    assert_eq!(ids(alert["transactionIds"].as_array().unwrap()), posted);

    // Read again: the same alert, not another.
    let again = alerts(&app, &shop.admin, "?kind=customerOperations").await;
    assert_eq!(again["total"], 1);
    assert_eq!(items(&again)[0]["id"], alert["id"]);
    let transactions = app.get(&format!("/api/alerts/{}/transactions", alert["id"]), &shop.admin).await;
    assert_eq!(transactions.status, StatusCode::OK);
    assert_eq!(transactions.body.as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn zero_operations_per_day_turns_the_customer_alert_off() {
    let (app, shop, customer) = acme_with_customer().await;
    set_operations_per_day(&app, &shop, 0).await;
    for _ in 0..7 {
        accredited(&app, &shop.admin, customer, 1_000).await;
    }
    // The admin's repeats raise only cashierRepeats.
    let page = alerts(&app, &shop.admin, "?kind=customerOperations").await;
    assert_eq!(page["total"], 0, "{page}");
    let bad = app.post("/api/settings", &shop.admin, json!({ "alertOperationsPerDay": 1001 })).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.code(), "field.range");
}

#[tokio::test]
async fn a_cashier_accrediting_one_customer_three_times_in_a_day_raises_cashier_repeats() {
    let (app, shop, customer) = acme_with_customer().await;
    let other = add_customer(&app, &shop, "200", None).await;
    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    let mut sales = Vec::new();
    for _ in 0..2 {
        sales.push(accredited(&app, &cajero, customer, 10_000).await.as_i64().unwrap());
    }
    accredited(&app, &cajero, other, 10_000).await;
    assert_eq!(alerts(&app, &shop.admin, "").await["total"], 0);

    sales.push(accredited(&app, &cajero, customer, 10_000).await.as_i64().unwrap());
    let page = alerts(&app, &shop.admin, "").await;
    assert_eq!(page["total"], 1, "{page}");
    let alert = &items(&page)[0];
    assert_eq!(alert["kind"], "cashierRepeats");
    assert_eq!(alert["cashierUsername"], "caja1");
    assert_eq!(alert["customerId"], customer);
    assert_eq!(alert["occurrences"], 3);
    assert_eq!(alert["threshold"], 3);
    assert_eq!(alert["points"], 300);
    assert_eq!(ids(alert["transactionIds"].as_array().unwrap()), sales);

    // A fourth one updates the same alert.
    accredited(&app, &cajero, customer, 10_000).await;
    let page = alerts(&app, &shop.admin, "").await;
    assert_eq!(page["total"], 1);
    assert_eq!(items(&page)[0]["occurrences"], 4);
}

#[tokio::test]
async fn an_accreditation_voided_soon_after_the_customer_redeemed_raises_refund_after_redemption() {
    let (app, shop, customer) = acme_with_customer().await;
    let older = add_customer(&app, &shop, "300", None).await;
    // A void with no redemption before it raises nothing.
    let plain = accredited(&app, &shop.admin, older, 10_000).await;
    assert_eq!(void_api(&app, &shop.admin, &plain, json!({})).await.status, StatusCode::OK);

    let first = accredited(&app, &shop.admin, customer, 10_000).await;
    let second = accredited(&app, &shop.admin, customer, 20_000).await;
    // The redemption takes the first batch (oldest first), so the second can still be voided.
    let redemption = redeem_api(&app, &shop.admin, customer, 100).await.body["newTransaction"]["id"].clone();
    assert_eq!(void_api(&app, &shop.admin, &second, json!({})).await.status, StatusCode::OK);

    let page = alerts(&app, &shop.admin, "?kind=refundAfterRedemption").await;
    assert_eq!(page["total"], 1, "{page}");
    let alert = &items(&page)[0];
    assert_eq!(alert["customerId"], customer);
    assert_eq!(alert["occurrences"], 1);
    assert_eq!(alert["points"], 100);
    assert_eq!(alert["threshold"], 7);
    let cancellation = number(
        &app,
        &shop,
        &format!("select id from transactions where type = 'cancellation' and original_transaction_id = {second}"),
    )
    .await;
    assert_eq!(
        ids(alert["transactionIds"].as_array().unwrap()),
        vec![second.as_i64().unwrap(), redemption.as_i64().unwrap(), cancellation]
    );
    assert_ne!(alert["transactionIds"][0], first);
}

#[tokio::test]
async fn an_invoice_credited_voided_and_credited_to_another_customer_raises_invoice_reassigned() {
    let (app, shop, customer) = acme_with_customer().await;
    let other = add_customer(&app, &shop, "200", None).await;
    // Voided and credited again to the same customer: a correction, no alert.
    let same = accredit_with(&app, &shop.admin, customer, json!({ "invoiceAmount": 1000, "invoiceReference": "G-7" }))
        .await
        .body["newTransaction"]["id"]
        .clone();
    void_api(&app, &shop.admin, &same, json!({})).await;
    accredit_with(&app, &shop.admin, customer, json!({ "invoiceAmount": 1000, "invoiceReference": "G-7" })).await;

    let first =
        accredit_with(&app, &shop.admin, customer, json!({ "invoiceAmount": 1000, "invoiceReference": "F-77" }))
            .await
            .body["newTransaction"]["id"]
            .clone();
    assert_eq!(void_api(&app, &shop.admin, &first, json!({})).await.status, StatusCode::OK);
    let again =
        accredit_with(&app, &shop.admin, other, json!({ "invoiceAmount": 1000, "invoiceReference": "f-77" })).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);

    let page = alerts(&app, &shop.admin, "?kind=invoiceReassigned").await;
    assert_eq!(page["total"], 1, "{page}");
    let alert = &items(&page)[0];
    assert_eq!(alert["invoiceReference"], "f-77");
    assert_eq!(alert["customerId"], other);
    assert_eq!(alert["occurrences"], 1);
    let cancellation =
        number(&app, &shop, &format!("select id from transactions where original_transaction_id = {first}")).await;
    assert_eq!(
        ids(alert["transactionIds"].as_array().unwrap()),
        vec![first.as_i64().unwrap(), cancellation, again.body["newTransaction"]["id"].as_i64().unwrap()]
    );
}

/// `n` customers each with two accreditations, under `alertOperationsPerDay` 1: `n` alerts.
async fn busy_customers(app: &TestApp, shop: &Shop, n: usize) -> Vec<i64> {
    set_operations_per_day(app, shop, 1).await;
    let mut customers = Vec::new();
    for i in 0..n {
        let customer = add_customer(app, shop, &format!("9{i:03}"), None).await;
        accredited(app, &shop.admin, customer, 1_000).await;
        accredited(app, &shop.admin, customer, 1_000).await;
        customers.push(customer);
    }
    customers
}

#[tokio::test]
async fn alerts_are_paged_filtered_and_marked_reviewed_for_good() {
    let (app, shop) = acme().await;
    busy_customers(&app, &shop, 11).await;

    let first = alerts(&app, &shop.admin, "").await;
    assert_eq!(
        (first["total"].as_i64(), first["page"].as_i64(), first["pageSize"].as_i64()),
        (Some(11), Some(1), Some(10))
    );
    assert_eq!(items(&first).len(), 10);
    let second = alerts(&app, &shop.admin, "?page=2&pageSize=10").await;
    assert_eq!(items(&second).len(), 1);
    let all = alerts(&app, &shop.admin, "?pageSize=25").await;
    assert_eq!(items(&all).len(), 11);

    let count = app.get("/api/alerts/count", &shop.admin).await;
    assert_eq!(count.body, json!({ "newAlerts": 11 }));

    let target = items(&first)[3]["id"].clone();
    let reviewed =
        app.put(&format!("/api/alerts/{target}"), &shop.admin, json!({ "id": target, "status": "reviewed" })).await;
    assert_eq!(reviewed.status, StatusCode::OK, "{}", reviewed.body);
    assert_eq!(reviewed.body["status"], "reviewed");
    assert_eq!(reviewed.body["reviewedBy"], "admin");
    assert!(reviewed.body["reviewedAt"].is_string());
    let audited = number(&app, &shop, "select count(*) from audit_log where action = 'alert.review'").await;
    assert_eq!(audited, 1);

    // Detection runs again on every read and keeps the review.
    let new = alerts(&app, &shop.admin, "?status=new&pageSize=50").await;
    assert_eq!(new["total"], 10);
    assert!(items(&new).iter().all(|a| a["id"] != target));
    let done = alerts(&app, &shop.admin, "?status=reviewed").await;
    assert_eq!(done["total"], 1);
    assert_eq!(items(&done)[0]["id"], target);
    assert_eq!(alerts(&app, &shop.admin, "?kind=cashierRepeats").await["total"], 0);
    assert_eq!(app.get("/api/alerts/count", &shop.admin).await.body, json!({ "newAlerts": 10 }));

    for query in ["?status=open", "?kind=fraud", "?pageSize=7", "?page=0"] {
        let answer = app.get(&format!("/api/alerts{query}"), &shop.admin).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{query}");
    }
    let answer = app.put(&format!("/api/alerts/{target}"), &shop.admin, json!({ "status": "closed" })).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.code(), "alert.statusInvalid");
    let answer = app.put(&format!("/api/alerts/{target}"), &shop.admin, json!({})).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let answer = app.put("/api/alerts/999999", &shop.admin, json!({ "status": "reviewed" })).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.code(), "alert.notFound");
}

#[tokio::test]
async fn supervisors_with_the_screen_and_admins_see_alerts_and_a_cajero_never_does() {
    let (app, shop) = acme().await;
    busy_customers(&app, &shop, 1).await;
    let supervisor = add_staff(&app, &shop, "super1", "supervisor").await;
    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;

    let page = alerts(&app, &supervisor, "").await;
    assert_eq!(page["total"], 1);
    let id = items(&page)[0]["id"].clone();
    let reviewed = app.put(&format!("/api/alerts/{id}"), &supervisor, json!({ "status": "reviewed" })).await;
    assert_eq!(reviewed.body["reviewedBy"], "super1");

    for path in ["/api/alerts", "/api/alerts/count"] {
        assert_eq!(app.get(path, &cajero).await.status, StatusCode::FORBIDDEN, "{path}");
    }
    assert_eq!(app.get(&format!("/api/alerts/{id}/transactions"), &cajero).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        app.put(&format!("/api/alerts/{id}"), &cajero, json!({ "status": "new" })).await.status,
        StatusCode::FORBIDDEN
    );
    // Even granted by hand, a cajero is refused; and the admin cannot grant it.
    sql(&app, &shop, r#"update settings set role_permissions = '{"supervisor": ["/main"], "cajero": ["/alertas"]}'"#)
        .await;
    assert_eq!(app.get("/api/alerts", &cajero).await.status, StatusCode::FORBIDDEN);
    // A supervisor without the screen is refused.
    assert_eq!(app.get("/api/alerts", &supervisor).await.status, StatusCode::FORBIDDEN);
    let grant = app
        .post(
            "/api/settings",
            &shop.admin,
            json!({ "rolePermissions": { "supervisor": ["/alertas"], "cajero": ["/alertas"] } }),
        )
        .await;
    assert_eq!(grant.status, StatusCode::BAD_REQUEST);
    assert_eq!(grant.code(), "settings.permissions");
    let grant = app
        .post("/api/settings", &shop.admin, json!({ "rolePermissions": { "supervisor": ["/alertas"], "cajero": [] } }))
        .await;
    assert_eq!(grant.status, StatusCode::OK, "{}", grant.body);
    assert_eq!(app.get("/api/alerts", &supervisor).await.status, StatusCode::OK);
}

#[tokio::test]
async fn new_supervisors_may_see_alerts_by_default() {
    let (app, shop) = acme().await;
    let settings = app.get("/api/settings", &shop.admin).await.body;
    assert!(settings["rolePermissions"]["supervisor"].as_array().unwrap().contains(&json!("/alertas")));
    assert!(!settings["rolePermissions"]["cajero"].as_array().unwrap().contains(&json!("/alertas")));
    assert_eq!(settings["alertOperationsPerDay"], 5);
}

#[tokio::test]
async fn another_companys_alerts_never_show() {
    let (app, shop) = acme().await;
    busy_customers(&app, &shop, 2).await;
    let acme_alert = items(&alerts(&app, &shop.admin, "").await)[0]["id"].clone();
    let globex = crate::points::support::shop(&app, "globex").await;

    let page = alerts(&app, &globex.admin, "").await;
    assert_eq!(page["total"], 0, "{page}");
    assert_eq!(app.get("/api/alerts/count", &globex.admin).await.body, json!({ "newAlerts": 0 }));
    let answer = app.put(&format!("/api/alerts/{acme_alert}"), &globex.admin, json!({ "status": "reviewed" })).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    let answer = app.get(&format!("/api/alerts/{acme_alert}/transactions"), &globex.admin).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(alerts(&app, &shop.admin, "?status=new").await["total"], 2);
}

#[tokio::test]
async fn a_closed_day_is_scanned_once_and_its_alerts_stay() {
    let (app, shop) = acme().await;
    let customers = busy_customers(&app, &shop, 1).await;
    // The postings happened three days ago.
    sql(&app, &shop, "update transactions set created_at = created_at - interval '3 days'").await;
    let page = alerts(&app, &shop.admin, "").await;
    assert_eq!(page["total"], 1, "{page}");
    let scanned = number(
        &app,
        &shop,
        "select (current_date - scanned_through)::bigint from alert_scans where scanned_through is not null",
    )
    .await;
    assert!((0..=2).contains(&scanned), "{scanned}");
    // A later read scans only from the watermark on: the alert stays as it was.
    let again = alerts(&app, &shop.admin, "").await;
    assert_eq!(items(&again)[0]["id"], items(&page)[0]["id"]);
    assert_eq!(items(&again)[0]["customerId"], customers[0]);
}

#[tokio::test]
async fn a_customer_credited_beyond_the_day_s_velocity_limit_with_an_approval_raises_the_customer_alert() {
    let (app, shop, customer) = acme_with_customer().await;
    // The operations rule is off: only the velocity limit can raise the alert.
    set_operations_per_day(&app, &shop, 0).await;
    let limits = json!({ "maxAccreditationsPerCustomerPerDay": 1 });
    assert_eq!(app.post("/api/settings", &shop.admin, limits).await.status, StatusCode::OK);
    accredited(&app, &shop.admin, customer, 10_000).await;
    assert_eq!(alerts(&app, &shop.admin, "").await["total"], 0);

    let over = json!({ "invoiceAmount": 20_000, "invoiceReference": "OVER-1",
                       "supervisorUsername": "admin", "supervisorPassword": "admin-pass-1" });
    let answer = accredit_with(&app, &shop.admin, customer, over).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["newTransaction"]["approvedBy"], "admin");
    let page = alerts(&app, &shop.admin, "?kind=customerOperations").await;
    assert_eq!(page["total"], 1, "{page}");
    assert_eq!(items(&page)[0]["customerId"], customer);
    assert_eq!(items(&page)[0]["occurrences"], 2);
}
