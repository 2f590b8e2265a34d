//! Returns of accredited invoices (docs/points.md, "Returns"): the peers' refund exploits as
//! tests, the rule for spent points, voids after returns, and returns racing redemptions.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::support::*;
use crate::helpers::TestApp;

fn returned(amount: i64) -> Value {
    json!({ "returnedAmount": amount })
}

/// Returns `amount` pesos of `transaction` as `token`: must succeed; answers the return's points.
async fn give_back(app: &TestApp, token: &str, transaction: &Value, amount: i64) -> i64 {
    let answer = return_api(app, token, transaction, returned(amount)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["newTransaction"]["type"], "return");
    assert_eq!(answer.body["newTransaction"]["originalTransactionId"], *transaction);
    assert_eq!(answer.body["newTransaction"]["invoiceAmount"], amount);
    answer.body["newTransaction"]["points"].as_i64().unwrap()
}

async fn set_rule(app: &TestApp, shop: &Shop, rule: &str) {
    let answer = app.post("/api/settings", &shop.admin, json!({ "returnOfSpentPoints": rule })).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["returnOfSpentPoints"], rule);
}

#[tokio::test]
async fn buying_earning_returning_and_repeating_nets_zero_points() {
    let (app, shop, customer) = acme_with_customer().await;
    for round in 1..=5 {
        let sale = accredited(&app, &shop.admin, customer, 10_000).await;
        assert_eq!(balance(&app, &shop, customer).await, 100, "round {round}");
        assert_eq!(give_back(&app, &shop.admin, &sale, 10_000).await, -100);
        assert_eq!(balance(&app, &shop, customer).await, 0, "round {round}");
        // Nothing is left of that invoice to return again.
        let answer = return_api(&app, &shop.admin, &sale, returned(1)).await;
        answer.assert_error(
            StatusCode::BAD_REQUEST,
            "the returned amount exceeds what is left of the invoice: 0 pesos are left to return",
        );
    }
    let audited = number(&app, &shop, "select count(*) from audit_log where action = 'transaction.return'").await;
    assert_eq!(audited, 5);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn partial_returns_adding_up_to_the_invoice_reverse_exactly_what_was_earned() {
    let (app, shop, customer) = acme_with_customer().await;
    // Another purchase, so the balance is not simply emptied.
    accredited(&app, &shop.admin, customer, 5_000).await;
    // 33,333 pesos earn 333 points; each 10,000 back reverses floor(333 x 10,000 / 33,333) = 99.
    let sale = accredited(&app, &shop.admin, customer, 33_333).await;
    assert_eq!(balance(&app, &shop, customer).await, 383);
    assert_eq!(give_back(&app, &shop.admin, &sale, 10_000).await, -99);
    assert_eq!(give_back(&app, &shop.admin, &sale, 10_000).await, -99);
    assert_eq!(give_back(&app, &shop.admin, &sale, 1).await, 0);
    let answer = return_api(&app, &shop.admin, &sale, returned(13_333)).await;
    answer.assert_error(
        StatusCode::BAD_REQUEST,
        "the returned amount exceeds what is left of the invoice: 13,332 pesos are left to return",
    );
    // The return that completes the invoice takes exactly the remainder: 333 - 198 = 135.
    assert_eq!(give_back(&app, &shop.admin, &sale, 13_332).await, -135);
    assert_eq!(balance(&app, &shop, customer).await, 50);
    let reversed = number(
        &app,
        &shop,
        &format!("select -sum(points)::bigint from transactions where original_transaction_id = {sale}"),
    )
    .await;
    assert_eq!(reversed, 333);
    assert_eq!(batches(&app, &shop, customer).await, vec![50, 0]);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_return_of_spent_points_is_refused_by_default_naming_the_points_missing() {
    let (app, shop, customer) = acme_with_customer().await;
    let first = accredited(&app, &shop.admin, customer, 10_000).await; // 100 points
    accredited(&app, &shop.admin, customer, 5_000).await; // 50 points
                                                          // 120 spent: all of the first batch and 20 of the second.
    assert_eq!(redeem_api(&app, &shop.admin, customer, 120).await.status, StatusCode::OK);

    let answer = return_api(&app, &shop.admin, &first, returned(10_000)).await;
    answer.assert_error(
        StatusCode::CONFLICT,
        "the customer already spent 70 of the 100 points this return reverses; the return was not recorded",
    );
    assert_eq!(answer.code(), "return.pointsSpent");
    assert_eq!(balance(&app, &shop, customer).await, 30);
    assert_eq!(number(&app, &shop, "select count(*) from transactions where type = 'return'").await, 0);

    // A part the customer still holds comes out of the other batch, since its own is spent.
    assert_eq!(give_back(&app, &shop.admin, &first, 3_000).await, -30);
    assert_eq!(balance(&app, &shop, customer).await, 0);
    assert_eq!(batches(&app, &shop, customer).await, vec![0, 0]);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn under_the_rule_negative_a_return_of_spent_points_takes_the_balance_below_zero_and_blocks_redemptions() {
    let (app, shop, customer) = acme_with_customer().await;
    let settings = app.get("/api/settings", &shop.admin).await;
    assert_eq!(settings.body["returnOfSpentPoints"], "refuse");
    set_rule(&app, &shop, "negative").await;
    let sale = accredited(&app, &shop.admin, customer, 10_000).await;
    assert_eq!(redeem_api(&app, &shop.admin, customer, 80).await.status, StatusCode::OK);

    let answer = return_api(&app, &shop.admin, &sale, returned(10_000)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["updatedCustomer"]["points"], -80);
    assert_eq!(answer.body["newTransaction"]["points"], -100);
    assert_eq!(answer.body["newTransaction"]["balanceAfter"], -80);

    let blocked =
        "the customer's balance is negative (-80 points) after a return: no redemptions until it is positive again";
    redeem_api(&app, &shop.admin, customer, 1).await.assert_error(StatusCode::CONFLICT, blocked);
    // New purchases pay the debt first.
    accredited(&app, &shop.admin, customer, 5_000).await;
    assert_eq!(balance(&app, &shop, customer).await, -30);
    assert_eq!(redeem_api(&app, &shop.admin, customer, 1).await.status, StatusCode::CONFLICT);
    accredited(&app, &shop.admin, customer, 10_000).await;
    assert_eq!(balance(&app, &shop, customer).await, 70);
    assert_ledger_consistent(&app, &shop).await;
    let answer = redeem_api(&app, &shop.admin, customer, 70).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(balance(&app, &shop, customer).await, 0);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn voiding_an_accreditation_after_partial_returns_reverses_only_what_is_left() {
    let (app, shop, customer) = acme_with_customer().await;
    let sale = accredited(&app, &shop.admin, customer, 10_000).await;
    assert_eq!(give_back(&app, &shop.admin, &sale, 2_500).await, -25);
    assert_eq!(balance(&app, &shop, customer).await, 75);

    let answer = void_api(&app, &shop.admin, &sale, json!({})).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(balance(&app, &shop, customer).await, 0);
    let cancelled = number(
        &app,
        &shop,
        &format!("select points from transactions where type = 'cancellation' and original_transaction_id = {sale}"),
    )
    .await;
    assert_eq!(cancelled, -75);
    // A voided accreditation takes no more returns, and a return is never voided.
    let answer = return_api(&app, &shop.admin, &sale, returned(1_000)).await;
    answer.assert_error(StatusCode::CONFLICT, "this accreditation was voided: nothing can be returned");
    let the_return = number(
        &app,
        &shop,
        &format!("select id from transactions where type = 'return' and original_transaction_id = {sale}"),
    )
    .await;
    let answer = void_api(&app, &shop.admin, &json!(the_return), json!({})).await;
    answer.assert_error(StatusCode::CONFLICT, "a return cannot be voided");

    // An accreditation returned in full has nothing left to void.
    let other = accredited(&app, &shop.admin, customer, 4_000).await;
    give_back(&app, &shop.admin, &other, 4_000).await;
    let answer = void_api(&app, &shop.admin, &other, json!({})).await;
    answer.assert_error(StatusCode::CONFLICT, "this accreditation was fully returned: nothing is left to void");
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_cajero_returns_only_own_accreditations_with_a_supervisors_credentials() {
    let CajeroSale { app, shop, cajero, customer, sale, .. } = cajero_sale("super1").await;
    let others = accredited(&app, &shop.admin, customer, 10_000).await;
    let with_approval = |amount: i64, password: &str| {
        json!({ "returnedAmount": amount, "invoiceReference": "NC-7", "supervisorUsername": "super1",
                "supervisorPassword": password })
    };
    let answer = return_api(&app, &cajero, &others, with_approval(1_000, STAFF_PASSWORD)).await;
    answer.assert_error(StatusCode::FORBIDDEN, "you can only return your own accreditations");
    let answer = return_api(&app, &cajero, &sale, returned(1_000)).await;
    answer.assert_error(StatusCode::BAD_REQUEST, "supervisor username and password are required");
    let answer = return_api(&app, &cajero, &sale, with_approval(1_000, "wrong")).await;
    answer.assert_error(StatusCode::UNAUTHORIZED, "incorrect supervisor credentials");
    assert_eq!(number(&app, &shop, "select count(*) from transactions where type = 'return'").await, 0);

    let answer = return_api(&app, &cajero, &sale, with_approval(1_000, STAFF_PASSWORD)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["newTransaction"]["invoiceReference"], "NC-7");
    assert_eq!(answer.body["newTransaction"]["cashierUsername"], "caja1");
    let approved = number(
        &app,
        &shop,
        "select count(*) from audit_log where action = 'transaction.return' and actor = 'caja1' \
         and detail ->> 'approvedBy' = 'super1' and (detail ->> 'points')::bigint = -10",
    )
    .await;
    assert_eq!(approved, 1);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_retried_return_with_its_idempotency_key_posts_once() {
    let (app, shop, customer) = acme_with_customer().await;
    let sale = accredited(&app, &shop.admin, customer, 10_000).await;
    let path = format!("/api/transactions/{sale}/return");
    let (first, body, replayed) = post_with_key(&app, &path, &shop.admin, "ret-1", returned(5_000)).await;
    assert_eq!((first, replayed), (StatusCode::OK, false), "{body}");
    let (again, body_again, replayed) = post_with_key(&app, &path, &shop.admin, "ret-1", returned(5_000)).await;
    assert_eq!((again, replayed), (StatusCode::OK, true));
    assert_eq!(body_again, body);
    assert_eq!(balance(&app, &shop, customer).await, 50);
}

#[tokio::test]
async fn bad_returns_are_refused_in_the_callers_language_and_change_nothing() {
    let (app, shop, customer) = acme_with_customer().await;
    let sale = accredited(&app, &shop.admin, customer, 10_000).await;
    let redemption = redeem_api(&app, &shop.admin, customer, 10).await.body["newTransaction"]["id"].clone();
    let path = format!("/api/transactions/{sale}/return");
    let invalid = "the returned amount must be a whole number of pesos greater than zero";
    app.assert_bad_requests(
        &path,
        &shop.admin,
        [
            (json!({}), invalid),
            (returned(0), invalid),
            (returned(-5), invalid),
            (json!({ "returnedAmount": 1.5 }), invalid),
            (json!({ "returnedAmount": "12a" }), invalid),
            (
                returned(10_001),
                "the returned amount exceeds what is left of the invoice: 10,000 pesos are left to return",
            ),
            (
                json!({ "returnedAmount": 5, "invoiceReference": "x".repeat(101) }),
                "invoice reference must be at most 100 characters",
            ),
        ],
    )
    .await;
    for (lang, message) in [
        ("es", "El valor devuelto debe ser un número entero de pesos mayor que cero."),
        ("en", "the returned amount must be a whole number of pesos greater than zero"),
    ] {
        let res = app
            .http
            .post(format!("{}{path}", app.address))
            .bearer_auth(&shop.admin)
            .header("accept-language", lang)
            .json(&returned(0))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::BAD_REQUEST);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "return.amountInvalid");
        assert_eq!(body["message"], message);
    }
    let answer = return_api(&app, &shop.admin, &json!(999_999), returned(5)).await;
    answer.assert_error(StatusCode::NOT_FOUND, "transaction not found");
    let answer = return_api(&app, &shop.admin, &redemption, returned(5)).await;
    answer.assert_error(StatusCode::CONFLICT, "only accreditations can have returns");
    let answer = app.post("/api/settings", &shop.admin, json!({ "returnOfSpentPoints": "sometimes" })).await;
    answer.assert_error(StatusCode::BAD_REQUEST, "returnOfSpentPoints must be refuse or negative");
    assert_eq!(number(&app, &shop, "select count(*) from transactions where type = 'return'").await, 0);
    assert_eq!(balance(&app, &shop, customer).await, 90);
}

/// 50 returns of one accreditation racing 50 redemptions of the same customer, under `rule`:
/// answers the points the returns reversed and the accreditation's points.
async fn returns_racing_redemptions(rule: &str) {
    let (app, shop, customer) = busy_acme_with_customer().await;
    set_rule(&app, &shop, rule).await;
    let sale = accredited(&app, &shop.admin, customer, 100_000).await; // 1,000 points
    accredited(&app, &shop.admin, customer, 50_000).await; // 500 more
    let mut tasks = Vec::new();
    for i in 0..100 {
        let (app, token, sale) = (app.clone(), shop.admin.clone(), sale.clone());
        tasks.push(tokio::spawn(async move {
            if i % 2 == 0 {
                // 50 returns of 2,000 pesos: the whole invoice, 20 points each.
                ("return", return_api(&app, &token, &sale, returned(2_000)).await)
            } else {
                ("redeem", redeem_api(&app, &token, customer, 20).await)
            }
        }));
    }
    for task in tasks {
        let (kind, answer) = task.await.unwrap();
        match (kind, answer.status, answer.code()) {
            (_, StatusCode::OK, _)
            | ("return", StatusCode::CONFLICT, "return.pointsSpent")
            | ("redeem", StatusCode::BAD_REQUEST, "points.notEnough")
            | ("redeem", StatusCode::CONFLICT, "points.negativeBalance") => {}
            other => panic!("{rule}: unexpected {other:?}: {}", answer.body),
        }
    }
    let reversed = number(
        &app,
        &shop,
        &format!("select coalesce(-sum(points), 0)::bigint from transactions where original_transaction_id = {sale}"),
    )
    .await;
    assert!(reversed <= 1_000, "{rule}: the returns reversed {reversed} of 1,000 points");
    if rule == "negative" {
        assert_eq!(reversed, 1_000, "every return went through");
    }
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn fifty_returns_racing_fifty_redemptions_keep_every_balance_equal_to_its_ledger() {
    returns_racing_redemptions("refuse").await;
    returns_racing_redemptions("negative").await;
}
