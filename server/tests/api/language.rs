//! Every error answer is `{message, code, params}`, with the message in the request's language.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_acme, TestApp};

/// A request with an `Accept-Language` of the test's choosing (`None`: no header at all).
async fn ask(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    token: &str,
    lang: Option<&str>,
    body: Value,
) -> (StatusCode, reqwest::header::HeaderMap, Value) {
    let mut req = app.http.request(method, format!("{}{path}", app.address)).bearer_auth(token).json(&body);
    req = match lang {
        Some(lang) => req.header("accept-language", lang),
        // The test client sends English by default; an empty header means no preference.
        None => req.header("accept-language", ""),
    };
    let res = req.send().await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    (status, headers, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn server_messages_are_spanish_by_default_and_english_on_request_with_a_stable_code() {
    let (app, admin) = spawn_acme().await;
    let long_name = json!({ "name": "x".repeat(201), "document": "123456" });
    for (lang, message) in [
        (None, "«Nombre» admite como máximo 200 caracteres."),
        (Some("es-CO,es;q=0.9"), "«Nombre» admite como máximo 200 caracteres."),
        (Some("en-US,en;q=0.9,es;q=0.5"), "name must be at most 200 characters"),
    ] {
        let (status, _, body) =
            ask(&app, reqwest::Method::POST, "/api/customers", &admin, lang, long_name.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(
            body,
            json!({ "message": message, "code": "field.tooLong", "params": { "field": "name", "max": 200 } })
        );
    }

    // A duplicate, found by the database's unique constraint.
    app.post("/api/customers", &admin, json!({ "name": "Ana", "document": "123456" })).await;
    let (status, _, body) = ask(
        &app,
        reqwest::Method::POST,
        "/api/customers",
        &admin,
        Some("es"),
        json!({ "name": "Ana", "document": "123456",
                "consent": { "noticeVersion": 1, "purposes": ["loyalty"], "channel": "store" } }),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["code"], "customer.documentExists");
    assert_eq!(body["message"], "Ya existe un cliente con este documento.");

    // The result of an expiration run is a message of the server's too.
    let (status, _, body) =
        ask(&app, reqwest::Method::POST, "/api/tasks/expire-points", &admin, Some("es"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["message"].as_str().unwrap().starts_with("La política de vencimiento es"), "{body}");
}

#[tokio::test]
async fn a_wrong_method_answers_json_in_the_callers_language() {
    let (app, admin) = spawn_acme().await;
    let (status, headers, body) =
        ask(&app, reqwest::Method::PATCH, "/api/customers", &admin, Some("es"), json!({})).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(headers["content-type"], "application/json");
    assert!(headers.contains_key("allow"), "the allowed methods are still named");
    assert_eq!(body["code"], "request.methodNotAllowed");
    assert_eq!(body["message"], "Este método no está permitido en esta dirección.");
}

#[tokio::test]
async fn a_serde_message_about_multibyte_text_is_answered_not_dropped() {
    let (app, admin) = spawn_acme().await;
    // serde quotes the input; cutting its message at a byte inside 'ñ' used to panic and drop
    // the connection.
    for body in
        [json!({ "inactivityDays": "ñ".repeat(200) }), json!({ "nope": 1, "inactivityDays": ["ñ".repeat(400)] })]
    {
        let answer = app.post("/api/settings", &admin, body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(answer.code(), "field.invalid");
        assert_eq!(answer.body["params"]["field"], "inactivityDays");
    }
    let answer = app.request(reqwest::Method::POST, "/api/login", None, Some(json!(["ñ".repeat(400)]))).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.code(), "request.invalid");
    assert!(answer.body["params"]["detail"].as_str().unwrap().chars().count() <= 201);
}

#[tokio::test]
async fn a_delete_says_what_it_did_in_the_request_language() {
    let (app, admin) = spawn_acme().await;
    let busy = app.create_pos(&admin, "Centro").await;
    app.create_user(&admin, "acme", "caja1", "cajero", Some(busy)).await;
    let idle = app.create_pos(&admin, "Vacío").await;
    let (_, _, soft) = ask(&app, reqwest::Method::DELETE, &format!("/api/pos/{busy}"), &admin, None, Value::Null).await;
    assert_eq!(soft["deleted"], "soft");
    assert_eq!(soft["message"], "El punto de venta tiene usuarios o transacciones: quedó inactivo.");
    let (_, _, hard) =
        ask(&app, reqwest::Method::DELETE, &format!("/api/pos/{idle}"), &admin, Some("en"), Value::Null).await;
    assert_eq!(hard["deleted"], "hard");
    assert_eq!(hard["message"], "point of sale deleted");
}
