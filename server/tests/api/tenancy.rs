use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{spawn_app, spawn_app_with_pool};

fn names(body: &serde_json::Value) -> Vec<String> {
    body.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn one_companys_data_is_invisible_to_another() {
    let app = spawn_app().await;
    let (_, acme) = app.create_company("acme").await;
    let (_, globex) = app.create_company("globex").await;
    let created = app.post("/api/pos", &acme, json!({ "name": "Acme Centro" })).await;
    assert_eq!(created.status, StatusCode::CREATED);
    let acme_pos = created.body["id"].as_i64().unwrap();

    assert_eq!(names(&app.get("/api/pos", &acme).await.body), ["Acme Centro"]);
    assert!(names(&app.get("/api/pos", &globex).await.body).is_empty());

    // Globex's token with Acme's ids: not found, and nothing changes.
    let update = app.put(&format!("/api/pos/{acme_pos}"), &globex, json!({ "name": "Hijacked" })).await;
    assert_eq!(update.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/api/pos/{acme_pos}/usage"), &globex).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.delete(&format!("/api/pos/{acme_pos}"), &globex).await.status, StatusCode::NOT_FOUND);
    assert_eq!(names(&app.get("/api/pos", &acme).await.body), ["Acme Centro"]);
}

#[tokio::test]
async fn a_pooled_connection_never_carries_one_tenants_path_into_the_next_request() {
    // One connection serves every request, alternating between tenants.
    let app = spawn_app_with_pool(1).await;
    let (_, acme) = app.create_company("acme").await;
    let (_, globex) = app.create_company("globex").await;
    assert_eq!(app.post("/api/pos", &acme, json!({ "name": "Only Acme" })).await.status, StatusCode::CREATED);
    assert_eq!(app.post("/api/pos", &globex, json!({ "name": "Only Globex" })).await.status, StatusCode::CREATED);
    for _ in 0..20 {
        assert_eq!(names(&app.get("/api/pos", &acme).await.body), ["Only Acme"]);
        assert_eq!(names(&app.get("/api/pos", &globex).await.body), ["Only Globex"]);
        // A failed request in between must not leave its transaction or path behind either.
        assert_eq!(app.post("/api/pos", &acme, json!({ "name": "Only Acme" })).await.status, StatusCode::CONFLICT);
    }
    // And a platform query on the same connection sees no tenant at all.
    let conn = app.state.pool.get().await.unwrap();
    let path: String = conn.query_one("show search_path", &[]).await.unwrap().get(0);
    assert_eq!(path, loyalty::db::NO_TENANT_SCHEMA);
    let unscoped = conn.query("select * from points_of_sale", &[]).await;
    assert!(unscoped.is_err(), "an unscoped query must fail loudly");
}

#[tokio::test]
async fn points_of_sale_are_validated_unique_and_admin_only() {
    let app = spawn_app().await;
    let (_, acme) = app.create_company("acme").await;
    let missing = app.post("/api/pos", &acme, json!({ "name": "  " })).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    assert_eq!(missing.message(), "point of sale name is required");
    assert_eq!(app.post("/api/pos", &acme, json!({ "name": "Norte" })).await.status, StatusCode::CREATED);
    let duplicate = app.post("/api/pos", &acme, json!({ "name": "norte" })).await;
    assert_eq!(duplicate.status, StatusCode::CONFLICT);
    assert_eq!(duplicate.message(), "point of sale already exists");
    assert_eq!(names(&app.get("/api/pos", &acme).await.body), ["Norte"]);
}

#[tokio::test]
async fn the_openapi_document_lists_every_operation() {
    let app = spawn_app().await;
    let answer = app.request(reqwest::Method::GET, "/api/openapi.json", None, None).await;
    assert_eq!(answer.status, StatusCode::OK);
    let paths = answer.body["paths"].as_object().expect("paths");
    for (path, method) in [
        ("/api/login", "post"),
        ("/api/super/companies", "get"),
        ("/api/super/companies", "post"),
        ("/api/super/companies/{id}", "put"),
        ("/api/super/companies/{id}", "delete"),
        ("/api/super/impersonate", "post"),
        ("/api/pos", "get"),
        ("/api/pos/{id}", "delete"),
        ("/api/settings", "get"),
    ] {
        assert!(paths.get(path).and_then(|p| p.get(method)).is_some(), "{method} {path} missing");
    }
    assert!(answer.body["components"]["securitySchemes"]["bearer"].is_object());
}

#[tokio::test]
async fn unknown_api_paths_answer_json_404s() {
    let app = spawn_app().await;
    let answer = app.request(reqwest::Method::GET, "/api/nope", None, None).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.message(), "no such API endpoint");
}
