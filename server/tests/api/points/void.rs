use chrono::{Duration, Utc};
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::support::*;
use crate::helpers::{refused_and_throttled, TestApp};

fn supervisor_credentials(username: &str, password: &str) -> Value {
    json!({ "supervisorUsername": username, "supervisorPassword": password })
}

#[tokio::test]
async fn a_supervisor_or_admin_voids_any_transaction_with_confirmation_only() {
    let CajeroSale { app, shop, supervisor, customer, sale: by_cajero, .. } = cajero_sale("super1").await;
    let by_admin = accredited(&app, &shop.admin, customer, 20_000).await;

    let answer = void_api(&app, &supervisor, &by_cajero, json!({})).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body, json!({ "message": "transaction voided" }));
    let answer = void_api(&app, &shop.admin, &by_admin, supervisor_credentials("", "")).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(balance(&app, &shop, customer).await, 0);

    let list = app.get("/api/transactions", &shop.admin).await.body;
    let find = |id: &Value| list.as_array().unwrap().iter().find(|t| &t["id"] == id).unwrap().clone();
    assert_eq!(find(&by_cajero)["is_voided"], true);
    assert_eq!(find(&by_cajero)["voided_by"], "super1");
    assert_eq!(find(&by_admin)["voided_by"], "admin");
    let cancellation = list.as_array().unwrap().iter().find(|t| t["originalTransactionId"] == by_cajero).unwrap();
    assert_eq!(cancellation["type"], "cancellation");
    assert_eq!(cancellation["points"], -100);
    assert_eq!(cancellation["cashierUsername"], "super1");
    assert_eq!(cancellation["is_voided"], false);
    let audited = number(&app, &shop, "select count(*) from audit_log where action = 'transaction.void'").await;
    assert_eq!(audited, 2);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_cajero_voids_only_own_transactions_and_only_with_a_supervisors_credentials() {
    let CajeroSale { app, shop, cajero, customer, sale: own, .. } = cajero_sale("super1").await;
    let other_cajero = add_staff(&app, &shop, "caja2", "cajero").await;
    let others = accredited(&app, &other_cajero, customer, 10_000).await;
    let globex = super::support::shop(&app, "globex").await;
    add_staff(&app, &globex, "boss", "supervisor").await;

    let answer = void_api(&app, &cajero, &others, supervisor_credentials("super1", STAFF_PASSWORD)).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert_eq!(answer.message(), "you can only void your own transactions");

    let answer = void_api(&app, &cajero, &own, json!({})).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.message(), "supervisor username and password are required");

    for (username, password) in [
        ("super1", "wrong-password"),
        ("nobody", STAFF_PASSWORD),
        ("caja2", STAFF_PASSWORD), // a cajero cannot approve
        ("boss", STAFF_PASSWORD),  // another company's supervisor
        ("boss@globex", STAFF_PASSWORD),
        ("super1@globex", STAFF_PASSWORD),
        ("super1", ""),
    ] {
        let answer = void_api(&app, &cajero, &own, supervisor_credentials(username, password)).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{username}/{password}");
        assert_eq!(answer.message(), "incorrect supervisor credentials");
    }
    // Nothing changed.
    assert_eq!(balance(&app, &shop, customer).await, 200);
    assert_eq!(
        number(&app, &shop, "select count(*) from transactions where is_voided or type = 'cancellation'").await,
        0
    );
    assert_eq!(number(&app, &shop, "select count(*) from audit_log where action = 'transaction.void'").await, 0);

    // The cajero's session survives the refusal, and the right credentials (also as name@prefix) work.
    let answer = void_api(&app, &cajero, &own, supervisor_credentials("Super1@acme", STAFF_PASSWORD)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let voided_by =
        number(&app, &shop, &format!("select count(*) from transactions where id = {own} and voided_by = 'super1'"))
            .await;
    assert_eq!(voided_by, 1, "the approving supervisor is who voided it");
    let approved = number(&app, &shop, "select count(*) from audit_log where action = 'transaction.void' and actor = 'caja1' and detail ->> 'approvedBy' = 'super1'").await;
    assert_eq!(approved, 1);
    // The admin's credentials approve as well.
    let second = accredited(&app, &cajero, customer, 10_000).await;
    let answer = void_api(&app, &cajero, &second, supervisor_credentials("admin", "admin-pass-1")).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(balance(&app, &shop, customer).await, 100);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn voiding_a_redemption_gives_its_points_back_to_the_batches_it_took_them_from() {
    let (app, shop, customer) = acme_with_customer().await;
    let clock = Clock::new(&app, &shop).await;
    let start = Utc::now() - Duration::days(2);
    clock.earn(customer, 10_000, start).await;
    clock.earn(customer, 20_000, start + Duration::days(1)).await;
    let first = clock.spend(customer, 50, start + Duration::days(1)).await;
    let second = clock.spend(customer, 120, start + Duration::days(2)).await;
    assert_eq!(batches(&app, &shop, customer).await, [0, 130]);

    let answer = void_api(&app, &shop.admin, &json!(second), json!({})).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(batches(&app, &shop, customer).await, [50, 200], "50 back to the first batch, 70 to the second");
    assert_eq!(balance(&app, &shop, customer).await, 250);
    let answer = void_api(&app, &shop.admin, &json!(first), json!({})).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(batches(&app, &shop, customer).await, [100, 200]);
    assert_eq!(balance(&app, &shop, customer).await, 300);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn voiding_an_accreditation_whose_points_were_spent_is_a_conflict() {
    let (app, shop, customer) = acme_with_customer().await;
    let clock = Clock::new(&app, &shop).await;
    let now = Utc::now();
    let spent = clock.earn(customer, 10_000, now - Duration::days(1)).await;
    let untouched = clock.earn(customer, 20_000, now).await;
    clock.spend(customer, 1, now).await;

    let answer = void_api(&app, &shop.admin, &json!(spent), json!({})).await;
    assert_eq!(answer.status, StatusCode::CONFLICT);
    assert_eq!(
        answer.message(),
        "the points of this accreditation were already redeemed or expired, so it cannot be voided"
    );
    assert_eq!(balance(&app, &shop, customer).await, 299);

    let answer = void_api(&app, &shop.admin, &json!(untouched), json!({})).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(balance(&app, &shop, customer).await, 99);
    assert_eq!(batches(&app, &shop, customer).await, [99, 0]);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_transaction_cannot_be_voided_twice() {
    let (app, shop, customer) = acme_with_customer().await;
    let tx = accredited(&app, &shop.admin, customer, 10_000).await;
    assert_eq!(void_api(&app, &shop.admin, &tx, json!({})).await.status, StatusCode::OK);
    let again = void_api(&app, &shop.admin, &tx, json!({})).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.message(), "this transaction was already voided");

    // Nor twice at the same moment.
    let tx = accredited(&app, &shop.admin, customer, 10_000).await;
    let (a, b) = tokio::join!(void_api(&app, &shop.admin, &tx, json!({})), void_api(&app, &shop.admin, &tx, json!({})));
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    assert_eq!(number(&app, &shop, "select count(*) from transactions where type = 'cancellation'").await, 2);
    assert_eq!(balance(&app, &shop, customer).await, 0);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn expiration_and_cancellation_rows_cannot_be_voided() {
    let (app, shop, customer) = acme_with_customer().await;
    with_fifo_after_30_days(&app, &shop).await;
    let clock = Clock::new(&app, &shop).await;
    let now = Utc::now();
    clock.earn(customer, 10_000, now - Duration::days(40)).await;
    let recent = clock.earn(customer, 5_000, now).await;
    clock.void(recent, now).await.unwrap();
    clock.expire(now).await;
    let expiration = number(&app, &shop, "select id from transactions where type = 'expiration'").await;
    let cancellation = number(&app, &shop, "select id from transactions where type = 'cancellation'").await;

    for id in [expiration, cancellation] {
        let answer = void_api(&app, &shop.admin, &json!(id), json!({})).await;
        assert_eq!(answer.status, StatusCode::CONFLICT);
        assert_eq!(answer.message(), "expiration and cancellation transactions cannot be voided");
    }
    let unknown = void_api(&app, &shop.admin, &json!(999_999), json!({})).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.message(), "transaction not found");
    assert_eq!(balance(&app, &shop, customer).await, 0);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn voiding_needs_the_reports_permission() {
    let (app, shop, customer) = acme_with_customer().await;
    let supervisor = add_staff(&app, &shop, "super1", "supervisor").await;
    let tx = accredited(&app, &shop.admin, customer, 10_000).await;
    sql(&app, &shop, r#"update settings set role_permissions = '{"supervisor": ["/main"], "cajero": []}'"#).await;
    assert_eq!(void_api(&app, &supervisor, &tx, json!({})).await.status, StatusCode::FORBIDDEN);
    assert_eq!(balance(&app, &shop, customer).await, 100);
}

/// Sends the voids all at once; answers how many got 401 and 429.
async fn void_burst(app: &TestApp, token: &str, transaction: &Value, approvals: Vec<Value>) -> (usize, usize) {
    let answers =
        futures::future::join_all(approvals.into_iter().map(|body| void_api(app, token, transaction, body))).await;
    refused_and_throttled(&answers)
}

#[tokio::test]
async fn a_void_approval_counts_as_a_login_attempt_of_the_supervisor_and_locks_like_one() {
    let CajeroSale { app, shop, cajero, customer, sale: own, .. } = cajero_sale("jefe").await;

    // Two wrong logins of the supervisor, then a burst of wrong approvals: one count for both.
    for _ in 0..2 {
        assert_eq!(app.login("jefe@acme", "guess").await.status, StatusCode::UNAUTHORIZED);
    }
    let guesses = (0..50)
        .map(|i| supervisor_credentials(if i % 2 == 0 { "jefe" } else { "Jefe@acme" }, &format!("guess{i}")))
        .collect();
    let (refused, throttled) = void_burst(&app, &cajero, &own, guesses).await;
    eprintln!("50 concurrent wrong void approvals: {refused} x 401, {throttled} x 429");
    assert!((1..=8).contains(&refused), "{refused} passwords were checked after 2 wrong logins (limit 10)");
    assert_eq!(throttled, 50 - refused);

    // The supervisor is locked out: the right approval and the supervisor's own login alike.
    let answer = void_api(&app, &cajero, &own, supervisor_credentials("jefe", STAFF_PASSWORD)).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(answer.message(), "too many failed login attempts; try again in 15 minute(s)");
    assert_eq!(app.login("jefe@acme", STAFF_PASSWORD).await.status, StatusCode::TOO_MANY_REQUESTS);
    let audited = "select count(*) from audit_log where action = 'login.locked' and actor = 'caja1' \
                   and detail ->> 'login' = 'jefe@acme' and detail ->> 'via' = 'voidApproval'";
    assert_eq!(number(&app, &shop, audited).await, 1, "the lock is in the company's audit trail");
    assert_eq!(balance(&app, &shop, customer).await, 100, "nothing was voided");

    // Once the lock ends, the right approval works and clears the count.
    app.db()
        .await
        .batch_execute("update platform.login_throttle set locked_until = now() where key = 'login:jefe@acme'")
        .await
        .unwrap();
    let answer = void_api(&app, &cajero, &own, supervisor_credentials("jefe", STAFF_PASSWORD)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(app.count("select count(*) from platform.login_throttle where key = 'login:jefe@acme'").await, 0);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn void_approvals_and_logins_from_one_address_share_its_limit() {
    let CajeroSale { app, shop, cajero, customer, sale: own, .. } = cajero_sale("jefe").await;

    // Distinct names (limit 10 each) from one address (limit 50): 40 logins and 40 approvals.
    let names: Vec<String> = (0..40).map(|i| format!("ghost{i}@acme")).collect();
    let logins = futures::future::join_all(names.iter().map(|name| app.login(name, "wrong"))).await;
    let approvals = (0..40).map(|i| supervisor_credentials(&format!("nobody{i}"), "wrong")).collect();
    let (approvals_refused, approvals_throttled) = void_burst(&app, &cajero, &own, approvals).await;
    let (logins_refused, _) = refused_and_throttled(&logins);
    assert!(logins_refused + approvals_refused <= 50, "{logins_refused} + {approvals_refused} passwords were checked");
    assert!(approvals_throttled >= 30, "{approvals_throttled} approvals refused unchecked");

    // The address is locked: the right approval is refused.
    let answer = void_api(&app, &cajero, &own, supervisor_credentials("jefe", STAFF_PASSWORD)).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS, "{}", answer.body);
    assert_eq!(balance(&app, &shop, customer).await, 100);
}
