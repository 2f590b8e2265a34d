use jsonwebtoken::{encode, EncodingKey, Header};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{spawn_acme, spawn_app, texts, Staffed, JWT_SECRET, SUPER_ADMIN, SUPER_PASSWORD};

#[tokio::test]
async fn a_super_admin_logs_in_by_bare_username() {
    let app = spawn_app().await;
    let answer = app.login(SUPER_ADMIN, SUPER_PASSWORD).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body["user"]["role"], "super_admin");
    assert!(answer.body["user"]["company"].is_null());
}

#[tokio::test]
async fn a_company_user_logs_in_as_username_at_prefix() {
    let (app, _) = spawn_acme().await;
    let answer = app.login("admin@acme", "admin-pass-1").await;
    assert_eq!(answer.status, StatusCode::OK);
    let user = &answer.body["user"];
    assert_eq!(user["username"], "admin");
    assert_eq!(user["role"], "admin");
    assert_eq!(user["company"]["prefix"], "acme");
    assert_eq!(user["company"]["name"], "Company acme");
    assert!(user["posId"].is_null());
}

#[tokio::test]
async fn unknown_company_unknown_user_and_wrong_password_get_the_same_answer() {
    let (app, _) = spawn_acme().await;
    let wrong_password = app.login("admin@acme", "nope-nope").await;
    let unknown_user = app.login("ghost@acme", "admin-pass-1").await;
    let unknown_company = app.login("admin@nowhere", "admin-pass-1").await;
    let bad_prefix = app.login("admin@No-Such", "admin-pass-1").await;
    let unknown_super = app.login("ghost", "whatever1").await;
    for answer in [&wrong_password, &unknown_user, &unknown_company, &bad_prefix, &unknown_super] {
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
        assert_eq!(answer.message(), wrong_password.message());
    }
}

#[tokio::test]
async fn login_needs_both_fields() {
    let app = spawn_app().await;
    for body in [
        json!({}),
        json!({ "username": "root" }),
        json!({ "password": "x" }),
        json!({ "username": " ", "password": "x" }),
    ] {
        let answer = app.request(reqwest::Method::POST, "/api/login", None, Some(body)).await;
        answer.assert_error(StatusCode::BAD_REQUEST, "username and password are required");
    }
    let answer =
        app.request(reqwest::Method::POST, "/api/login", None, Some(json!({ "username": 5, "password": [] }))).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert!(!answer.message().is_empty());
}

fn token_with(claims: serde_json::Value, secret: &str) -> String {
    loyalty::session::hs256::install();
    encode(&Header::default(), &claims, &EncodingKey::from_secret(secret.as_bytes())).unwrap()
}

#[tokio::test]
async fn forged_expired_and_unsigned_tokens_are_refused() {
    let app = spawn_app().await;
    let (company_id, admin_token) = app.create_company("acme").await;
    let now = chrono::Utc::now().timestamp();
    let claims = json!({ "uid": 1, "username": "admin", "role": "admin", "companyId": company_id, "prefix": "acme", "iat": now, "exp": now + 600 });

    // A valid token works, so the refusals below are about the token alone.
    assert_eq!(app.get("/api/pos", &token_with(claims.clone(), JWT_SECRET)).await.status, StatusCode::OK);

    let bad_signature = token_with(claims.clone(), "another-secret-another-secret-another-1");
    let mut expired_claims = claims.clone();
    expired_claims["iat"] = json!(now - 7200);
    expired_claims["exp"] = json!(now - 3600);
    let expired = token_with(expired_claims, JWT_SECRET);
    let unsigned = {
        use base64_like::encode_segment;
        format!("{}.{}.", encode_segment(r#"{"alg":"none","typ":"JWT"}"#), encode_segment(&claims.to_string()))
    };
    let mut tampered = admin_token.clone();
    tampered.pop();
    tampered.push(if admin_token.ends_with('A') { 'B' } else { 'A' });

    for token in [bad_signature, expired, unsigned, tampered, "garbage".to_string()] {
        assert_eq!(app.get("/api/pos", &token).await.status, StatusCode::UNAUTHORIZED, "{token}");
    }
    let no_token = app.request(reqwest::Method::GET, "/api/pos", None, None).await;
    assert_eq!(no_token.status, StatusCode::UNAUTHORIZED);
}

/// Unpadded base64url, enough to build an `alg: none` token by hand.
mod base64_like {
    pub fn encode_segment(text: &str) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let bytes = text.as_bytes();
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
            let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
            for i in 0..=chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            }
        }
        out
    }
}

#[tokio::test]
async fn a_deleted_companys_tokens_stop_working_at_once() {
    let app = spawn_app().await;
    let (id, token) = app.create_company("acme").await;
    assert_eq!(app.get("/api/pos", &token).await.status, StatusCode::OK);
    assert_eq!(app.delete(&format!("/api/super/companies/{id}"), &app.super_token).await.status, StatusCode::OK);
    assert_eq!(app.get("/api/pos", &token).await.status, StatusCode::UNAUTHORIZED);
    // A new company with the same prefix does not revive the old tokens.
    app.create_company("acme").await;
    assert_eq!(app.get("/api/pos", &token).await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_deactivated_users_token_stops_working_and_they_cannot_log_in() {
    let (app, token) = spawn_acme().await;
    app.sql("update tenant_acme.users set is_active = false where username = 'admin'").await;
    assert_eq!(app.get("/api/pos", &token).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.login("admin@acme", "admin-pass-1").await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_super_admin_reaches_only_super_routes_unless_impersonating() {
    let (app, admin_token) = spawn_acme().await;
    assert_eq!(app.get("/api/pos", &app.super_token).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get("/api/settings", &app.super_token).await.status, StatusCode::FORBIDDEN);
    // And a company admin cannot reach the platform's routes.
    assert_eq!(app.get("/api/super/companies", &admin_token).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn impersonation_acts_as_the_company_admin_in_that_company_only() {
    let app = spawn_app().await;
    let (acme_id, _) = app.create_company("acme").await;
    let (_, globex_token) = app.create_company("globex").await;
    app.post("/api/pos", &globex_token, json!({ "name": "Globex only" })).await;

    let answer = app.post("/api/super/impersonate", &app.super_token, json!({ "companyId": acme_id })).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let user = &answer.body["user"];
    assert_eq!(user["impersonatedBy"], SUPER_ADMIN);
    assert_eq!(user["role"], "admin");
    assert_eq!(user["company"]["prefix"], "acme");
    let token = answer.body["token"].as_str().unwrap();

    let created = app.post("/api/pos", token, json!({ "name": "Acme store" })).await;
    assert_eq!(created.status, StatusCode::CREATED);
    let list = app.get("/api/pos", token).await;
    assert_eq!(texts(&list.body, "name"), ["Acme store"]);
    // The impersonation token is a company token: the platform's routes are closed to it.
    assert_eq!(app.get("/api/super/companies", token).await.status, StatusCode::FORBIDDEN);
    // And both audit trails record it.
    assert_eq!(app.count("select count(*) from platform.audit_log where action = 'impersonation.start'").await, 1);
    assert_eq!(
        app.count("select count(*) from tenant_acme.audit_log where impersonated_by = 'root'").await,
        2,
        "the impersonation start and the point of sale created while impersonating"
    );
}

#[tokio::test]
async fn impersonating_an_unknown_company_is_a_404() {
    let app = spawn_app().await;
    let answer = app.post("/api/super/impersonate", &app.super_token, json!({ "companyId": 999 })).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    let answer = app.post("/api/super/impersonate", &app.super_token, json!({})).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let answer = app.post("/api/super/impersonate", &app.super_token, json!({ "companyId": "1; drop" })).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn an_admin_resets_a_users_password_which_ends_that_users_sessions_and_is_audited() {
    let app = spawn_app().await;
    let Staffed { admin, user: id, token: cajero, .. } = app.staffed_company("acme", "Centro", "ana", "cajero").await;

    assert_eq!(reset(&app, &cajero, id, "otra-clave-9").await.status, StatusCode::FORBIDDEN);
    let short = reset(&app, &admin, id, "corta").await;
    assert_eq!((short.status, short.code()), (StatusCode::BAD_REQUEST, "field.passwordLength"));
    assert_eq!(reset(&app, &admin, 999_999, "otra-clave-9").await.status, StatusCode::NOT_FOUND);
    let admin_id: i64 = app.count("select id from tenant_acme.users where username = 'admin'").await;
    let own = reset(&app, &admin, admin_id, "otra-clave-9").await;
    assert_eq!(
        (own.status, own.code()),
        (StatusCode::CONFLICT, "user.resetOwnPassword"),
        "one's own goes through /me/password"
    );
    assert_eq!(app.get("/api/settings", &cajero).await.status, StatusCode::OK, "nothing changed yet");

    let answer = reset(&app, &admin, id, "otra-clave-9").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.message(), "password changed; the user's sessions ended");
    assert_eq!(app.get("/api/settings", &cajero).await.status, StatusCode::UNAUTHORIZED, "the old session ended");
    assert_eq!(app.login("ana@acme", "user-pass-1").await.status, StatusCode::UNAUTHORIZED);
    let fresh = app.login_ok("ana@acme", "otra-clave-9").await;
    assert_eq!(app.get("/api/settings", &fresh).await.status, StatusCode::OK);
    assert_eq!(app.get("/api/settings", &admin).await.status, StatusCode::OK, "the admin's own session goes on");
    let audited = format!(
        "select count(*) from tenant_acme.audit_log where action = 'user.passwordReset' and actor = 'admin' \
         and entity_id = {id} and detail::text not like '%otra-clave%'"
    );
    assert_eq!(app.count(&audited).await, 1);
}

#[tokio::test]
async fn every_user_changes_their_own_password_given_the_current_one() {
    let app = spawn_app().await;
    let Staffed { company, token: first, .. } = app.staffed_company("acme", "Centro", "ana", "cajero").await;
    let second = app.login_ok("ana@acme", "user-pass-1").await;

    let wrong = change(&app, &first, "not-my-password", "otra-clave-9").await;
    assert_eq!((wrong.status, wrong.code()), (StatusCode::BAD_REQUEST, "user.currentPasswordIncorrect"));
    let short = change(&app, &first, "user-pass-1", "corta").await;
    assert_eq!((short.status, short.code()), (StatusCode::BAD_REQUEST, "field.passwordLength"));
    assert_eq!(app.get("/api/settings", &second).await.status, StatusCode::OK, "nothing changed yet");

    let answer = change(&app, &first, "user-pass-1", "otra-clave-9").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let renewed = answer.body["token"].as_str().unwrap().to_string();
    assert_eq!(app.get("/api/settings", &renewed).await.status, StatusCode::OK, "this session goes on");
    for ended in [&first, &second] {
        assert_eq!(app.get("/api/settings", ended).await.status, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(app.login("ana@acme", "user-pass-1").await.status, StatusCode::UNAUTHORIZED);
    app.login_ok("ana@acme", "otra-clave-9").await;
    assert_eq!(
        app.count("select count(*) from tenant_acme.audit_log where action = 'user.passwordChange' and actor = 'ana'")
            .await,
        1
    );

    // A super admin acting as the company's admin does not change the admin's own password.
    let impersonation = app.post("/api/super/impersonate", &app.super_token, json!({ "companyId": company })).await;
    let impersonation = impersonation.body["token"].as_str().unwrap().to_string();
    assert_eq!(change(&app, &impersonation, "admin-pass-1", "otra-clave-9").await.status, StatusCode::FORBIDDEN);
}

async fn reset(app: &crate::helpers::TestApp, token: &str, id: i64, password: &str) -> crate::helpers::Answer {
    app.post(&format!("/api/users/{id}/password"), token, json!({ "password": password })).await
}

async fn change(app: &crate::helpers::TestApp, token: &str, current: &str, new: &str) -> crate::helpers::Answer {
    app.post("/api/me/password", token, json!({ "currentPassword": current, "newPassword": new })).await
}
