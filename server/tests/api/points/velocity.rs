//! Velocity limits (docs/points.md, "Velocity limits"): the most accreditations and points a
//! customer may be credited in a calendar day of the company's time zone, and the supervisor's
//! approval beyond them.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::support::*;
use crate::helpers::{refused_and_throttled, Answer, TestApp};
use loyalty::error::AppError;

fn approved_by(username: &str, password: &str) -> Value {
    json!({ "supervisorUsername": username, "supervisorPassword": password })
}

/// Accredits `amount` with an invoice reference of its own and the extra fields of `extra`.
async fn accredit_body(app: &TestApp, token: &str, customer: i64, amount: i64, extra: Value) -> Answer {
    static INVOICES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let reference = format!("V-{}", INVOICES.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    let mut body = json!({ "invoiceAmount": amount, "invoiceReference": reference });
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    accredit_with(app, token, customer, body).await
}

async fn limits(app: &TestApp, shop: &Shop, accreditations: i64, points: i64) {
    let rules = json!({ "maxAccreditationsPerCustomerPerDay": accreditations, "maxPointsPerCustomerPerDay": points });
    let answer = app.post("/api/settings", &shop.admin, rules).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
}

async fn accreditations(app: &TestApp, shop: &Shop, customer: i64) -> i64 {
    number(app, shop, &format!("select count(*) from transactions where customer_id = {customer}")).await
}

async fn overrides(app: &TestApp, shop: &Shop) -> i64 {
    number(app, shop, "select count(*) from audit_log where action = 'accreditation.override'").await
}

#[tokio::test]
async fn the_rules_take_velocity_limits_as_whole_numbers_from_zero_which_is_no_limit() {
    let (app, shop) = acme().await;
    let settings = app.get("/api/settings", &shop.admin).await.body;
    assert_eq!(settings["maxAccreditationsPerCustomerPerDay"], 0, "no limit by default");
    assert_eq!(settings["maxPointsPerCustomerPerDay"], 0);

    limits(&app, &shop, 5, 2_000).await;
    let settings = app.get("/api/settings", &shop.admin).await.body;
    assert_eq!(settings["maxAccreditationsPerCustomerPerDay"], 5);
    assert_eq!(settings["maxPointsPerCustomerPerDay"], 2_000);

    for (field, label) in [
        ("maxAccreditationsPerCustomerPerDay", "most accreditations per customer per day"),
        ("maxPointsPerCustomerPerDay", "most points per customer per day"),
    ] {
        let message = format!("{label} must be a whole number of 0 or more");
        let cases =
            [json!(-1), json!(1.5), json!("3"), json!(true)].map(|value| (json!({ field: value }), message.as_str()));
        app.assert_bad_requests("/api/settings", &shop.admin, cases).await;
    }
    let answer =
        app.post("/api/settings", &shop.admin, json!({ "maxAccreditationsPerCustomerPerDay": 1_000_001 })).await;
    answer.assert_error(
        StatusCode::BAD_REQUEST,
        "most accreditations per customer per day is too large: the most is 1,000,000",
    );
    // Nothing changed, and 0 lifts a limit.
    let settings = app.get("/api/settings", &shop.admin).await.body;
    assert_eq!(settings["maxAccreditationsPerCustomerPerDay"], 5);
    limits(&app, &shop, 0, 0).await;
    assert_eq!(app.get("/api/settings", &shop.admin).await.body["maxPointsPerCustomerPerDay"], 0);
}

#[tokio::test]
async fn an_accreditation_beyond_the_day_s_count_is_refused_saying_the_limit_and_today_s_count() {
    let (app, shop, customer) = acme_with_customer().await;
    limits(&app, &shop, 2, 0).await;
    for _ in 0..2 {
        assert_eq!(accredit_api(&app, &shop.admin, customer, 10_000).await.status, StatusCode::OK);
    }

    let answer = accredit_api(&app, &shop.admin, customer, 10_000).await;
    answer.assert_error(
        StatusCode::CONFLICT,
        "this customer has already had 2 accreditation(s) today and the limit is 2 a day: \
         a supervisor or admin must approve this accreditation",
    );
    assert_eq!(answer.code(), "points.velocityAccreditations");
    assert_eq!(answer.body["params"], json!({ "limit": 2, "today": 2 }));
    let spanish = app
        .http
        .post(format!("{}/api/customers/{customer}/accredit", app.address))
        .bearer_auth(&shop.admin)
        .header("Accept-Language", "es")
        .json(&json!({ "invoiceAmount": 10_000 }))
        .send()
        .await
        .unwrap();
    assert_eq!(spanish.status(), StatusCode::CONFLICT);
    let spanish: Value = spanish.json().await.unwrap();
    assert_eq!(
        spanish["message"],
        "Este cliente ya recibió 2 acreditación(es) hoy y el límite es 2 al día: un supervisor o \
         administrador debe aprobar esta acreditación."
    );

    // Nothing was posted; another customer has a day of their own.
    assert_eq!(accreditations(&app, &shop, customer).await, 2);
    assert_eq!(balance(&app, &shop, customer).await, 200);
    let other = add_customer(&app, &shop, "200", None).await;
    assert_eq!(accredit_api(&app, &shop.admin, other, 10_000).await.status, StatusCode::OK);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn the_day_s_points_limit_counts_the_points_of_the_accreditation_asked_for() {
    let (app, shop, customer) = acme_with_customer().await;
    limits(&app, &shop, 0, 150).await;
    assert_eq!(accredit_api(&app, &shop.admin, customer, 10_000).await.status, StatusCode::OK);
    assert_eq!(accredit_api(&app, &shop.admin, customer, 5_000).await.status, StatusCode::OK, "exactly 150");

    let answer = accredit_api(&app, &shop.admin, customer, 100).await;
    answer.assert_error(
        StatusCode::CONFLICT,
        "this customer has already been credited 150 points today; the 1 of this accreditation would \
         exceed the limit of 150 points a day: a supervisor or admin must approve it",
    );
    assert_eq!(answer.code(), "points.velocityPoints");
    assert_eq!(answer.body["params"], json!({ "limit": 150, "today": 150, "points": 1 }));
    assert_eq!(balance(&app, &shop, customer).await, 150);
    // Raising the limit lets the next one through.
    limits(&app, &shop, 0, 151).await;
    assert_eq!(accredit_api(&app, &shop.admin, customer, 100).await.status, StatusCode::OK);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_supervisor_approves_an_accreditation_beyond_a_limit_and_the_approval_is_recorded() {
    let CajeroSale { app, shop, cajero, customer, sale, .. } = cajero_sale("super1").await;
    limits(&app, &shop, 1, 0).await;

    // An approval no limit needs is checked but not recorded.
    let first = app.get("/api/transactions", &shop.admin).await.body;
    assert_eq!(first[0]["id"], sale);
    assert_eq!(first[0]["approvedBy"], Value::Null);

    let refused = accredit_api(&app, &cajero, customer, 5_000).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    let answer = accredit_body(&app, &cajero, customer, 5_000, approved_by("super1", STAFF_PASSWORD)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["newTransaction"]["approvedBy"], "super1");
    assert_eq!(answer.body["newTransaction"]["cashierUsername"], "caja1");
    assert_eq!(answer.body["updatedCustomer"]["points"], 150);
    let id = answer.body["newTransaction"]["id"].as_i64().unwrap();
    let recorded = format!("select count(*) from transactions where id = {id} and approved_by = 'super1'");
    assert_eq!(number(&app, &shop, &recorded).await, 1);
    let listed = app.get("/api/transactions", &shop.admin).await.body;
    assert_eq!(listed.as_array().unwrap().iter().find(|t| t["id"] == id).unwrap()["approvedBy"], "super1");
    let audited = format!(
        "select count(*) from audit_log where action = 'accreditation.override' and actor = 'caja1' \
         and entity_id = {id} and detail ->> 'approvedBy' = 'super1' \
         and detail -> 'limits' -> 0 ->> 'limit' = 'accreditations' and (detail -> 'limits' -> 0 ->> 'today')::int = 1"
    );
    assert_eq!(number(&app, &shop, &audited).await, 1);

    // Within the limits, credentials change nothing.
    let other = add_customer(&app, &shop, "200", None).await;
    let answer = accredit_body(&app, &cajero, other, 5_000, approved_by("super1", STAFF_PASSWORD)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["newTransaction"]["approvedBy"], Value::Null);
    assert_eq!(overrides(&app, &shop).await, 1);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_supervisor_beyond_a_limit_is_refused_too_and_approves_with_their_own_password() {
    let (app, shop, customer) = acme_with_customer().await;
    let supervisor = add_staff(&app, &shop, "super1", "supervisor").await;
    limits(&app, &shop, 1, 0).await;
    assert_eq!(accredit_api(&app, &supervisor, customer, 10_000).await.status, StatusCode::OK);

    assert_eq!(accredit_api(&app, &supervisor, customer, 10_000).await.status, StatusCode::CONFLICT);
    assert_eq!(accredit_api(&app, &shop.admin, customer, 10_000).await.status, StatusCode::CONFLICT);
    let answer = accredit_body(&app, &supervisor, customer, 10_000, approved_by("super1", STAFF_PASSWORD)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["newTransaction"]["approvedBy"], "super1");
    let answer = accredit_body(&app, &shop.admin, customer, 10_000, approved_by("admin", "admin-pass-1")).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["newTransaction"]["approvedBy"], "admin");
    assert_eq!(overrides(&app, &shop).await, 2);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn wrong_approvals_post_nothing_and_are_throttled_as_logins() {
    let CajeroSale { app, shop, cajero, customer, .. } = cajero_sale("jefe").await;
    add_staff(&app, &shop, "caja2", "cajero").await;
    let globex = super::support::shop(&app, "globex").await;
    add_staff(&app, &globex, "boss", "supervisor").await;
    limits(&app, &shop, 1, 0).await;

    for (username, password) in [
        ("jefe", "wrong-password"),
        ("nobody", STAFF_PASSWORD),
        ("caja2", STAFF_PASSWORD), // a cajero cannot approve
        ("caja1", STAFF_PASSWORD), // nor approve their own sale
        ("boss@globex", STAFF_PASSWORD),
        ("jefe", ""),
    ] {
        let answer = accredit_body(&app, &cajero, customer, 10_000, approved_by(username, password)).await;
        answer.assert_error(StatusCode::UNAUTHORIZED, "incorrect supervisor credentials");
    }
    assert_eq!(accreditations(&app, &shop, customer).await, 1);
    assert_eq!(overrides(&app, &shop).await, 0);

    // A burst of guesses locks the supervisor out, as logins would.
    let guesses =
        (0..30).map(|i| accredit_body(&app, &cajero, customer, 10_000, approved_by("jefe", &format!("g{i}"))));
    let answers = futures::future::join_all(guesses).await;
    let (_, throttled) = refused_and_throttled(&answers);
    assert!(throttled > 0, "the guesses were throttled");
    let answer = accredit_body(&app, &cajero, customer, 10_000, approved_by("jefe", STAFF_PASSWORD)).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    let audited = "select count(*) from audit_log where action = 'login.locked' and actor = 'caja1' \
                   and detail ->> 'login' = 'jefe@acme' and detail ->> 'via' = 'velocityApproval'";
    assert_eq!(number(&app, &shop, audited).await, 1);
    assert_eq!(accreditations(&app, &shop, customer).await, 1);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_voided_accreditation_does_not_count_toward_the_day_s_limits() {
    let (app, shop, customer) = acme_with_customer().await;
    limits(&app, &shop, 1, 100).await;
    let first = accredited(&app, &shop.admin, customer, 10_000).await;
    assert_eq!(accredit_api(&app, &shop.admin, customer, 10_000).await.status, StatusCode::CONFLICT);

    assert_eq!(void_api(&app, &shop.admin, &first, json!({})).await.status, StatusCode::OK);
    let answer = accredit_api(&app, &shop.admin, customer, 10_000).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(balance(&app, &shop, customer).await, 100);
    assert_ledger_consistent(&app, &shop).await;
}

/// The code of a refusal of the engine.
fn refusal_code(result: Result<loyalty::points::Posting, AppError>) -> String {
    match result {
        Ok(posting) => panic!("accredited {}", posting.new_transaction.id),
        Err(AppError::Conflict(problem)) => problem.msg.code().to_string(),
        Err(other) => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn the_day_is_the_company_s_calendar_day_not_utc() {
    let (app, shop, customer) = acme_with_customer().await;
    limits(&app, &shop, 1, 0).await;
    let clock = Clock::new(&app, &shop).await;

    // 23:30 on 9 March in Bogota is 04:30 UTC on 10 March: it counts for the 9th.
    clock.earn(customer, 10_000, bogota(2026, 3, 9, 23, 30)).await;
    assert!(clock.accredit(customer, 10_000, bogota(2026, 3, 10, 8, 0)).await.is_ok(), "a new day in Bogota");
    let refused = clock.accredit(customer, 10_000, bogota(2026, 3, 10, 23, 59)).await;
    assert_eq!(refusal_code(refused), "points.velocityAccreditations");

    // 00:00 in Bogota (05:00 UTC) opens the next day, which lasts until 05:00 UTC of the one
    // after: 19:30 in Bogota on the 11th is 00:30 UTC on the 12th.
    clock.earn(customer, 10_000, bogota(2026, 3, 11, 0, 0)).await;
    let refused = clock.accredit(customer, 10_000, bogota(2026, 3, 11, 19, 30)).await;
    assert_eq!(refusal_code(refused), "points.velocityAccreditations");

    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn two_tills_racing_cannot_both_pass_a_limit() {
    let (app, shop, customer) = busy_acme_with_customer().await;
    limits(&app, &shop, 1, 0).await;
    let answers = at_once(&app, &shop.admin, 10, move |app, token| async move {
        accredit_api(&app, &token, customer, 10_000).await.status
    })
    .await;
    assert_eq!(answers.iter().filter(|s| **s == StatusCode::OK).count(), 1, "{answers:?}");
    assert_eq!(answers.iter().filter(|s| **s == StatusCode::CONFLICT).count(), 9, "{answers:?}");
    assert_eq!(accreditations(&app, &shop, customer).await, 1);
    assert_ledger_consistent(&app, &shop).await;
}
