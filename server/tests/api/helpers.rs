use std::time::Duration;

use loyalty::config::{Config, DbConfig, LoginPolicy, Secret, WebhookConfig};
use loyalty::{migrate, platform, AppState};
use reqwest::StatusCode;
use serde_json::{json, Value};

pub const SUPER_ADMIN: &str = "root";
pub const SUPER_PASSWORD: &str = "root-password-1";
pub const METRICS_TOKEN: &str = "metrics-token-0123456789";
pub const JWT_SECRET: &str = "test-secret-test-secret-test-secret-0123";

/// The least-privilege role the server runs as in tests, as `deploy/sql/setup-database.sql`
/// makes it: not a superuser, owner of its database and of everything it creates.
pub const APP_ROLE: &str = "loyalty_app";

/// A running server on its own fresh database.
pub struct TestApp {
    pub address: String,
    pub http: reqwest::Client,
    /// The server's own URL (least-privilege role).
    pub db_url: String,
    /// A superuser URL to the same database, for checks and fault injection.
    pub admin_db_url: String,
    pub db_name: String,
    pub maintenance_url: String,
    pub state: AppState,
    pub super_token: String,
}

/// Runs the `loyalty` command with `args` against the database `db_url`: whether it succeeded,
/// and its output (standard output, then standard error).
pub fn run_loyalty(db_url: &str, args: &[&str]) -> (bool, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_loyalty"))
        .args(args)
        .env("DATABASE_URL", db_url)
        .env("RUST_LOG", "warn")
        .output()
        .expect("run loyalty");
    (
        output.status.success(),
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr)),
    )
}

/// The test server's URL, `DATABASE_URL`: its maintenance database and superuser.
pub fn server_url() -> String {
    std::env::var("DATABASE_URL").expect("DATABASE_URL must point at a PostgreSQL server (make test sets it)")
}

/// The same server URL with another user name.
pub fn with_user(url: &str, user: &str) -> String {
    let scheme_end = url.find("://").map(|i| i + 3).unwrap_or(0);
    let rest = &url[scheme_end..];
    let host_start = rest.find('@').map(|i| i + 1).unwrap_or(0);
    format!("{}{user}@{}", &url[..scheme_end], &rest[host_start..])
}

/// The same server URL with another database name.
pub fn with_database(url: &str, name: &str) -> String {
    let (head, query) = match url.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (url, None),
    };
    let scheme_end = head.find("://").map(|i| i + 3).unwrap_or(0);
    let base = match head[scheme_end..].find('/') {
        Some(i) => &head[..scheme_end + i],
        None => head,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with_pool(8).await
}

/// A server of its own with the company `acme` (see [`TestApp::create_company`]); answers it and
/// the admin's token.
pub async fn spawn_acme() -> (TestApp, String) {
    let app = spawn_app().await;
    let (_, admin) = app.create_company("acme").await;
    (app, admin)
}

pub async fn spawn_app_with_pool(pool_size: usize) -> TestApp {
    spawn(pool_size, "target/no-client".into()).await
}

/// A running server whose built client is the folder `client_dir`.
pub async fn spawn_app_serving(client_dir: &std::path::Path) -> TestApp {
    spawn(8, client_dir.to_path_buf()).await
}

async fn spawn(pool_size: usize, client_dir: std::path::PathBuf) -> TestApp {
    let maintenance_url = with_database(&server_url(), "postgres");
    let db_name = format!("loyalty_test_{}", uuid::Uuid::new_v4().simple());
    let admin = loyalty::db::connect_dedicated(&maintenance_url).await.expect("connect to PostgreSQL");
    // Tests run in parallel: a concurrent creation of the role is as good as our own.
    let _ = admin
        .batch_execute(&format!(
            "do $$ begin create role {APP_ROLE} login nosuperuser nocreatedb nocreaterole; \
             exception when others then null; end $$"
        ))
        .await;
    admin.batch_execute(&format!("create database {db_name} owner {APP_ROLE}")).await.expect("create test database");
    let admin_db_url = with_database(&server_url(), &db_name);
    let db_url = with_user(&admin_db_url, APP_ROLE);

    migrate::run_platform_migrations(&db_url).await.expect("platform migrations");
    platform::upsert_super_admin(&db_url, SUPER_ADMIN, SUPER_PASSWORD.into()).await.expect("super admin");

    let config = Config {
        db: DbConfig {
            url: Secret::new(db_url.clone()),
            pool_url: None,
            pool_size,
            min_choices: 2,
            conn_max_age: Duration::from_secs(600),
            statements_per_connection: 4_000,
            home_patience: Duration::from_millis(20),
        },
        jwt_secret: Secret::new(JWT_SECRET.into()),
        token_ttl: Duration::from_secs(3600),
        client_dir,
        migrate_concurrency: 4,
        login: LoginPolicy { delay_step: Duration::from_millis(100), ..LoginPolicy::default() },
        trust_proxy: false,
        metrics_token: Some(Secret::new(METRICS_TOKEN.into())),
        // Local receivers, and retries in milliseconds (tests/api/webhooks.rs); no worker runs
        // unless a test starts one.
        webhooks: WebhookConfig {
            allow_private: true,
            retry_base: Duration::from_millis(200),
            disable_after: 4,
            poll_every: Duration::from_millis(50),
            ..WebhookConfig::default()
        },
    };
    let state = AppState::new(config).expect("state");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = format!("http://{}", listener.local_addr().unwrap());
    let app = loyalty::app(state.clone());
    let service = app.into_make_service_with_connect_info::<std::net::SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, service).await.expect("server") });

    let mut app = TestApp {
        address,
        // The tests read the server's messages in English; Spanish, the default, has tests of its own.
        http: reqwest::Client::builder()
            .default_headers([(reqwest::header::ACCEPT_LANGUAGE, "en".parse().unwrap())].into_iter().collect())
            .build()
            .unwrap(),
        db_url,
        admin_db_url,
        db_name,
        maintenance_url,
        state,
        super_token: String::new(),
    };
    app.super_token = app.login_ok(SUPER_ADMIN, SUPER_PASSWORD).await;
    app
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let url = self.maintenance_url.clone();
        let name = self.db_name.clone();
        // Best effort: the database is throwaway either way.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(async {
                if let Ok(client) = loyalty::db::connect_dedicated(&url).await {
                    let _ = client.batch_execute(&format!("drop database if exists {name} with (force)")).await;
                }
            });
        })
        .join();
    }
}

/// A status and a JSON body (`Value::Null` when the body is not JSON).
pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
}

impl Answer {
    pub fn message(&self) -> &str {
        self.body["message"].as_str().unwrap_or_default()
    }

    /// The stable code of an error answer.
    pub fn code(&self) -> &str {
        self.body["code"].as_str().unwrap_or_default()
    }

    /// Asserts an error answer's status and message (a failure shows the whole body).
    pub fn assert_error(&self, status: StatusCode, message: &str) {
        assert_eq!(self.status, status, "{}", self.body);
        assert_eq!(self.message(), message, "{}", self.body);
    }
}

/// How many answers of a burst were refused (401) and how many throttled (429); asserts that
/// each was one or the other.
pub fn refused_and_throttled(answers: &[Answer]) -> (usize, usize) {
    let count = |status| answers.iter().filter(|a| a.status == status).count();
    let (refused, throttled) = (count(StatusCode::UNAUTHORIZED), count(StatusCode::TOO_MANY_REQUESTS));
    assert_eq!(
        refused + throttled,
        answers.len(),
        "only 401 and 429: {:?}",
        answers.iter().map(|a| a.status).collect::<Vec<_>>()
    );
    (refused, throttled)
}

/// The text `field` of each item of a list, or of a page's `items`.
pub fn texts(list: &Value, field: &str) -> Vec<String> {
    let items = list.get("items").unwrap_or(list);
    items.as_array().unwrap().iter().map(|item| item[field].as_str().unwrap().to_string()).collect()
}

/// The operation `method` of `path` in an OpenAPI document, which must list it.
pub fn documented_operation<'a>(doc: &'a Value, path: &str, method: &str) -> &'a Value {
    let operation = doc["paths"].get(path).and_then(|p| p.get(method));
    operation.unwrap_or_else(|| panic!("{method} {path} missing"))
}

impl TestApp {
    pub async fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let method_is_enrolment = method == reqwest::Method::POST && path == "/api/customers";
        let mut req = self.http.request(method, format!("{}{}", self.address, path));
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        let body = match (&method_is_enrolment, body) {
            (true, Some(body)) => Some(self.with_consent(token, body).await),
            (_, body) => body,
        };
        if let Some(body) = body {
            req = req.json(&body);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        let text = res.text().await.unwrap_or_default();
        Answer { status, body: serde_json::from_str(&text).unwrap_or(Value::Null) }
    }

    /// An enrolment's body with the customer's consent to the notice in force (every purpose
    /// granted, at a store) when it has no `consent` of its own: every helper that enrols sends a
    /// valid one, and the tests of the consent itself send theirs (or `"consent": null`).
    pub async fn with_consent(&self, token: Option<&str>, mut body: Value) -> Value {
        let Some(fields) = body.as_object_mut() else { return body };
        if fields.contains_key("consent") {
            if fields["consent"].is_null() {
                fields.remove("consent");
            }
            return body;
        }
        let notice = self.current_notice(token.unwrap_or_default()).await;
        let purposes: Vec<Value> =
            notice["purposes"].as_array().into_iter().flatten().map(|p| p["key"].clone()).collect();
        let version = notice["version"].as_i64().unwrap_or(1);
        fields.insert("consent".into(), json!({ "noticeVersion": version, "purposes": purposes, "channel": "store" }));
        body
    }

    /// The privacy notice in force (`Value::Null` when the token cannot read it).
    pub async fn current_notice(&self, token: &str) -> Value {
        let res = self
            .http
            .get(format!("{}/api/privacy-notices/current", self.address))
            .bearer_auth(token)
            .send()
            .await
            .expect("request");
        res.json().await.unwrap_or(Value::Null)
    }

    pub async fn get(&self, path: &str, token: &str) -> Answer {
        self.request(reqwest::Method::GET, path, Some(token), None).await
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> Answer {
        self.request(reqwest::Method::POST, path, Some(token), Some(body)).await
    }

    pub async fn put(&self, path: &str, token: &str, body: Value) -> Answer {
        self.request(reqwest::Method::PUT, path, Some(token), Some(body)).await
    }

    pub async fn delete(&self, path: &str, token: &str) -> Answer {
        self.request(reqwest::Method::DELETE, path, Some(token), None).await
    }

    /// Posts a new record to `path`, which must be created; answers its id.
    pub async fn create(&self, path: &str, token: &str, body: Value) -> i64 {
        let answer = self.post(path, token, body).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{path}: {}", answer.body);
        answer.body["id"].as_i64().unwrap()
    }

    /// Posts each body to `path`: each must be refused as a bad request with its message (a
    /// failure names the body).
    pub async fn assert_bad_requests(&self, path: &str, token: &str, cases: impl IntoIterator<Item = (Value, &str)>) {
        for (body, message) in cases {
            let answer = self.post(path, token, body.clone()).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
            assert_eq!(answer.message(), message, "{body}");
        }
    }

    /// Posts `first`, which must be created, then `again`, which must be refused as a conflict
    /// with `message`.
    pub async fn assert_duplicate(&self, path: &str, token: &str, first: Value, again: Value, message: &str) {
        let created = self.post(path, token, first).await;
        assert_eq!(created.status, StatusCode::CREATED, "{path}: {}", created.body);
        self.post(path, token, again).await.assert_error(StatusCode::CONFLICT, message);
    }

    /// The server's OpenAPI document.
    pub async fn openapi(&self) -> Value {
        let answer = self.request(reqwest::Method::GET, "/api/openapi.json", None, None).await;
        assert_eq!(answer.status, StatusCode::OK);
        answer.body
    }

    pub async fn login(&self, username: &str, password: &str) -> Answer {
        self.request(
            reqwest::Method::POST,
            "/api/login",
            None,
            Some(json!({ "username": username, "password": password })),
        )
        .await
    }

    pub async fn login_ok(&self, username: &str, password: &str) -> String {
        let answer = self.login(username, password).await;
        assert_eq!(answer.status, StatusCode::OK, "login {username}: {}", answer.body);
        answer.body["token"].as_str().unwrap().to_string()
    }

    /// Creates a company through the API; answers its id and its admin's token.
    pub async fn create_company(&self, prefix: &str) -> (i64, String) {
        let answer = self
            .post(
                "/api/super/companies",
                &self.super_token,
                json!({ "name": format!("Company {prefix}"), "prefix": prefix, "taxId": "900100200-1", "adminPassword": "admin-pass-1" }),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "create {prefix}: {}", answer.body);
        let id = answer.body["id"].as_i64().unwrap();
        let token = self.login_ok(&format!("admin@{prefix}"), "admin-pass-1").await;
        (id, token)
    }

    /// A superuser connection to this test's database, for checks and fault injection.
    pub async fn db(&self) -> tokio_postgres::Client {
        loyalty::db::connect_dedicated(&self.admin_db_url).await.expect("connect")
    }

    /// A connection as the server's own role.
    pub async fn app_db(&self) -> tokio_postgres::Client {
        loyalty::db::connect_dedicated(&self.db_url).await.expect("connect")
    }

    /// Runs statements as a superuser (set-up and fault injection); a failure names them.
    pub async fn sql(&self, statements: &str) {
        self.db().await.batch_execute(statements).await.expect(statements);
    }

    /// Runs one statement with parameters as a superuser; a failure names it.
    pub async fn sql_with(&self, statement: &str, params: &[&(dyn tokio_postgres::types::ToSql + Sync)]) {
        self.db().await.execute(statement, params).await.expect(statement);
    }

    /// Runs a statement that PostgreSQL refuses for its input on the server's pool: the error must
    /// be the input's fault, a 400.
    pub async fn assert_refused_as_bad_request(
        &self,
        statement: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) {
        let conn = self.state.pool.get().await.unwrap();
        let refused = conn.query_one(statement, params).await.unwrap_err();
        let error = loyalty::error::AppError::from(refused);
        assert_eq!(error.status(), StatusCode::BAD_REQUEST, "{error:?}");
    }

    pub async fn count(&self, sql: &str) -> i64 {
        self.db().await.query_one(sql, &[]).await.expect(sql).get(0)
    }

    /// The first column of every row `sql` answers, as text.
    pub async fn texts(&self, sql: &str) -> Vec<String> {
        self.db().await.query(sql, &[]).await.expect(sql).iter().map(|row| row.get(0)).collect()
    }

    /// The schema of the company under `prefix`, as its platform row names it.
    pub async fn schema_of(&self, prefix: &str) -> String {
        self.db()
            .await
            .query_one("select schema_name from platform.companies where prefix = $1", &[&prefix])
            .await
            .unwrap_or_else(|err| panic!("no company {prefix}: {err}"))
            .get(0)
    }

    pub async fn schema_exists(&self, schema: &str) -> bool {
        self.db()
            .await
            .query_one("select exists (select 1 from pg_namespace where nspname = $1)", &[&schema])
            .await
            .unwrap()
            .get(0)
    }
}

/// A company with its admin, one point of sale and one user placed at it.
pub struct Staffed {
    pub company: i64,
    /// The admin's token.
    pub admin: String,
    pub pos: i64,
    pub user: i64,
    /// The user's token.
    pub token: String,
}

impl TestApp {
    /// Creates the company `prefix` (see [`TestApp::create_company`]) with the point of sale
    /// `pos` and the user `username` of `role` at it (see [`TestApp::create_user`]).
    pub async fn staffed_company(&self, prefix: &str, pos: &str, username: &str, role: &str) -> Staffed {
        let (company, admin) = self.create_company(prefix).await;
        let pos = self.create_pos(&admin, pos).await;
        let (user, token) = self.create_user(&admin, prefix, username, role, Some(pos)).await;
        Staffed { company, admin, pos, user, token }
    }

    /// Creates a point of sale as this admin; answers its id.
    pub async fn create_pos(&self, admin_token: &str, name: &str) -> i64 {
        self.create("/api/pos", admin_token, json!({ "name": name })).await
    }

    /// Creates a user and logs them in; answers (user id, token).
    pub async fn create_user(
        &self,
        admin_token: &str,
        prefix: &str,
        username: &str,
        role: &str,
        pos: Option<i64>,
    ) -> (i64, String) {
        let answer = self
            .post(
                "/api/users",
                admin_token,
                json!({ "username": username, "password": "user-pass-1", "role": role, "posId": pos }),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
        let token = self.login_ok(&format!("{username}@{prefix}"), "user-pass-1").await;
        (answer.body["id"].as_i64().unwrap(), token)
    }
}
