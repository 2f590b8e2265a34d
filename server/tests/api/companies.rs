use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_acme, spawn_app, texts};

fn valid_company(prefix: &str) -> Value {
    json!({
        "name": "Tienda Uno", "prefix": prefix, "taxId": "900123456-7", "logoUrl": "https://example.com/logo.png",
        "businessName": "Tienda Uno S.A.S.", "address": "Calle 1", "phone": "6015550000", "adminPassword": "secret-pass"
    })
}

#[tokio::test]
async fn creating_a_company_provisions_its_schema_and_admin() {
    let app = spawn_app().await;
    let answer = app.post("/api/super/companies", &app.super_token, valid_company("uno")).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    assert_eq!(answer.body["prefix"], "uno");
    assert_eq!(answer.body["taxId"], "900123456-7");
    assert_eq!(answer.body["businessName"], "Tienda Uno S.A.S.");
    assert_eq!(answer.body["schemaVersion"], loyalty::migrate::latest_tenant_version());
    assert!(app.schema_exists("tenant_uno").await);
    assert_eq!(app.login("admin@uno", "secret-pass").await.status, StatusCode::OK);
    assert_eq!(app.count("select count(*) from platform.audit_log where action = 'company.create'").await, 1);
}

#[tokio::test]
async fn companies_are_listed_by_name() {
    let app = spawn_app().await;
    for (name, prefix) in [("zeta", "zeta"), ("Alfa", "alfa"), ("beta", "beta")] {
        let mut body = valid_company(prefix);
        body["name"] = json!(name);
        assert_eq!(app.post("/api/super/companies", &app.super_token, body).await.status, StatusCode::CREATED);
    }
    let list = app.get("/api/super/companies", &app.super_token).await;
    assert_eq!(texts(&list.body, "name"), ["Alfa", "beta", "zeta"]);
}

#[tokio::test]
async fn a_duplicate_prefix_is_a_conflict() {
    let app = spawn_app().await;
    let (first, again) = (valid_company("uno"), valid_company("uno"));
    app.assert_duplicate("/api/super/companies", &app.super_token, first, again, "company prefix already exists").await;
    assert_eq!(app.count("select count(*) from platform.companies").await, 1);
}

#[tokio::test]
async fn bad_company_input_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let with = |field: &str, value: Value| {
        let mut body = valid_company("okprefix");
        body[field] = value;
        body
    };
    let without = |field: &str| {
        let mut body = valid_company("okprefix");
        body.as_object_mut().unwrap().remove(field);
        body
    };
    let cases = vec![
        without("name"),
        without("prefix"),
        without("taxId"),
        without("adminPassword"),
        with("name", json!("   ")),
        with("name", json!(42)),
        with("prefix", json!(["a"])),
        with("name", json!("x".repeat(201))),
        with("taxId", json!("9".repeat(41))),
        with("address", json!("a".repeat(5000))),
        with("adminPassword", json!("short")),
        with("logoUrl", json!("javascript:alert(1)")),
        with("prefix", json!("Abc")),
        with("prefix", json!("a")),
        with("prefix", json!("a-b")),
        with("prefix", json!("pg_catalog")),
        with("prefix", json!("public")),
        with("prefix", json!("platform")),
        with("prefix", json!("abc\"; drop schema platform cascade; --")),
        with("prefix", json!("x".repeat(31))),
        with("name", json!("Robert'); drop table platform.companies; --\u{0000}")),
    ];
    for body in cases {
        let answer = app.post("/api/super/companies", &app.super_token, body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
        assert!(!answer.message().is_empty(), "{body}");
    }
    let not_json = app
        .http
        .post(format!("{}/api/super/companies", app.address))
        .bearer_auth(&app.super_token)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), StatusCode::BAD_REQUEST);
    let huge = app
        .http
        .post(format!("{}/api/super/companies", app.address))
        .bearer_auth(&app.super_token)
        .header("content-type", "application/json")
        .body(format!("{{\"name\": \"{}\"}}", "x".repeat(200_000)))
        .send()
        .await
        .unwrap();
    assert!(huge.status() == StatusCode::PAYLOAD_TOO_LARGE || huge.status() == StatusCode::BAD_REQUEST);

    assert_eq!(app.count("select count(*) from platform.companies").await, 0);
    assert_eq!(app.count("select count(*) from pg_namespace where nspname like 'tenant_%'").await, 0);
}

#[tokio::test]
async fn sql_in_text_fields_is_stored_as_text() {
    let app = spawn_app().await;
    let mut body = valid_company("quoted");
    body["name"] = json!("O'Brien\"; drop table platform.companies; --");
    let answer = app.post("/api/super/companies", &app.super_token, body).await;
    assert_eq!(answer.status, StatusCode::CREATED);
    assert_eq!(answer.body["name"], "O'Brien\"; drop table platform.companies; --");
    assert_eq!(app.count("select count(*) from platform.companies").await, 1);
}

#[tokio::test]
async fn a_failure_part_way_through_provisioning_leaves_no_schema_and_no_row() {
    let app = spawn_app().await;
    // Make the tenant migrations fail for one prefix, after its schema was created.
    app.sql(
        "create function public.fail_boom() returns event_trigger language plpgsql as $$
             begin
               if current_schema() = 'tenant_boom' then raise exception 'injected provisioning failure'; end if;
             end $$;
             create event trigger fail_boom on ddl_command_end when tag in ('CREATE TABLE')
               execute function public.fail_boom();",
    )
    .await;
    let answer = app.post("/api/super/companies", &app.super_token, valid_company("boom")).await;
    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(!answer.message().contains("injected"), "internals must not leak: {}", answer.message());
    assert!(!app.schema_exists("tenant_boom").await);
    assert_eq!(app.count("select count(*) from platform.companies").await, 0);

    // Other companies are unaffected, and once the fault is gone the same prefix works.
    assert_eq!(
        app.post("/api/super/companies", &app.super_token, valid_company("fine")).await.status,
        StatusCode::CREATED
    );
    app.sql("drop event trigger fail_boom").await;
    assert_eq!(
        app.post("/api/super/companies", &app.super_token, valid_company("boom")).await.status,
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn leftovers_of_a_crash_during_provisioning_are_cleaned_up_at_start() {
    let app = spawn_app().await;
    let db = app.app_db().await;
    db.batch_execute(
        "insert into platform.companies (name, tax_id, prefix, state, schema_name)
           values ('Half', '1', 'half', 'provisioning', 'tenant_7');
         create schema tenant_7; create table tenant_7.users (id int);",
    )
    .await
    .unwrap();
    let removed = loyalty::platform::clean_up_leftovers(&app.db_url).await.unwrap();
    assert_eq!(removed, 1);
    assert!(!app.schema_exists("tenant_7").await, "the schema its row names (a spare's, say) was left");
    assert_eq!(app.count("select count(*) from platform.companies").await, 0);
}

#[tokio::test]
async fn updating_a_company_changes_its_details_but_never_its_prefix() {
    let app = spawn_app().await;
    let (id, _) = app.create_company("acme").await;
    let answer = app
        .put(
            &format!("/api/super/companies/{id}"),
            &app.super_token,
            json!({ "name": "Acme Colombia", "taxId": "800", "phone": "123", "prefix": "other" }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["name"], "Acme Colombia");
    assert_eq!(answer.body["prefix"], "acme");
    assert_eq!(app.login("admin@acme", "admin-pass-1").await.body["user"]["company"]["name"], "Acme Colombia");

    let missing = app.put(&format!("/api/super/companies/{id}"), &app.super_token, json!({ "name": "x" })).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    let unknown = app.put("/api/super/companies/9999", &app.super_token, json!({ "name": "x", "taxId": "1" })).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let bad_id = app.put("/api/super/companies/abc", &app.super_token, json!({ "name": "x", "taxId": "1" })).await;
    assert_eq!(bad_id.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn deleting_a_company_drops_its_schema_and_row_together() {
    let app = spawn_app().await;
    let (id, _) = app.create_company("acme").await;
    app.create_company("keep").await;
    let answer = app.delete(&format!("/api/super/companies/{id}"), &app.super_token).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(!answer.message().is_empty());
    assert!(!app.schema_exists("tenant_acme").await);
    assert!(app.schema_exists("tenant_keep").await);
    assert_eq!(app.count("select count(*) from platform.companies").await, 1);
    assert_eq!(app.delete(&format!("/api/super/companies/{id}"), &app.super_token).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.login("admin@acme", "admin-pass-1").await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn company_routes_need_a_super_admin() {
    let (app, admin_token) = spawn_acme().await;
    let anonymous = app.request(reqwest::Method::GET, "/api/super/companies", None, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let as_admin = app.post("/api/super/companies", &admin_token, valid_company("sneaky")).await;
    assert_eq!(as_admin.status, StatusCode::FORBIDDEN);
    assert_eq!(app.count("select count(*) from platform.companies").await, 1);
}
