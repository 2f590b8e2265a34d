use reqwest::StatusCode;
use serde_json::json;

use super::support::*;

#[tokio::test]
async fn the_same_idempotency_key_sent_twice_posts_once_and_answers_the_first_answer_again() {
    let (app, shop, customer) = acme_with_customer().await;
    let path = format!("/api/customers/{customer}/accredit");
    let body = json!({ "invoiceAmount": 50_000, "invoiceReference": "F-77" });

    let (status, first, replayed) = post_with_key(&app, &path, &shop.admin, "till-1-0001", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert!(!replayed);
    let (status, second, replayed) = post_with_key(&app, &path, &shop.admin, "till-1-0001", body.clone()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(replayed, "the retry is marked as a replay");
    assert_eq!(first, second, "the retry gets the first answer");
    assert_eq!(balance(&app, &shop, customer).await, 500);
    assert_eq!(number(&app, &shop, "select count(*) from transactions").await, 1);

    // A new key is a new accreditation (of another invoice).
    let body = json!({ "invoiceAmount": 50_000, "invoiceReference": "F-78" });
    let (status, third, _) = post_with_key(&app, &path, &shop.admin, "till-1-0002", body).await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(third["newTransaction"]["id"], first["newTransaction"]["id"]);
    assert_eq!(balance(&app, &shop, customer).await, 1_000);

    // Redemptions and voids too.
    let redeem = format!("/api/customers/{customer}/redeem");
    let body = json!({ "pointsToRedeem": 300, "description": "Bono" });
    let (_, first, _) = post_with_key(&app, &redeem, &shop.admin, "till-1-0003", body.clone()).await;
    let (status, second, replayed) = post_with_key(&app, &redeem, &shop.admin, "till-1-0003", body).await;
    assert_eq!((status, replayed), (StatusCode::OK, true));
    assert_eq!(first, second);
    assert_eq!(balance(&app, &shop, customer).await, 700);

    let void = format!("/api/transactions/{}/void", first["newTransaction"]["id"]);
    let (status, first, _) = post_with_key(&app, &void, &shop.admin, "till-1-0004", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let (status, second, replayed) = post_with_key(&app, &void, &shop.admin, "till-1-0004", json!({})).await;
    assert_eq!((status, replayed), (StatusCode::OK, true), "{second}");
    assert_eq!(first, second);
    assert_eq!(balance(&app, &shop, customer).await, 1_000);
    assert_eq!(number(&app, &shop, "select count(*) from transactions where type = 'cancellation'").await, 1);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn the_same_idempotency_key_sent_concurrently_posts_once() {
    let (app, shop, customer) = busy_acme_with_customer().await;
    let answers = at_once(&app, &shop.admin, 10, |app, token| async move {
        let path = format!("/api/customers/{customer}/accredit");
        post_with_key(&app, &path, &token, "same-accreditation", json!({ "invoiceAmount": 100_000 })).await
    })
    .await;
    for (status, body, _) in &answers {
        assert_eq!(*status, StatusCode::OK, "{body}");
        assert_eq!(body, &answers[0].1, "every retry gets the first answer");
    }
    assert_eq!(answers.iter().filter(|(_, _, replayed)| !replayed).count(), 1, "one request posted");
    assert_eq!(balance(&app, &shop, customer).await, 1_000);

    let answers = at_once(&app, &shop.admin, 10, |app, token| async move {
        let path = format!("/api/customers/{customer}/redeem");
        post_with_key(&app, &path, &token, "same-redemption", json!({ "pointsToRedeem": 400 })).await
    })
    .await;
    for (status, _, _) in answers {
        assert_eq!(status, StatusCode::OK);
    }
    assert_eq!(balance(&app, &shop, customer).await, 600);
    assert_eq!(number(&app, &shop, "select count(*) from transactions").await, 2);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn an_idempotency_key_reused_for_a_different_request_is_refused() {
    let (app, shop, customer) = acme_with_customer().await;
    let path = format!("/api/customers/{customer}/accredit");
    let (status, _, _) = post_with_key(&app, &path, &shop.admin, "key-1", json!({ "invoiceAmount": 50_000 })).await;
    assert_eq!(status, StatusCode::OK);

    let (status, body, _) = post_with_key(&app, &path, &shop.admin, "key-1", json!({ "invoiceAmount": 60_000 })).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["message"], "this Idempotency-Key was already used for a different request; use a new key");
    let redeem = format!("/api/customers/{customer}/redeem");
    let (status, _, _) = post_with_key(&app, &redeem, &shop.admin, "key-1", json!({ "pointsToRedeem": 1 })).await;
    assert_eq!(status, StatusCode::CONFLICT, "another operation under the same key");
    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    let (status, _, _) = post_with_key(&app, &path, &cajero, "key-1", json!({ "invoiceAmount": 50_000 })).await;
    assert_eq!(status, StatusCode::CONFLICT, "another user's key");

    let (status, body, _) =
        post_with_key(&app, &path, &shop.admin, "bad key with spaces", json!({ "invoiceAmount": 1 })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "Idempotency-Key must be 1 to 200 visible characters");
    assert_eq!(balance(&app, &shop, customer).await, 500);
}

#[tokio::test]
async fn a_request_that_failed_does_not_use_up_its_idempotency_key() {
    let (app, shop, customer) = acme_with_customer().await;
    let redeem = format!("/api/customers/{customer}/redeem");
    let body = json!({ "pointsToRedeem": 100 });
    let (status, answer, _) = post_with_key(&app, &redeem, &shop.admin, "retry-me", body.clone()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["message"], "not enough points");

    accredit_api(&app, &shop.admin, customer, 10_000).await;
    let (status, answer, replayed) = post_with_key(&app, &redeem, &shop.admin, "retry-me", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(!replayed);
    assert_eq!(balance(&app, &shop, customer).await, 0);
}
