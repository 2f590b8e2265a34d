//! The privacy notice in versions, public without login, and the customers' authorizations
//! (docs/privacy.md).

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_acme, TestApp};

fn keys(notice: &Value) -> Vec<(String, bool)> {
    notice["purposes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["key"].as_str().unwrap().to_string(), p["required"].as_bool().unwrap()))
        .collect()
}

fn new_version(body: &str) -> Value {
    json!({ "body": body, "purposes": [
        { "key": "loyalty", "description": "Acumular y redimir puntos." },
        { "key": "marketing", "description": "Ofertas por correo." },
        { "key": "surveys", "description": "Encuestas de satisfacción." },
    ] })
}

fn consent(version: i64, purposes: &[&str]) -> Value {
    json!({ "noticeVersion": version, "purposes": purposes, "channel": "store" })
}

/// Enrols a customer with this consent; answers its id.
async fn enrol(app: &TestApp, token: &str, document: &str, consent: Value) -> i64 {
    app.create("/api/customers", token, json!({ "name": "Ana Ruiz", "document": document, "consent": consent })).await
}

#[tokio::test]
async fn a_new_company_starts_with_version_1_from_the_template_with_its_name() {
    let (app, admin) = spawn_acme().await;
    let list = app.get("/api/privacy-notices", &admin).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.body);
    let versions = list.body.as_array().unwrap();
    assert_eq!(versions.len(), 1);
    let first = &versions[0];
    assert_eq!(first["version"], 1);
    assert_eq!(first["publishedBy"], "system");
    assert!(first["body"].as_str().unwrap().contains("Company acme, responsable del tratamiento"), "{first}");
    assert_eq!(keys(first), [("loyalty".into(), true), ("marketing".into(), false)]);
    assert_eq!(app.get("/api/privacy-notices/current", &admin).await.body, *first);
}

#[tokio::test]
async fn admins_publish_new_versions_and_none_is_ever_edited() {
    let (app, admin) = spawn_acme().await;
    let first = app.get("/api/privacy-notices/current", &admin).await.body;
    let published = app.post("/api/privacy-notices", &admin, new_version("Aviso de Company acme, versión 2.")).await;
    assert_eq!(published.status, StatusCode::CREATED, "{}", published.body);
    assert_eq!(published.body["version"], 2);
    assert_eq!(published.body["publishedBy"], "admin");
    assert_eq!(keys(&published.body)[2], ("surveys".into(), false));
    let third = app.post("/api/privacy-notices", &admin, new_version("Versión 3.")).await;
    assert_eq!(third.body["version"], 3);

    let list = app.get("/api/privacy-notices", &admin).await.body;
    let versions: Vec<i64> = list.as_array().unwrap().iter().map(|n| n["version"].as_i64().unwrap()).collect();
    assert_eq!(versions, [3, 2, 1]);
    assert_eq!(list[2], first, "version 1 is as it was");
    assert_eq!(app.get("/api/privacy-notices/current", &admin).await.body["version"], 3);

    // There is no way to change or remove a version.
    for method in [reqwest::Method::PUT, reqwest::Method::DELETE, reqwest::Method::PATCH] {
        let answer = app.request(method.clone(), "/api/privacy-notices", Some(&admin), Some(new_version("x"))).await;
        assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
        let answer = app.request(method.clone(), "/api/privacy-notices/1", Some(&admin), Some(new_version("x"))).await;
        assert!(answer.status == StatusCode::NOT_FOUND || answer.status == StatusCode::METHOD_NOT_ALLOWED, "{method}");
    }
    assert_eq!(app.count("select count(*) from tenant_acme.privacy_notices").await, 3);
    let audit = app.get("/api/audit?action=privacy.publish", &admin).await;
    assert_eq!(audit.body["items"].as_array().map(Vec::len), Some(2), "{}", audit.body);
}

#[tokio::test]
async fn only_admins_publish_and_every_user_reads_the_notice() {
    let app = crate::helpers::spawn_app().await;
    let shop = app.staffed_company("acme", "Centro", "caja", "cajero").await;
    let refused = app.post("/api/privacy-notices", &shop.token, new_version("Otro aviso.")).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert_eq!(app.get("/api/privacy-notices/current", &shop.token).await.body["version"], 1);
    assert_eq!(app.get("/api/privacy-notices", &shop.token).await.status, StatusCode::OK);
    let anonymous = app.request(reqwest::Method::GET, "/api/privacy-notices", None, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.count("select count(*) from tenant_acme.privacy_notices").await, 1);
}

#[tokio::test]
async fn a_notice_needs_its_text_and_the_loyalty_purpose() {
    let (app, admin) = spawn_acme().await;
    let loyalty = json!({ "key": "loyalty", "description": "Puntos." });
    app.assert_bad_requests(
        "/api/privacy-notices",
        &admin,
        [
            (json!({ "body": "  ", "purposes": [loyalty] }), "the notice text is required (at most 20,000 characters)"),
            (json!({ "body": "x".repeat(20_001), "purposes": [loyalty] }), "the notice text is required (at most 20,000 characters)"),
            (
                json!({ "body": "Aviso", "purposes": [{ "key": "marketing", "description": "Ofertas." }] }),
                "the notice must include the purpose 'loyalty' (the loyalty program)",
            ),
            (
                json!({ "body": "Aviso", "purposes": [loyalty, { "key": "Mal Clave", "description": "x" }] }),
                "the purpose 'Mal Clave' is not valid: 2 to 30 lower-case letters, digits or '_', starting with a letter, not repeated",
            ),
            (
                json!({ "body": "Aviso", "purposes": [loyalty, loyalty] }),
                "the purpose 'loyalty' is not valid: 2 to 30 lower-case letters, digits or '_', starting with a letter, not repeated",
            ),
            (
                json!({ "body": "Aviso", "purposes": [loyalty, { "key": "surveys", "description": " " }] }),
                "the purpose 'surveys' needs a description (at most 500 characters)",
            ),
        ],
    )
    .await;
    let versions = app.get("/api/privacy-notices", &admin).await.body;
    assert_eq!(versions.as_array().unwrap().len(), 1, "{versions}");
    assert_eq!(versions[0]["version"], 1);
}

#[tokio::test]
async fn the_public_notice_needs_no_login_and_an_unknown_prefix_is_a_plain_404() {
    let (app, admin) = spawn_acme().await;
    let public = app.request(reqwest::Method::GET, "/api/public/acme/privacy", None, None).await;
    assert_eq!(public.status, StatusCode::OK, "{}", public.body);
    assert_eq!(public.body["company"], "Company acme");
    assert_eq!(public.body["version"], 1);
    assert!(public.body.get("publishedBy").is_none(), "no staff names in public: {}", public.body);

    app.post("/api/privacy-notices", &admin, new_version("Aviso de Company acme, versión 2.")).await;
    let public = app.request(reqwest::Method::GET, "/api/public/acme/privacy", None, None).await;
    assert_eq!(public.body["version"], 2);
    assert_eq!(public.body["body"], "Aviso de Company acme, versión 2.");

    // Unknown, malformed, reserved-looking and deleted companies all answer the same 404.
    let (globex, _) = app.create_company("globex").await;
    let deleted = app.delete(&format!("/api/super/companies/{globex}"), &app.super_token).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    let mut answers = Vec::new();
    for prefix in ["nobody", "globex", "X!", "a", "tenant_acme", "platform"] {
        let answer = app.request(reqwest::Method::GET, &format!("/api/public/{prefix}/privacy"), None, None).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{prefix}: {}", answer.body);
        answers.push(answer.body);
    }
    assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
    assert_eq!(answers[0]["message"], "privacy notice not found");
}

#[tokio::test]
async fn enrolment_is_refused_without_consent_or_with_an_outdated_version_or_a_missing_required_purpose() {
    let (app, admin) = spawn_acme().await;
    let customer = |consent: Value| json!({ "name": "Ana Ruiz", "document": "1020", "consent": consent });
    let required = "the customer cannot be enrolled without consent to the required purpose 'loyalty'";
    app.assert_bad_requests(
        "/api/customers",
        &admin,
        [
            (customer(Value::Null), "enrolling a customer needs their consent to the current privacy notice"),
            (customer(json!({ "purposes": ["loyalty"], "channel": "store" })), "enrolling a customer needs their consent to the current privacy notice"),
            (customer(consent(1, &[])), required),
            (customer(consent(1, &["marketing"])), required),
            (customer(consent(1, &["loyalty", "sms"])), "the purpose 'sms' is not in the current privacy notice"),
            (
                customer(json!({ "noticeVersion": 1, "purposes": ["loyalty"], "channel": "phone" })),
                "channel must be 'store', 'web' or 'import'",
            ),
            (
                customer(consent(2, &["loyalty"])),
                "the consent refers to version 2 of the privacy notice but version 1 is in force: show the customer the current notice",
            ),
        ],
    )
    .await;

    app.post("/api/privacy-notices", &admin, new_version("Versión 2.")).await;
    let outdated = app.post("/api/customers", &admin, customer(consent(1, &["loyalty"]))).await;
    outdated.assert_error(
        StatusCode::BAD_REQUEST,
        "the consent refers to version 1 of the privacy notice but version 2 is in force: show the customer the current notice",
    );
    assert_eq!(outdated.code(), "privacy.noticeOutdated");
    assert_eq!(outdated.body["params"], json!({ "given": 1, "current": 2 }));
    let spanish = app
        .http
        .post(format!("{}/api/customers", app.address))
        .bearer_auth(&admin)
        .header(reqwest::header::ACCEPT_LANGUAGE, "es")
        .json(&json!({ "name": "Ana Ruiz", "document": "1020" }))
        .send()
        .await
        .unwrap();
    assert_eq!(spanish.status(), StatusCode::BAD_REQUEST);
    let body: Value = spanish.json().await.unwrap();
    assert_eq!(
        body["message"],
        "Para inscribir al cliente hay que registrar su autorización al aviso de privacidad vigente."
    );
    assert_eq!(app.count("select count(*) from tenant_acme.customers").await, 0);
    assert_eq!(app.count("select count(*) from tenant_acme.customer_consents").await, 0);

    enrol(&app, &admin, "1020", consent(2, &["loyalty"])).await;
}

#[tokio::test]
async fn the_consent_is_kept_with_its_notice_version_channel_and_recorder() {
    let app = crate::helpers::spawn_app().await;
    let shop = app.staffed_company("acme", "Centro", "super", "supervisor").await;
    let every = json!({ "supervisor": ["/main", "/settings/customers"], "cajero": ["/main"] });
    let granted = app.post("/api/settings", &shop.admin, json!({ "rolePermissions": every })).await;
    assert_eq!(granted.status, StatusCode::OK, "{}", granted.body);
    let id = enrol(&app, &shop.token, "1020", json!({ "noticeVersion": 1, "purposes": ["loyalty"], "channel": "web" }))
        .await;

    let consents = app.get(&format!("/api/customers/{id}/consents"), &shop.token).await;
    assert_eq!(consents.status, StatusCode::OK, "{}", consents.body);
    let current = consents.body["current"].as_array().unwrap();
    assert_eq!(current.len(), 2);
    for (record, purpose, answer) in [(&current[0], "loyalty", true), (&current[1], "marketing", false)] {
        assert_eq!(record["purpose"], purpose);
        assert_eq!(record["granted"], answer);
        assert_eq!(record["noticeVersion"], 1);
        assert_eq!(record["channel"], "web");
        assert_eq!(record["recordedBy"], "super");
        assert!(record["recordedAt"].as_str().is_some());
    }
    assert_eq!(consents.body["history"].as_array().unwrap().len(), 2);

    // Another company's customer is not found.
    let (_, globex) = app.create_company("globex").await;
    let answer = app.get(&format!("/api/customers/{id}/consents"), &globex).await;
    answer.assert_error(StatusCode::NOT_FOUND, "customer not found");
    let answer = app
        .put(
            &format!("/api/customers/{id}/consents"),
            &globex,
            json!({ "purposes": { "marketing": true }, "channel": "store" }),
        )
        .await;
    answer.assert_error(StatusCode::NOT_FOUND, "customer not found");
}

#[tokio::test]
async fn optional_purposes_are_granted_and_revoked_later_against_the_current_notice() {
    let (app, admin) = spawn_acme().await;
    let id = enrol(&app, &admin, "1020", consent(1, &["loyalty"])).await;
    app.post("/api/privacy-notices", &admin, new_version("Versión 2.")).await;
    let path = format!("/api/customers/{id}/consents");

    let granted =
        app.put(&path, &admin, json!({ "purposes": { "marketing": true, "surveys": true }, "channel": "store" })).await;
    assert_eq!(granted.status, StatusCode::OK, "{}", granted.body);
    let current = |body: &Value| -> Vec<(String, bool, i64)> {
        body["current"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["purpose"].as_str().unwrap().into(),
                    r["granted"].as_bool().unwrap(),
                    r["noticeVersion"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        current(&granted.body),
        [("loyalty".into(), true, 1), ("marketing".into(), true, 2), ("surveys".into(), true, 2)]
    );
    assert!(granted.body["revocationRequestId"].is_null());

    let revoked = app.put(&path, &admin, json!({ "purposes": { "marketing": false }, "channel": "web" })).await;
    assert_eq!(current(&revoked.body)[1], ("marketing".into(), false, 2));
    assert_eq!(revoked.body["history"].as_array().unwrap().len(), 5);
    assert_eq!(revoked.body["history"][0]["channel"], "web");

    for (body, message) in [
        (json!({ "purposes": {}, "channel": "store" }), "name at least one purpose to grant or revoke"),
        (
            json!({ "purposes": { "sms": true }, "channel": "store" }),
            "the purpose 'sms' is not in the current privacy notice",
        ),
        (json!({ "purposes": { "marketing": true }, "channel": "fax" }), "channel must be 'store', 'web' or 'import'"),
        (json!({ "purposes": { "loyalty": true } }), "channel must be 'store', 'web' or 'import'"),
    ] {
        app.put(&path, &admin, body).await.assert_error(StatusCode::BAD_REQUEST, message);
    }
    assert_eq!(app.count("select count(*) from tenant_acme.customer_consents").await, 5);

    // A customer enrolled before the notice existed has no record of the required purpose: the
    // screen records it when the customer grants it.
    app.sql(&format!("delete from tenant_acme.customer_consents where customer_id = {id} and purpose = 'loyalty'"))
        .await;
    let recorded = app.put(&path, &admin, json!({ "purposes": { "loyalty": true }, "channel": "store" })).await;
    assert_eq!(recorded.status, StatusCode::OK, "{}", recorded.body);
    assert_eq!(current(&recorded.body)[0], ("loyalty".into(), true, 2));
    assert!(recorded.body["revocationRequestId"].is_null());
}

#[tokio::test]
async fn revoking_the_required_purpose_files_a_reclamo() {
    let (app, admin) = spawn_acme().await;
    let id = enrol(&app, &admin, "1020", consent(1, &["loyalty", "marketing"])).await;
    let answer = app
        .put(
            &format!("/api/customers/{id}/consents"),
            &admin,
            json!({ "purposes": { "loyalty": false }, "channel": "store" }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let request = answer.body["revocationRequestId"].as_i64().expect("a reclamo was filed");
    // The authorization stays recorded until the shop answers the reclamo.
    assert_eq!(answer.body["current"][0]["granted"], true);
    assert_eq!(answer.body["history"].as_array().unwrap().len(), 2);

    let requests = app.get("/api/data-requests", &admin).await.body;
    let filed = &requests["items"][0];
    assert_eq!(filed["id"], request);
    assert_eq!(filed["kind"], "reclamo");
    assert_eq!(filed["customerId"], id);
    assert_eq!(filed["document"], "1020");
    assert_eq!(filed["status"], "open");
    assert_eq!(app.get("/api/customers/by-document/1020", &admin).await.body["claimInProgress"], true);
}
