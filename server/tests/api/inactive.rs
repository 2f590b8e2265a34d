//! Inactive records: every list shows them on request, they can be reactivated, and adding one's
//! document, name or code again answers a 409 that names the inactive record.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{spawn_acme, spawn_app, texts, Staffed, TestApp};

async fn deactivate(app: &TestApp, table: &str, id: i64) {
    app.sql_with(&format!("update tenant_acme.{table} set is_active = false where id = $1"), &[&id]).await;
}

#[tokio::test]
async fn a_customer_deleted_with_history_is_listed_as_inactive_offered_back_and_reactivated() {
    let (app, admin) = spawn_acme().await;
    assert_eq!(
        app.post("/api/settings", &admin, json!({ "pointsPerPeso": 1, "redemptionRate": 1 })).await.status,
        StatusCode::OK
    );
    let created = app.post("/api/customers", &admin, json!({ "name": "Pedro Ramírez", "document": "52111222" })).await;
    let id = created.body["id"].as_i64().unwrap();
    assert_eq!(
        app.post(&format!("/api/customers/{id}/accredit"), &admin, json!({ "invoiceAmount": 500 })).await.status,
        StatusCode::OK
    );
    let deleted = app.delete(&format!("/api/customers/{id}"), &admin).await;
    assert_eq!(deleted.body["deleted"], "soft", "{}", deleted.body);

    assert_eq!(texts(&app.get("/api/customers/search", &admin).await.body, "name"), Vec::<String>::new());
    let inactive = app.get("/api/customers/search?status=inactive", &admin).await;
    assert_eq!(texts(&inactive.body, "name"), ["Pedro Ramírez"]);
    assert_eq!(inactive.body["items"][0]["is_active"], false);
    assert_eq!(app.get("/api/customers/search?status=gone", &admin).await.code(), "list.statusInvalid");

    // Adding the document again names the inactive customer, in the caller's language.
    let again = app.post("/api/customers", &admin, json!({ "name": "Pedro", "document": "52.111.222" })).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.code(), "customer.inactiveExists");
    assert_eq!(again.body["params"]["id"], id);
    // An active one is a plain duplicate.
    app.post("/api/customers", &admin, json!({ "name": "Ana", "document": "1020304050" })).await;
    assert_eq!(
        app.post("/api/customers", &admin, json!({ "name": "Ana", "document": "1020304050" })).await.code(),
        "customer.documentExists"
    );

    let back = app.post(&format!("/api/customers/{id}/reactivate"), &admin, json!({})).await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.body);
    assert_eq!(back.body["is_active"], true);
    assert_eq!(back.body["points"], 500, "the customer keeps their points");
    assert_eq!(app.get("/api/customers/by-document/52111222", &admin).await.status, StatusCode::OK);
    assert_eq!(
        app.post(&format!("/api/customers/{id}/reactivate"), &admin, json!({})).await.code(),
        "customer.notInactive"
    );
    let audit = app.count("select count(*) from tenant_acme.audit_log where action = 'customer.reactivate'").await;
    assert_eq!(audit, 1);
}

#[tokio::test]
async fn users_points_of_sale_categories_and_products_list_offer_and_reactivate_their_inactive_records() {
    let app = spawn_app().await;
    let Staffed { admin, pos, user, token: cajero, .. } = app.staffed_company("acme", "Norte", "laura", "cajero").await;
    let category = app.create("/api/categories", &admin, json!({ "name": "Bebidas", "icon": "Beaker" })).await;
    let product = app
        .create("/api/products", &admin, json!({ "code": "CAF-1", "name": "Café", "price": 1000, "pointsValue": 100 }))
        .await;
    deactivate(&app, "users", user).await;
    deactivate(&app, "points_of_sale", pos).await;
    deactivate(&app, "categories", category).await;
    deactivate(&app, "products", product).await;

    // (list, add again, reactivate, field, name, code of the offer)
    let cases = [
        (
            "/api/users",
            json!({ "username": "LAURA", "password": "user-pass-2", "role": "admin" }),
            user,
            "username",
            "laura",
            "user",
        ),
        ("/api/pos", json!({ "name": "norte" }), pos, "name", "Norte", "pos"),
        ("/api/categories", json!({ "name": "BEBIDAS", "icon": "Gift" }), category, "name", "Bebidas", "category"),
        (
            "/api/products",
            json!({ "code": "caf-1", "name": "Otro", "price": 1, "pointsValue": 1 }),
            product,
            "code",
            "CAF-1",
            "product",
        ),
    ];
    for (path, body, id, field, name, area) in cases {
        if path != "/api/products" {
            assert!(!texts(&app.get(path, &admin).await.body, field).contains(&name.to_string()), "{path}");
            assert_eq!(texts(&app.get(&format!("{path}?status=inactive"), &admin).await.body, field), [name], "{path}");
        }
        let again = app.post(path, &admin, body).await;
        assert_eq!(again.status, StatusCode::CONFLICT, "{path}: {}", again.body);
        assert_eq!(again.code(), format!("{area}.inactiveExists"), "{path}");
        assert_eq!(again.body["params"]["id"], id, "{path}");
        let back = app.post(&format!("{path}/{id}/reactivate"), &admin, json!({})).await;
        assert_eq!(back.status, StatusCode::OK, "{path}: {}", back.body);
        let audited = format!(
            "select count(*) from tenant_acme.audit_log \
             where action = '{area}.reactivate' and entity = '{area}' and entity_id = {id}"
        );
        assert_eq!(app.count(&audited).await, 1, "{path}");
        assert_eq!(
            app.post(&format!("{path}/{id}/reactivate"), &admin, json!({})).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    assert!(texts(&app.get("/api/pos", &admin).await.body, "name").contains(&"Norte".to_string()));
    assert_eq!(app.get("/api/products", &admin).await.body[0]["code"], "CAF-1");
    // The reactivated cashier logs in with their former password.
    app.login_ok("laura@acme", "user-pass-1").await;
    // Only those who manage a list see its inactive records.
    assert_eq!(app.get("/api/pos?status=inactive", &cajero).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.post(&format!("/api/pos/{pos}/reactivate"), &cajero, json!({})).await.status, StatusCode::FORBIDDEN);
}
