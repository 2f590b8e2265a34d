//! Products: what the catalogue accepts.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::spawn_acme;

#[tokio::test]
async fn an_active_product_needs_a_points_value_of_at_least_one() {
    let (app, admin) = spawn_acme().await;
    for points in [json!(0), json!(""), json!(null)] {
        let body = json!({ "code": "PAN-1", "name": "Pan", "price": 1000, "pointsValue": points });
        let answer = app.post("/api/products", &admin, body).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{points}: {}", answer.body);
        assert_eq!(answer.code(), "product.pointsRequired", "{points}");
        assert_eq!(answer.body["params"]["field"], "pointsValue");
    }
    // An inactive one may wait for its value, but cannot come back without it.
    let pan = |points: i64, active: bool| json!({ "code": "PAN-1", "name": "Pan", "price": 1000, "pointsValue": points, "is_active": active });
    let draft = app.post("/api/products", &admin, pan(0, false)).await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.body);
    let id = draft.body["id"].as_i64().unwrap();
    assert_eq!(
        app.post(&format!("/api/products/{id}/reactivate"), &admin, json!({})).await.code(),
        "product.pointsRequired"
    );
    let activate = app.put(&format!("/api/products/{id}"), &admin, pan(0, true)).await;
    assert_eq!(activate.code(), "product.pointsRequired");
    let valued = app.put(&format!("/api/products/{id}"), &admin, pan(100, false)).await;
    assert_eq!(valued.status, StatusCode::OK, "{}", valued.body);
    assert_eq!(app.post(&format!("/api/products/{id}/reactivate"), &admin, json!({})).await.status, StatusCode::OK);
    // The database keeps the rule too (tenant migration 7).
    let refused =
        app.db().await.execute("update tenant_acme.products set points_value = 0 where id = $1", &[&id]).await;
    assert!(refused.is_err(), "an active 0-point product was stored");
    let redeemable = app.get("/api/products", &admin).await;
    assert!(redeemable.body.as_array().unwrap().iter().all(|p| p["pointsValue"].as_i64().unwrap() >= 1));
}

#[tokio::test]
async fn product_codes_are_unique_without_regard_to_case() {
    let (app, admin) = spawn_acme().await;
    let product = |code: &str| json!({ "code": code, "name": "Pan", "price": 1000, "pointsValue": 10 });
    assert_eq!(app.post("/api/products", &admin, product("PAN-001")).await.status, StatusCode::CREATED);
    let twin = app.post("/api/products", &admin, product("pan-001")).await;
    assert_eq!(twin.status, StatusCode::CONFLICT, "{}", twin.body);
    assert_eq!(twin.code(), "product.exists");
    let other = app.post("/api/products", &admin, product("PAN-002")).await.body["id"].as_i64().unwrap();
    let renamed = app.put(&format!("/api/products/{other}"), &admin, product("Pan-001")).await;
    assert_eq!(renamed.status, StatusCode::CONFLICT, "{}", renamed.body);
    assert_eq!(renamed.code(), "product.exists");
    assert_eq!(app.get("/api/products/all", &admin).await.body.as_array().unwrap().len(), 2);
}
