//! API keys of points of sale and the POS API (docs/integration.md): a point of sale's system
//! accredits, redeems and looks up balances with a key, by the rules of the till.

use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::helpers::{documented_operation, Answer, TestApp};
use crate::points::support::*;

/// A key of a new point of sale `Caja Norte`, named `name`; answers the key and its id.
async fn make_key(app: &TestApp, shop: &Shop, name: &str) -> (String, i64) {
    let pos = app.create_pos(&shop.admin, &format!("Caja Norte {name}")).await;
    let answer = app.post("/api/api-keys", &shop.admin, json!({ "name": name, "posId": pos })).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    (answer.body["key"].as_str().unwrap().to_string(), answer.body["id"].as_i64().unwrap())
}

/// A call of the POS API with the key and, when given, an idempotency key.
async fn call(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    key: &str,
    idempotency: Option<&str>,
    body: Option<Value>,
) -> (Answer, bool) {
    let mut req = app.http.request(method, format!("{}/api/pos-api/v1{path}", app.address)).bearer_auth(key);
    if let Some(idempotency) = idempotency {
        req = req.header("Idempotency-Key", idempotency);
    }
    if let Some(body) = body {
        req = req.json(&body);
    }
    let res = req.send().await.expect("request");
    let status = res.status();
    let replayed = res.headers().get("idempotent-replayed").is_some();
    let text = res.text().await.unwrap_or_default();
    (Answer { status, body: serde_json::from_str(&text).unwrap_or(Value::Null) }, replayed)
}

async fn accredit(app: &TestApp, key: &str, idempotency: &str, body: Value) -> Answer {
    call(app, reqwest::Method::POST, "/accredit", key, Some(idempotency), Some(body)).await.0
}

async fn redeem(app: &TestApp, key: &str, idempotency: &str, body: Value) -> Answer {
    call(app, reqwest::Method::POST, "/redeem", key, Some(idempotency), Some(body)).await.0
}

async fn lookup(app: &TestApp, key: &str, document: &str) -> Answer {
    call(app, reqwest::Method::GET, &format!("/customers/{document}"), key, None, None).await.0
}

fn sale(document: &str, amount: i64, invoice: &str) -> Value {
    json!({ "document": document, "invoiceAmount": amount, "invoiceReference": invoice })
}

#[tokio::test]
async fn an_admin_makes_a_key_seen_once_and_kept_only_as_its_hash_lists_it_and_revokes_it() {
    let (app, shop) = acme().await;
    let (key, id) = make_key(&app, &shop, "POS Norte").await;
    assert!(key.starts_with("lk_acme_"), "{key}");

    let list = app.get("/api/api-keys", &shop.admin).await;
    assert_eq!(list.status, StatusCode::OK);
    let listed = &list.body[0];
    assert_eq!(listed["id"], id);
    assert_eq!(listed["name"], "POS Norte");
    assert_eq!(listed["posName"], "Caja Norte POS Norte");
    assert!(listed["createdAt"].is_string());
    assert_eq!(listed["lastUsedAt"], Value::Null);
    assert_eq!(listed["hint"], &key[key.len() - 4..]);
    assert!(!list.body.to_string().contains(&key), "the list never shows a key");

    let stored: Vec<String> = {
        let db = app.db().await;
        db.batch_execute(&format!("set search_path to {}", shop.schema())).await.unwrap();
        db.query("select key_hash from api_keys", &[]).await.unwrap().iter().map(|r| r.get(0)).collect()
    };
    let sha: String = Sha256::digest(key.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(stored, vec![sha]);
    let dump =
        number(&app, &shop, &format!("select count(*) from api_keys where row(api_keys.*)::text like '%{key}%'")).await;
    assert_eq!(dump, 0, "the key itself is stored nowhere");

    assert_eq!(lookup(&app, &key, "100").await.status, StatusCode::NOT_FOUND);
    let used = app.get("/api/api-keys", &shop.admin).await;
    assert!(used.body[0]["lastUsedAt"].is_string(), "{}", used.body);

    assert_eq!(app.delete(&format!("/api/api-keys/{id}"), &shop.admin).await.status, StatusCode::NO_CONTENT);
    assert_eq!(app.get("/api/api-keys", &shop.admin).await.body, json!([]));
    let again = app.delete(&format!("/api/api-keys/{id}"), &shop.admin).await;
    assert_eq!((again.status, again.code()), (StatusCode::NOT_FOUND, "apiKey.notFound"));
    let audited =
        number(&app, &shop, "select count(*) from audit_log where action in ('apiKey.create', 'apiKey.revoke')");
    assert_eq!(audited.await, 2);
}

#[tokio::test]
async fn only_admins_manage_keys_and_bad_input_is_refused_in_the_callers_language() {
    let (app, shop) = acme().await;
    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    let supervisor = add_staff(&app, &shop, "super1", "supervisor").await;
    let pos = app.create_pos(&shop.admin, "Caja Sur").await;
    for token in [&cajero, &supervisor] {
        assert_eq!(app.get("/api/api-keys", token).await.status, StatusCode::FORBIDDEN);
        let made = app.post("/api/api-keys", token, json!({ "name": "x", "posId": pos })).await;
        assert_eq!(made.status, StatusCode::FORBIDDEN);
    }
    let refused = [
        (json!({ "posId": pos }), "apiKey.nameRequired"),
        (json!({ "name": "  ", "posId": pos }), "apiKey.nameRequired"),
        (json!({ "name": "Caja" }), "apiKey.posRequired"),
        (json!({ "name": "Caja", "posId": "x" }), "field.positiveId"),
    ];
    for (body, code) in refused {
        let answer = app.post("/api/api-keys", &shop.admin, body.clone()).await;
        assert_eq!((answer.status, answer.code()), (StatusCode::BAD_REQUEST, code), "{body}");
    }
    let unknown = app.post("/api/api-keys", &shop.admin, json!({ "name": "Caja", "posId": 999 })).await;
    assert_eq!((unknown.status, unknown.code()), (StatusCode::NOT_FOUND, "pos.notFound"));
    let english = app
        .http
        .post(format!("{}/api/api-keys", app.address))
        .bearer_auth(&shop.admin)
        .header("Accept-Language", "en")
        .json(&json!({ "posId": pos }))
        .send()
        .await
        .unwrap();
    assert_eq!(english.json::<Value>().await.unwrap()["message"], "the key's name is required");
    let first = app.post("/api/api-keys", &shop.admin, json!({ "name": "Caja", "posId": pos })).await;
    assert_eq!(first.status, StatusCode::CREATED);
    let twin = app.post("/api/api-keys", &shop.admin, json!({ "name": "CAJA", "posId": pos })).await;
    assert_eq!((twin.status, twin.code()), (StatusCode::CONFLICT, "apiKey.exists"));
    assert_eq!(number(&app, &shop, "select count(*) from api_keys").await, 1);
}

#[tokio::test]
async fn a_key_accredits_as_its_own_cashier_at_its_point_of_sale_and_the_report_shows_it() {
    let (app, shop, customer) = acme_with_customer().await;
    let (key, id) = make_key(&app, &shop, "POS Norte").await;
    let answer = accredit(&app, &key, "sale-1", sale("100", 25_000, "FV-1")).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["points"], 250);
    assert_eq!(answer.body["balance"], 250);
    assert_eq!(answer.body["type"], "accreditation");
    assert_eq!(answer.body["customerName"], "Cliente 100");
    assert_eq!(answer.body["invoiceReference"], "FV-1");
    assert!(answer.body.get("updatedCustomer").is_none(), "a POS gets no more than it needs");
    assert_eq!(balance(&app, &shop, customer).await, 250);

    let db = app.db().await;
    db.batch_execute(&format!("set search_path to {}", shop.schema())).await.unwrap();
    let row = db
        .query_one(
            "select t.cashier_username, t.cashier_id, t.api_key_id, p.name from transactions t \
             join points_of_sale p on p.id = t.pos_id",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, String>(0), "POS Norte");
    assert_eq!(row.get::<_, Option<i64>>(1), None);
    assert_eq!(row.get::<_, Option<i64>>(2), Some(id));
    assert_eq!(row.get::<_, String>(3), "Caja Norte POS Norte");

    let report = app.get("/api/transactions", &shop.admin).await;
    let item = &report.body[0];
    assert_eq!(item["cashierUsername"], "POS Norte", "{}", report.body);
    assert_eq!(item["posName"], "Caja Norte POS Norte");
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_retry_with_the_same_idempotency_key_gets_the_first_answer_and_posts_once() {
    let (app, shop, customer) = acme_with_customer().await;
    let (key, _) = make_key(&app, &shop, "POS").await;
    let body = sale("100", 10_000, "FV-9");
    let (first, replayed_first) =
        call(&app, reqwest::Method::POST, "/accredit", &key, Some("k-1"), Some(body.clone())).await;
    let (second, replayed_second) = call(&app, reqwest::Method::POST, "/accredit", &key, Some("k-1"), Some(body)).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert_eq!(second.status, StatusCode::OK);
    assert_eq!(first.body, second.body);
    assert!(!replayed_first && replayed_second);
    assert_eq!(balance(&app, &shop, customer).await, 100);
    assert_eq!(number(&app, &shop, "select count(*) from transactions").await, 1);

    let other = accredit(&app, &key, "k-1", sale("100", 20_000, "FV-10")).await;
    assert_eq!((other.status, other.code()), (StatusCode::CONFLICT, "idempotency.keyReused"));

    let (missing, _) =
        call(&app, reqwest::Method::POST, "/accredit", &key, None, Some(sale("100", 10_000, "FV-11"))).await;
    assert_eq!((missing.status, missing.code()), (StatusCode::BAD_REQUEST, "idempotency.keyRequired"));
    let (missing, _) =
        call(&app, reqwest::Method::POST, "/redeem", &key, None, Some(json!({ "document": "100", "points": 1 }))).await;
    assert_eq!((missing.status, missing.code()), (StatusCode::BAD_REQUEST, "idempotency.keyRequired"));
    assert_eq!(number(&app, &shop, "select count(*) from transactions").await, 1);
}

#[tokio::test]
async fn duplicate_invoices_inactive_customers_and_velocity_limits_are_refused_as_at_the_till() {
    let (app, shop, _) = acme_with_customer().await;
    add_customer(&app, &shop, "300", None).await;
    let (key, _) = make_key(&app, &shop, "POS").await;
    assert_eq!(accredit(&app, &key, "a", sale("100", 10_000, "FV-1")).await.status, StatusCode::OK);

    let twice = accredit(&app, &key, "b", sale("300", 10_000, "fv-1")).await;
    assert_eq!((twice.status, twice.code()), (StatusCode::CONFLICT, "points.invoiceAlreadyCredited"));

    sql(&app, &shop, "update customers set is_active = false where document = '300'").await;
    let inactive = accredit(&app, &key, "c", sale("300", 10_000, "FV-2")).await;
    assert_eq!((inactive.status, inactive.code()), (StatusCode::NOT_FOUND, "customer.notFound"));
    assert_eq!(lookup(&app, &key, "300").await.status, StatusCode::NOT_FOUND);

    let rules = json!({ "maxAccreditationsPerCustomerPerDay": 1, "maxPointsPerCustomerPerDay": 0 });
    assert_eq!(app.post("/api/settings", &shop.admin, rules).await.status, StatusCode::OK);
    let beyond = accredit(&app, &key, "d", sale("100", 10_000, "FV-3")).await;
    assert_eq!((beyond.status, beyond.code()), (StatusCode::CONFLICT, "points.velocityAccreditations"));

    let bad =
        accredit(&app, &key, "e", json!({ "document": "100", "invoiceAmount": 0, "invoiceReference": "FV-4" })).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.body);
    let no_reference = accredit(&app, &key, "f", json!({ "document": "100", "invoiceAmount": 100 })).await;
    assert_eq!((no_reference.status, no_reference.code()), (StatusCode::BAD_REQUEST, "field.required"));
    assert_eq!(number(&app, &shop, "select count(*) from transactions").await, 1);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_key_redeems_points_or_a_product_by_code_and_looks_up_name_and_balance_only() {
    let (app, shop, customer) = acme_with_customer().await;
    add_product(&app, &shop, "CAFE-1", 50, 5_000, true).await;
    add_product(&app, &shop, "OLD", 10, 1_000, false).await;
    let (key, _) = make_key(&app, &shop, "POS").await;
    accredit(&app, &key, "a", sale("100", 20_000, "FV-1")).await;

    let found = lookup(&app, &key, "100").await;
    assert_eq!(found.status, StatusCode::OK);
    assert_eq!(found.body, json!({ "name": "Cliente 100", "points": 200 }));

    let points = redeem(&app, &key, "r1", json!({ "document": "100", "points": 30, "invoiceReference": "FV-2" })).await;
    assert_eq!(points.status, StatusCode::OK, "{}", points.body);
    assert_eq!((points.body["points"].as_i64(), points.body["balance"].as_i64()), (Some(-30), Some(170)));
    let product = redeem(&app, &key, "r2", json!({ "document": "100", "productCode": "cafe-1" })).await;
    assert_eq!(product.status, StatusCode::OK, "{}", product.body);
    assert_eq!(product.body["balance"], 120);
    assert_eq!(balance(&app, &shop, customer).await, 120);

    let cases = [
        (json!({ "document": "100", "points": 1000 }), StatusCode::BAD_REQUEST, "points.notEnough"),
        (json!({ "document": "100", "productCode": "OLD" }), StatusCode::BAD_REQUEST, "product.inactive"),
        (json!({ "document": "100", "productCode": "NONE" }), StatusCode::NOT_FOUND, "product.notFound"),
        (json!({ "document": "100" }), StatusCode::BAD_REQUEST, "posApi.rewardRequired"),
        (
            json!({ "document": "100", "points": 5, "productCode": "CAFE-1" }),
            StatusCode::BAD_REQUEST,
            "posApi.rewardRequired",
        ),
        (json!({ "document": "999", "points": 5 }), StatusCode::NOT_FOUND, "customer.notFound"),
    ];
    for (i, (body, status, code)) in cases.into_iter().enumerate() {
        let answer = redeem(&app, &key, &format!("bad-{i}"), body.clone()).await;
        assert_eq!((answer.status, answer.code()), (status, code), "{body}: {}", answer.body);
    }
    assert_eq!(balance(&app, &shop, customer).await, 120);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn a_key_finds_no_customer_of_another_company() {
    let (app, shop, _) = acme_with_customer().await;
    let other = crate::points::support::shop(&app, "beta").await;
    add_customer(&app, &other, "555", None).await;
    let (key, _) = make_key(&app, &shop, "POS").await;
    assert_eq!(lookup(&app, &key, "555").await.status, StatusCode::NOT_FOUND);
    let answer = accredit(&app, &key, "x", sale("555", 10_000, "FV-1")).await;
    assert_eq!((answer.status, answer.code()), (StatusCode::NOT_FOUND, "customer.notFound"));
    assert_eq!(number(&app, &other, "select count(*) from transactions").await, 0);
    // A key that names another company's prefix is not that company's key.
    let forged = key.replacen("lk_acme_", "lk_beta_", 1);
    assert_eq!(lookup(&app, &forged, "555").await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_key_can_do_nothing_else_and_a_session_token_cannot_use_the_pos_api() {
    let (app, shop, _) = acme_with_customer().await;
    let (key, _) = make_key(&app, &shop, "POS").await;
    for path in ["/api/customers", "/api/api-keys", "/api/transactions", "/api/customers/by-document/100"] {
        assert_eq!(app.get(path, &key).await.status, StatusCode::UNAUTHORIZED, "{path}");
    }
    let screen = app.post("/api/customers/1/accredit", &key, json!({ "invoiceAmount": 1000 })).await;
    assert_eq!(screen.status, StatusCode::UNAUTHORIZED);
    let made = app.post("/api/api-keys", &key, json!({ "name": "more", "posId": 1 })).await;
    assert_eq!(made.status, StatusCode::UNAUTHORIZED);

    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    for token in [&shop.admin, &cajero] {
        let answer = lookup(&app, token, "100").await;
        assert_eq!((answer.status, answer.code()), (StatusCode::UNAUTHORIZED, "apiKey.invalid"));
        let answer = accredit(&app, token, "t", sale("100", 1_000, "FV-1")).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    let (none, _) = call(&app, reqwest::Method::GET, "/customers/100", "", None, None).await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    assert_eq!(number(&app, &shop, "select count(*) from transactions").await, 0);
}

#[tokio::test]
async fn a_revoked_key_and_a_key_of_an_inactive_point_of_sale_are_refused_at_once() {
    let (app, shop, _) = acme_with_customer().await;
    let (key, id) = make_key(&app, &shop, "POS").await;
    assert_eq!(lookup(&app, &key, "100").await.status, StatusCode::OK);
    assert_eq!(app.delete(&format!("/api/api-keys/{id}"), &shop.admin).await.status, StatusCode::NO_CONTENT);
    let answer = lookup(&app, &key, "100").await;
    assert_eq!((answer.status, answer.code()), (StatusCode::UNAUTHORIZED, "apiKey.invalid"));
    assert_eq!(accredit(&app, &key, "x", sale("100", 1_000, "FV-1")).await.status, StatusCode::UNAUTHORIZED);

    let (key, _) = make_key(&app, &shop, "Other").await;
    sql(&app, &shop, "update points_of_sale set is_active = false where name = 'Caja Norte Other'").await;
    let answer = lookup(&app, &key, "100").await;
    assert_eq!((answer.status, answer.code()), (StatusCode::FORBIDDEN, "apiKey.posInactive"));
    let made = app.post("/api/api-keys", &shop.admin, json!({ "name": "again", "posId": number(&app, &shop, "select id from points_of_sale where name = 'Caja Norte Other'").await })).await;
    assert_eq!((made.status, made.code()), (StatusCode::NOT_FOUND, "pos.notFound"));
}

#[tokio::test]
async fn a_key_beyond_its_requests_a_minute_is_refused_with_429_and_others_are_not() {
    let (app, shop, _) = acme_with_customer().await;
    let (key, id) = make_key(&app, &shop, "POS").await;
    let (other, _) = make_key(&app, &shop, "Other").await;
    sql(&app, &shop, &format!("update api_keys set rate_limit_per_minute = 3 where id = {id}")).await;
    for _ in 0..3 {
        assert_eq!(lookup(&app, &key, "100").await.status, StatusCode::OK);
    }
    let answer = lookup(&app, &key, "100").await;
    assert_eq!((answer.status, answer.code()), (StatusCode::TOO_MANY_REQUESTS, "apiKey.rateLimited"));
    assert_eq!(accredit(&app, &key, "x", sale("100", 1_000, "FV-1")).await.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(lookup(&app, &other, "100").await.status, StatusCode::OK);
    // A new minute starts the count over.
    sql(&app, &shop, &format!("update api_keys set window_started_at = now() - interval '61 seconds' where id = {id}"))
        .await;
    assert_eq!(lookup(&app, &key, "100").await.status, StatusCode::OK);
}

#[tokio::test]
async fn the_openapi_document_describes_the_pos_api_with_examples() {
    let (app, _) = acme().await;
    let doc = app.openapi().await;
    for (path, method) in [
        ("/api/pos-api/v1/accredit", "post"),
        ("/api/pos-api/v1/redeem", "post"),
        ("/api/pos-api/v1/customers/{document}", "get"),
    ] {
        let operation = documented_operation(&doc, path, method);
        assert_eq!(operation["security"][0]["apiKey"], json!([]), "{path}");
    }
    let accredit = documented_operation(&doc, "/api/pos-api/v1/accredit", "post");
    let header = accredit["parameters"].as_array().unwrap().iter().find(|p| p["name"] == "Idempotency-Key").unwrap();
    assert_eq!(header["required"], true);
    let schemas = &doc["components"]["schemas"];
    for schema in ["PosAccreditRequest", "PosRedeemRequest", "PosPosting", "PosCustomer"] {
        assert!(schemas[schema]["example"].is_object(), "{schema} has an example");
    }
    assert!(doc["components"]["securitySchemes"]["apiKey"].is_object());
    for (path, method) in [("/api/api-keys", "get"), ("/api/api-keys", "post"), ("/api/api-keys/{id}", "delete")] {
        documented_operation(&doc, path, method);
    }
}
