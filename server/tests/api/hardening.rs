use std::time::{Duration, Instant};

use reqwest::StatusCode;

use crate::helpers::{refused_and_throttled, spawn_acme, spawn_app, Staffed};

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let app = spawn_app().await;
    for path in ["/api/openapi.json", "/api/nope", "/healthz", "/settings/products"] {
        let res = app.http.get(format!("{}{path}", app.address)).send().await.unwrap();
        let h = res.headers();
        assert!(h["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"), "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "same-origin", "{path}");
        assert!(h.contains_key("x-request-id"), "{path}");
        assert!(!h.contains_key("access-control-allow-origin"), "{path}: same-origin by default");
    }
}

#[tokio::test]
async fn repeated_login_failures_slow_down_then_lock_and_a_success_resets_them() {
    let (app, _) = spawn_acme().await;
    // Test policy: a wait of 100 ms per failure from the third, a lock at ten.
    for attempt in 1..=9 {
        let answer = app.login("admin@acme", "wrong-password").await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "attempt {attempt}");
    }
    let started = Instant::now();
    let answer = app.login("admin@acme", "wrong-password").await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert!(started.elapsed() >= Duration::from_millis(500), "the tenth failure waited");
    // Now locked: even the right password is refused, with a clear message.
    let locked = app.login("admin@acme", "admin-pass-1").await;
    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(locked.message().starts_with("too many failed login attempts"), "{}", locked.message());
    // An unknown user is locked out exactly the same way.
    for _ in 0..10 {
        app.login("ghost@acme", "wrong-password").await;
    }
    assert_eq!(app.login("ghost@acme", "wrong-password").await.status, StatusCode::TOO_MANY_REQUESTS);

    // Other names are not affected; a success clears that name's failures.
    app.sql("delete from platform.login_throttle where key like 'addr:%'").await;
    for _ in 0..5 {
        app.login("root", "wrong-password").await;
    }
    assert_eq!(app.login("root", crate::helpers::SUPER_PASSWORD).await.status, StatusCode::OK);
    assert_eq!(app.count("select count(*) from platform.login_throttle where key = 'login:root'").await, 0);
}

/// Sends the logins all at once; answers how many got 401 and 429, and how long the burst took.
async fn login_burst(app: &crate::helpers::TestApp, logins: Vec<(String, String)>) -> (usize, usize, Duration) {
    let started = Instant::now();
    let answers = futures::future::join_all(logins.iter().map(|(name, password)| app.login(name, password))).await;
    let elapsed = started.elapsed();
    let (refused, throttled) = refused_and_throttled(&answers);
    (refused, throttled, elapsed)
}

#[tokio::test]
async fn a_burst_of_wrong_logins_for_one_name_gets_at_most_the_limit_checked_and_then_locks_it() {
    let (app, _) = spawn_acme().await;
    let logins = (0..50).map(|i| ("admin@acme".to_string(), format!("wrong-{i}"))).collect();
    let (refused, throttled, elapsed) = login_burst(&app, logins).await;
    eprintln!("50 concurrent wrong logins for one name: {refused} x 401, {throttled} x 429 in {elapsed:?}");
    // The limit per name is 10 (the test policy keeps the default).
    assert!((1..=10).contains(&refused), "{refused} passwords were checked");
    assert_eq!(throttled, 50 - refused);

    // Locked: the right password is refused, with the minutes left.
    let locked = app.login("admin@acme", "admin-pass-1").await;
    locked.assert_error(StatusCode::TOO_MANY_REQUESTS, "too many failed login attempts; try again in 15 minute(s)");
    let audited = "select count(*) from tenant_acme.audit_log where action = 'login.locked' \
                   and detail ->> 'login' = 'admin@acme' and detail -> 'locked' = '[\"name\"]' and detail ->> 'via' = 'login'";
    assert_eq!(app.count(audited).await, 1, "the lock is in the company's audit trail");
    // Until the lock ends.
    app.sql("update platform.login_throttle set locked_until = now() where key = 'login:admin@acme'").await;
    assert_eq!(app.login("admin@acme", "admin-pass-1").await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_burst_of_wrong_logins_from_one_address_gets_at_most_the_limit_checked_and_then_locks_it() {
    let (app, _) = spawn_acme().await;
    // Distinct names (limit 10 each), one address (limit 50).
    let logins = (0..80).map(|i| (format!("ghost{i}@acme"), "wrong-password".to_string())).collect();
    let (refused, throttled, elapsed) = login_burst(&app, logins).await;
    eprintln!("80 concurrent wrong logins from one address: {refused} x 401, {throttled} x 429 in {elapsed:?}");
    assert!((1..=50).contains(&refused), "{refused} passwords were checked");
    assert_eq!(throttled, 80 - refused);

    // The address is locked for every name, the right password too.
    assert_eq!(app.login("admin@acme", "admin-pass-1").await.status, StatusCode::TOO_MANY_REQUESTS);
    let audited = "select count(*) from tenant_acme.audit_log where action = 'login.locked' and detail -> 'locked' = '[\"address\"]'";
    assert_eq!(app.count(audited).await, 1);
    app.sql("update platform.login_throttle set locked_until = now() where key like 'addr:%'").await;
    assert_eq!(app.login("admin@acme", "admin-pass-1").await.status, StatusCode::OK);
    // Successful logins do not use up the address's count.
    for _ in 0..55 {
        assert_eq!(app.login("admin@acme", "admin-pass-1").await.status, StatusCode::OK);
    }
}

#[tokio::test]
async fn wrong_passwords_take_as_long_for_unknown_users_as_for_existing_ones() {
    let (app, _) = spawn_acme().await;
    let mut existing = Vec::new();
    let mut unknown = Vec::new();
    // Distinct names keep every attempt below the throttle; interleaving shares the machine's noise.
    for i in 0..12 {
        app.sql("delete from platform.login_throttle").await;
        let started = Instant::now();
        assert_eq!(app.login("admin@acme", &format!("wrong-{i}")).await.status, StatusCode::UNAUTHORIZED);
        existing.push(started.elapsed());
        let started = Instant::now();
        assert_eq!(app.login(&format!("ghost{i}@acme"), "wrong").await.status, StatusCode::UNAUTHORIZED);
        unknown.push(started.elapsed());
    }
    existing.sort();
    unknown.sort();
    let (a, b) = (existing[6].as_secs_f64(), unknown[6].as_secs_f64());
    let ratio = a.max(b) / a.min(b);
    eprintln!("median wrong-password login: existing user {:.1} ms, unknown user {:.1} ms", a * 1e3, b * 1e3);
    assert!(ratio < 1.5, "existing {a:.4}s vs unknown {b:.4}s: the difference tells who exists");
}

#[tokio::test]
async fn the_server_runs_as_a_role_that_is_no_superuser_and_cannot_read_passwords() {
    let (app, _) = spawn_acme().await;
    let db = app.app_db().await;
    let row = db
        .query_one("select rolsuper, rolcreaterole, rolcreatedb from pg_roles where rolname = current_user", &[])
        .await
        .unwrap();
    assert!(!row.get::<_, bool>(0) && !row.get::<_, bool>(1) && !row.get::<_, bool>(2));
    assert!(db.query("select rolpassword from pg_authid", &[]).await.is_err());
    let owner: String = db
        .query_one("select nspowner::regrole::text from pg_namespace where nspname = 'tenant_acme'", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(owner, crate::helpers::APP_ROLE, "the role owns the tenant schemas it creates");
}

#[tokio::test]
async fn metrics_are_for_the_operator_only_and_count_requests_by_route() {
    let (app, admin) = spawn_acme().await;
    app.get("/api/pos", &admin).await;
    let anonymous = app.http.get(format!("{}/metrics", app.address)).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let company_admin = app.http.get(format!("{}/metrics", app.address)).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(company_admin.status(), StatusCode::FORBIDDEN);
    let scraper = app
        .http
        .get(format!("{}/metrics", app.address))
        .bearer_auth(crate::helpers::METRICS_TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(scraper.status(), StatusCode::OK);
    let text = scraper.text().await.unwrap();
    assert!(text.contains(r#"http_requests_total{method="GET",route="/api/pos",status="200"}"#), "{text}");
    assert!(text.contains("http_request_duration_seconds_bucket"), "{text}");
    assert!(text.contains("db_pool_connections"), "{text}");
    assert!(text.contains("loyalty_tenants 1"), "{text}");
    let super_admin =
        app.http.get(format!("{}/metrics", app.address)).bearer_auth(&app.super_token).send().await.unwrap();
    assert_eq!(super_admin.status(), StatusCode::OK);
}

#[tokio::test]
async fn passwords_tokens_and_secrets_never_reach_the_logs() {
    let (app, _) = spawn_acme().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let secret = "log-test-secret-0123456789-abcdefghij";
    // The log goes to a file: a pipe nobody reads would fill up and stall the server.
    let log_path = std::env::temp_dir().join(format!("{}.log", app.db_name));
    let log = std::fs::File::create(&log_path).unwrap();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_loyalty"))
        .arg("serve")
        .env("DATABASE_URL", &app.db_url)
        .env("JWT_SECRET", secret)
        .env("BIND_ADDR", format!("127.0.0.1:{port}"))
        .env("RUST_LOG", "trace")
        .env("LOG_FORMAT", "json")
        // Each span's closing line too, with its fields.
        .env("LOG_SPAN_TIMES", "1")
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .expect("start loyalty serve");
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let mut ready = false;
    for _ in 0..100 {
        if http.get(format!("{base}/readyz")).send().await.map(|r| r.status().is_success()).unwrap_or(false) {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ready, "server did not start");
    let login = |user: &str, password: &str| {
        http.post(format!("{base}/api/login"))
            .json(&serde_json::json!({ "username": user, "password": password }))
            .send()
    };
    let super_token =
        login("root", crate::helpers::SUPER_PASSWORD).await.unwrap().json::<serde_json::Value>().await.unwrap()
            ["token"]
            .as_str()
            .unwrap()
            .to_string();
    let admin_token = login("admin@acme", "admin-pass-1").await.unwrap().json::<serde_json::Value>().await.unwrap()
        ["token"]
        .as_str()
        .unwrap()
        .to_string();
    login("admin@acme", "a-wrong-password-xyz").await.unwrap();
    let impersonation = http
        .post(format!("{base}/api/super/impersonate"))
        .bearer_auth(&super_token)
        .json(&serde_json::json!({ "companyId": 1 }))
        .send()
        .await
        .unwrap()
        .json::<serde_json::Value>()
        .await
        .unwrap();
    let impersonation_token = impersonation["token"].as_str().unwrap().to_string();
    http.post(format!("{base}/api/users"))
        .bearer_auth(&admin_token)
        .json(&serde_json::json!({ "username": "ana", "password": "new-user-password-7", "role": "admin" }))
        .send()
        .await
        .unwrap();
    http.get(format!("{base}/api/pos")).bearer_auth("not.a.token").send().await.unwrap();

    drop(http);
    let _ = std::process::Command::new("kill").arg("-TERM").arg(server.id().to_string()).status();
    for _ in 0..100 {
        if server.try_wait().unwrap().is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = server.kill();
    let _ = server.wait();
    let output = std::fs::read_to_string(&log_path).unwrap();
    let _ = std::fs::remove_file(&log_path);
    assert!(output.contains("request finished"), "the run was logged:\n{output}");
    let span_closed = output.lines().any(|line| {
        let line: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
        line["fields"]["message"] == "close"
            && line["span"]["name"] == "super_admin_exists"
            && line["fields"]["time.busy"].is_string()
    });
    assert!(span_closed, "no span's time was logged:\n{output}");
    for needle in [
        crate::helpers::SUPER_PASSWORD,
        "admin-pass-1",
        "a-wrong-password-xyz",
        "new-user-password-7",
        secret,
        super_token.as_str(),
        admin_token.as_str(),
        impersonation_token.as_str(),
        "not.a.token",
    ] {
        assert!(!output.contains(needle), "'{needle}' appeared in the logs");
    }
    // Nor does the signature part of any token.
    assert!(!output.contains(super_token.rsplit('.').next().unwrap()));
}

#[tokio::test]
async fn text_with_a_nul_character_is_refused_and_never_answered_with_a_server_error() {
    // PostgreSQL cannot hold a NUL character in text: found by the API fuzzer (fuzz/run.sh).
    let app = spawn_app().await;
    let Staffed { admin, token: cajero, .. } = app.staffed_company("acme", "Centro", "ana", "cajero").await;
    app.post("/api/settings", &admin, serde_json::json!({ "pointsPerPeso": 0.01, "redemptionRate": 10 })).await;
    let customer =
        app.post("/api/customers", &admin, serde_json::json!({ "name": "Cliente", "document": "123456" })).await;
    let customer = customer.body["id"].as_i64().unwrap();
    let accredited = app
        .post(&format!("/api/customers/{customer}/accredit"), &cajero, serde_json::json!({ "invoiceAmount": 1000 }))
        .await;
    assert_eq!(accredited.status, StatusCode::OK, "{}", accredited.body);
    let transaction = accredited.body["newTransaction"]["id"].as_i64().unwrap();

    for login in ["ad\0min", "ad\0min@acme", "admin@ac\0me"] {
        let answer = app.login(login, "admin-pass-1").await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{login:?}: {}", answer.body);
    }
    for query in ["text=a%00b", "cashier=a%00b"] {
        let answer = app.get(&format!("/api/transactions/search?{query}"), &admin).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{query}: {}", answer.body);
        assert!(answer.message().ends_with("contains control characters"), "{}", answer.message());
    }
    assert_eq!(app.get("/api/customers/search?text=a%00b", &admin).await.status, StatusCode::BAD_REQUEST);
    // No customer can have such a document.
    assert_eq!(app.get("/api/customers/by-document/123%00456", &admin).await.status, StatusCode::NOT_FOUND);
    // A cajero's void approved by a name no supervisor can have: refused like a wrong password.
    let void = app
        .post(
            &format!("/api/transactions/{transaction}/void"),
            &cajero,
            serde_json::json!({ "supervisorUsername": "ad\u{0}min", "supervisorPassword": "admin-pass-1" }),
        )
        .await;
    assert_eq!(void.status, StatusCode::UNAUTHORIZED, "{}", void.body);

    // Any other text PostgreSQL refuses for its characters is a 400 too, not a 500.
    app.assert_refused_as_bad_request("select $1::text", &[&"a\0b"]).await;
}

#[tokio::test]
async fn image_addresses_that_another_host_or_plain_http_would_serve_are_refused() {
    let (app, admin) = spawn_acme().await;
    let bad = [
        "//evil.example/x.png",
        "/\\evil.example/x.png",
        "/\t/evil.example/x.png",
        "http://cdn.example/x.png",
        "https:///evil.example/x.png",
    ];
    for url in bad {
        let answer = app
            .post(
                "/api/products",
                &admin,
                serde_json::json!({ "code": "P1", "name": "Café", "pointsValue": 1, "imageUrl": url }),
            )
            .await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{url:?}: {}", answer.body);
        assert_eq!(answer.message(), "image URL must be an https:// address or a path on this site", "{url:?}");
        let company = serde_json::json!({ "name": "Otra", "prefix": "otra", "taxId": "900100200-1", "adminPassword": "admin-pass-1", "logoUrl": url });
        let answer = app.post("/api/super/companies", &app.super_token, company).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{url:?}: {}", answer.body);
    }
    assert_eq!(app.get("/api/products", &admin).await.body, serde_json::json!([]));
    assert!(!app.schema_exists("tenant_otra").await);
    for url in ["https://cdn.example/x.png", "/images/x.png"] {
        let code = format!("P-{}", url.len());
        let answer = app
            .post(
                "/api/products",
                &admin,
                serde_json::json!({ "code": code, "name": "Café", "pointsValue": 1, "imageUrl": url }),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{url:?}: {}", answer.body);
    }
}

#[tokio::test]
async fn invisible_format_characters_are_refused_in_every_text_field() {
    let (app, admin) = spawn_acme().await;
    let customer =
        app.post("/api/customers", &admin, serde_json::json!({ "name": "Cliente", "document": "123456" })).await;
    let customer = customer.body["id"].as_i64().unwrap();
    // A right-to-left override, an isolate, a zero-width space and joiner, a byte order mark.
    for invisible in ["\u{202E}", "\u{2067}", "\u{200B}", "\u{200D}", "\u{FEFF}"] {
        let text = format!("Ana{invisible}lisa");
        let cases = [
            ("/api/customers", serde_json::json!({ "name": text, "document": "999999" })),
            ("/api/customers", serde_json::json!({ "name": "Ana", "document": "999999", "address": text })),
            ("/api/pos", serde_json::json!({ "name": text })),
            ("/api/categories", serde_json::json!({ "name": text, "icon": "Tag" })),
            (
                "/api/products",
                serde_json::json!({ "code": "P1", "name": "Café", "pointsValue": 1, "description": text }),
            ),
            (
                "/api/super/companies",
                serde_json::json!({ "name": text, "prefix": "otra", "taxId": "900100200-1", "adminPassword": "admin-pass-1" }),
            ),
            (
                &format!("/api/customers/{customer}/accredit") as &str,
                serde_json::json!({ "invoiceAmount": 1000, "invoiceReference": text }),
            ),
        ];
        for (path, body) in cases {
            let token = if path.starts_with("/api/super") { &app.super_token } else { &admin };
            let answer = app.post(path, token, body.clone()).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path} {body}: {}", answer.body);
            assert_eq!(answer.code(), "field.invisibleCharacters", "{path} {body}");
        }
        let search = app.get(&format!("/api/customers/search?text={}", utf8_percent(&text)), &admin).await;
        assert_eq!(search.code(), "field.invisibleCharacters");
        assert_eq!(app.login(&format!("admin{invisible}@acme"), "admin-pass-1").await.status, StatusCode::BAD_REQUEST);
    }
    // Nothing was written.
    assert_eq!(app.count("select count(*) from tenant_acme.customers").await, 1);
    assert_eq!(app.count("select count(*) from tenant_acme.transactions").await, 0);
    assert!(!app.schema_exists("tenant_otra").await);
    // Visible non-ASCII text is welcome.
    let answer = app
        .post("/api/customers", &admin, serde_json::json!({ "name": "Ñandú Pérez 日本 😀", "document": "999999" }))
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
}

fn utf8_percent(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}
