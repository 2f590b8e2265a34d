//! Real parts for failure tests: PostgreSQL programs run as the data folder's owner, a private
//! cluster with durable commits, the `loyalty serve` binary as a child process, a load of keyed
//! accredit/redeem requests, and the check that every answered request is in the ledger exactly
//! once.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{JWT_SECRET, SUPER_ADMIN, SUPER_PASSWORD};

/// Where the repository is checked out (for `deploy/` scripts).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("server/ has a parent").to_path_buf()
}

/// A port nobody listens on right now, below the ephemeral range, so that no outgoing
/// connection takes it before the process meant to listen on it does.
pub fn free_port() -> u16 {
    let mut rng = rand::rng();
    for _ in 0..1000 {
        let port = rng.random_range(20_000..30_000);
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port between 20000 and 30000");
}

pub fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
        .unwrap_or(false)
}

/// A PostgreSQL program: from the newest `/usr/lib/postgresql/*/bin` (pg_autoctl looks for the
/// other programs beside `pg_ctl`, so a link elsewhere will not do), else from PATH.
pub fn pg_program(name: &str) -> PathBuf {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|dirs| {
            dirs.filter_map(|entry| {
                let entry = entry.ok()?;
                let major = entry.file_name().to_str()?.parse::<u32>().ok()?;
                Some((major, entry.path().join("bin").join(name)))
            })
            .filter(|(_, path)| path.is_file())
            .collect()
        })
        .unwrap_or_default();
    versions.sort();
    if let Some((_, path)) = versions.pop() {
        return path;
    }
    std::env::var("PATH")
        .ok()
        .and_then(|path| std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.is_file()))
        .unwrap_or_else(|| panic!("PostgreSQL program {name} not found"))
}

/// A command run as the owner of the PostgreSQL data folders: the `postgres` user when the
/// tests run as root (PostgreSQL refuses to run as root), else the current user.
pub fn as_pg_owner(program: &Path) -> std::process::Command {
    if is_root() {
        let mut command = std::process::Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        std::process::Command::new(program)
    }
}

/// A new empty folder in the temporary directory, owned by the PostgreSQL owner.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loyalty-{name}-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    if is_root() {
        let status = std::process::Command::new("chown").arg("postgres").arg(&dir).status().unwrap();
        assert!(status.success(), "chown postgres {}", dir.display());
    }
    dir
}

/// Runs a command to its end; panics with its output when it fails. Answers its stdout.
pub async fn run(command: &mut tokio::process::Command, what: &str) -> String {
    let out = command.output().await.unwrap_or_else(|err| panic!("{what}: {err}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Settings that make a commit durable before it is answered, whatever the caller's
/// `PG_EXTRA_OPTS` say (`make test` runs its own cluster without them).
const DURABLE: &str = "-c fsync=on -c synchronous_commit=on -c full_page_writes=on";

/// A PostgreSQL cluster of this test's own (`deploy/local-postgres.sh`), which it may crash.
pub struct PrivatePostgres {
    dir: PathBuf,
    pub port: u16,
}

impl PrivatePostgres {
    /// initdb, start, and the production set-up SQL (role `loyalty_app`, database `loyalty`).
    pub async fn start() -> PrivatePostgres {
        let pg = PrivatePostgres { dir: scratch_dir("pg"), port: free_port() };
        pg.start_again().await;
        run(pg.script().arg("app-url").arg(&pg.dir).arg(pg.port.to_string()), "database set-up").await;
        pg
    }

    fn script(&self) -> tokio::process::Command {
        let mut command = tokio::process::Command::new(repo_root().join("deploy/local-postgres.sh"));
        command.env("PG_EXTRA_OPTS", DURABLE);
        command
    }

    /// Starts the stopped cluster (after a crash: recovery from the write-ahead log).
    pub async fn start_again(&self) {
        run(self.script().arg("start").arg(&self.dir).arg(self.port.to_string()), "start PostgreSQL").await;
    }

    /// Stops it like a power cut would, as far as PostgreSQL is concerned: every process quits
    /// at once, with no checkpoint; the next start recovers from the write-ahead log.
    pub async fn stop_immediate(&self) {
        let mut pg_ctl = as_pg_owner(&pg_program("pg_ctl"));
        pg_ctl.arg("-D").arg(self.dir.join("data")).args(["-m", "immediate", "-w", "stop"]);
        run(&mut pg_ctl.into(), "pg_ctl stop -m immediate").await;
    }

    /// The server's URL (least-privilege role).
    pub fn app_url(&self) -> String {
        format!("postgres://loyalty_app@127.0.0.1:{}/loyalty", self.port)
    }

    /// A superuser URL to the same database, for checks.
    pub fn admin_url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/loyalty", self.port)
    }
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        let _ = std::process::Command::new(repo_root().join("deploy/local-postgres.sh"))
            .arg("stop")
            .arg(&self.dir)
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Platform tables and the test's super admin, as `loyalty create-super-admin` makes them.
pub async fn prepare_database(app_url: &str) {
    loyalty::migrate::run_platform_migrations(app_url).await.expect("platform migrations");
    loyalty::platform::upsert_super_admin(app_url, SUPER_ADMIN, SUPER_PASSWORD.into()).await.expect("super admin");
}

/// `loyalty serve` as a child process, logging JSON lines to a file.
pub struct ServerProcess {
    child: Option<std::process::Child>,
    pub name: String,
    pub base: String,
    log: PathBuf,
}

impl ServerProcess {
    /// Starts the binary on `port` and waits until it answers `/readyz`.
    pub async fn start(name: &str, db_url: &str, port: u16, env: &[(&str, &str)]) -> ServerProcess {
        let server = ServerProcess::spawn(name, db_url, port, env);
        server.wait_ready().await;
        server
    }

    /// Starts the binary without waiting for it.
    pub fn spawn(name: &str, db_url: &str, port: u16, env: &[(&str, &str)]) -> ServerProcess {
        let log = std::env::temp_dir().join(format!("loyalty-{name}-{}.log", uuid::Uuid::new_v4().simple()));
        let file = std::fs::File::create(&log).unwrap();
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_loyalty"));
        command
            .arg("serve")
            .env("DATABASE_URL", db_url)
            .env("JWT_SECRET", JWT_SECRET)
            .env("BIND_ADDR", format!("127.0.0.1:{port}"))
            .env("CLIENT_DIR", "target/no-client")
            .env("DB_POOL_SIZE", "8")
            .env("RUST_LOG", "info")
            .env("LOG_FORMAT", "json")
            .env_remove("METRICS_TOKEN")
            .env_remove("TRUST_PROXY")
            .stdout(file.try_clone().unwrap())
            .stderr(file);
        for (key, value) in env {
            command.env(key, value);
        }
        let child = command.spawn().expect("start loyalty serve");
        ServerProcess { child: Some(child), name: name.to_string(), base: format!("http://127.0.0.1:{port}"), log }
    }

    /// Waits (at most 30 s) until the process answers `/readyz`.
    pub async fn wait_ready(&self) {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(2)).build().unwrap();
        for _ in 0..300 {
            if http.get(format!("{}/readyz", self.base)).send().await.map(|r| r.status().is_success()).unwrap_or(false)
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("{} did not become ready:\n{}", self.name, self.log_text());
    }

    /// `kill -9`: the process ends at once, mid-request.
    pub fn kill_9(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().expect("kill -9 the server");
            child.wait().unwrap();
        }
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The `fields` of this process's JSON log lines with this message.
    pub fn logged(&self, message: &str) -> Vec<Value> {
        self.log_text()
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(|line| line["fields"]["message"] == message)
            .map(|line| line["fields"].clone())
            .collect()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill_9();
        let _ = std::fs::remove_file(&self.log);
    }
}

/// One server's HTTP API.
#[derive(Clone)]
pub struct Api {
    pub http: reqwest::Client,
    pub base: String,
}

impl Api {
    pub fn new(base: &str) -> Api {
        // Bounded: a request the server never answers is given up after 40 s.
        let http = reqwest::Client::builder().timeout(Duration::from_secs(40)).build().unwrap();
        Api { http, base: base.to_string() }
    }

    /// A POST; answers the status, the JSON body and whether it was a replayed answer.
    pub async fn post(
        &self,
        path: &str,
        token: Option<&str>,
        key: Option<&str>,
        body: &Value,
    ) -> reqwest::Result<(StatusCode, Value, bool)> {
        let mut request = self.http.post(format!("{}{path}", self.base)).json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        let response = request.send().await?;
        let status = response.status();
        let replayed = response.headers().contains_key("idempotent-replayed");
        let body = response.json().await.unwrap_or(Value::Null);
        Ok((status, body, replayed))
    }

    pub async fn login(&self, username: &str, password: &str) -> String {
        let (status, body, _) = self
            .post("/api/login", None, None, &json!({ "username": username, "password": password }))
            .await
            .expect("login");
        assert_eq!(status, StatusCode::OK, "login {username}: {body}");
        body["token"].as_str().unwrap().to_string()
    }

    /// A company earning 1 point per 100 COP, with `customers` customers; answers its admin's
    /// token and the customers' ids.
    pub async fn company_with_customers(&self, prefix: &str, customers: usize) -> (String, Vec<i64>) {
        let root = self.login(SUPER_ADMIN, SUPER_PASSWORD).await;
        let company = json!({ "name": format!("Company {prefix}"), "prefix": prefix, "taxId": "900100200-1",
                              "adminPassword": "admin-pass-1" });
        let (status, body, _) = self.post("/api/super/companies", Some(&root), None, &company).await.unwrap();
        assert_eq!(status, StatusCode::CREATED, "create {prefix}: {body}");
        let admin = self.login(&format!("admin@{prefix}"), "admin-pass-1").await;
        let settings = json!({ "pointsPerPeso": 0.01, "redemptionRate": 1 });
        let (status, body, _) = self.post("/api/settings", Some(&admin), None, &settings).await.unwrap();
        assert_eq!(status, StatusCode::OK, "settings: {body}");
        let mut ids = Vec::new();
        for n in 0..customers {
            // A new company's privacy notice is its version 1.
            let consent = json!({ "noticeVersion": 1, "purposes": ["loyalty"], "channel": "store" });
            let customer =
                json!({ "document": format!("DOC-{n}"), "name": format!("Cliente {n}"), "consent": consent });
            let (status, body, _) = self.post("/api/customers", Some(&admin), None, &customer).await.unwrap();
            assert_eq!(status, StatusCode::CREATED, "customer: {body}");
            ids.push(body["id"].as_i64().unwrap());
        }
        (admin, ids)
    }
}

/// What a till asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Accredit,
    Redeem,
}

impl Kind {
    fn ledger_type(self) -> &'static str {
        match self {
            Kind::Accredit => "accreditation",
            Kind::Redeem => "redemption",
        }
    }
}

/// One keyed request: retries send the same key and the same body.
#[derive(Clone, Debug)]
pub struct Request {
    pub key: String,
    pub customer: i64,
    pub kind: Kind,
    pub body: Value,
}

impl Request {
    /// An accreditation of `amount` COP for the invoice `reference`.
    pub fn accredit(key: impl Into<String>, customer: i64, amount: i64, reference: &str) -> Request {
        let body = json!({ "invoiceAmount": amount, "invoiceReference": reference });
        Request { key: key.into(), customer, kind: Kind::Accredit, body }
    }

    /// A redemption of `points` free points (no product, description or reference).
    pub fn redeem(key: impl Into<String>, customer: i64, points: i64) -> Request {
        let body = json!({ "pointsToRedeem": points, "description": "", "invoiceReference": "", "productId": null });
        Request { key: key.into(), customer, kind: Kind::Redeem, body }
    }

    pub fn random(key: String, customer: i64, rng: &mut impl Rng) -> Request {
        if rng.random_bool(0.5) {
            let amount: i64 = rng.random_range(100..=20_000);
            // One invoice per request: a retry (the same key) sends the same one.
            let reference = format!("F-{key}");
            Request::accredit(key, customer, amount, &reference)
        } else {
            Request::redeem(key, customer, rng.random_range(1..=150))
        }
    }

    fn path(&self) -> String {
        match self.kind {
            Kind::Accredit => format!("/api/customers/{}/accredit", self.customer),
            Kind::Redeem => format!("/api/customers/{}/redeem", self.customer),
        }
    }

    /// Sends it once.
    pub async fn send(&self, api: &Api, token: &str) -> Outcome {
        match api.post(&self.path(), Some(token), Some(&self.key), &self.body).await {
            Ok((StatusCode::OK, body, replayed)) => Outcome::Posted {
                transaction: body["newTransaction"]["id"].as_i64().expect("answer names its transaction"),
                points: body["newTransaction"]["points"].as_i64().expect("answer has points"),
                replayed,
            },
            Ok((status, _, _)) => Outcome::Refused(status.as_u16()),
            Err(err) => Outcome::NoAnswer(err.to_string()),
        }
    }
}

/// What became of a request, as the till saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Answered 200 with this ledger row (`replayed`: the first answer, given again).
    Posted { transaction: i64, points: i64, replayed: bool },
    /// Answered with another status.
    Refused(u16),
    /// No answer: the connection broke or timed out.
    NoAnswer(String),
}

impl Outcome {
    /// Whether the request may have been applied without the till knowing: no answer, or a
    /// server error (the commit may have happened before the error).
    pub fn unsettled(&self) -> bool {
        match self {
            Outcome::Posted { .. } => false,
            Outcome::Refused(status) => *status >= 500,
            Outcome::NoAnswer(_) => true,
        }
    }
}

/// A request and its last outcome.
#[derive(Clone, Debug)]
pub struct Sent {
    pub request: Request,
    pub outcome: Outcome,
    /// Which of the load's APIs it went to.
    pub target: usize,
}

/// One attempt, for timing a failover.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub key: String,
    pub started: Instant,
    pub finished: Instant,
    pub ok: bool,
    /// The answer's status; `None`: no answer.
    pub status: Option<u16>,
}

/// How the load behaves.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Requests in flight at once.
    pub workers: usize,
    /// At most this many requests in all.
    pub max_requests: usize,
    /// Retry an unsettled request with the same key, this many times after the first, waiting
    /// `retry_delay` in between; a till does this after a network error or a 5xx.
    pub retries: u32,
    pub retry_delay: Duration,
}

/// Keyed accredit/redeem requests from several workers, each to random customers, spread over
/// one or more servers.
pub struct Load {
    sent: Arc<Mutex<Vec<Sent>>>,
    attempts: Arc<Mutex<Vec<Attempt>>>,
    posted: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    workers: Vec<tokio::task::JoinHandle<()>>,
}

impl Load {
    pub fn start(apis: Vec<Api>, token: &str, customers: &[i64], options: LoadOptions) -> Load {
        let run = uuid::Uuid::new_v4().simple().to_string();
        let sent = Arc::new(Mutex::new(Vec::new()));
        let attempts = Arc::new(Mutex::new(Vec::new()));
        let posted = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let issued = Arc::new(AtomicUsize::new(0));
        let workers = (0..options.workers)
            .map(|worker| {
                let (apis, token, customers, options) =
                    (apis.clone(), token.to_string(), customers.to_vec(), options.clone());
                let (sent, attempts, posted, stop, issued, run) =
                    (sent.clone(), attempts.clone(), posted.clone(), stop.clone(), issued.clone(), run.clone());
                tokio::spawn(async move {
                    let mut rng = rand::rngs::StdRng::from_os_rng();
                    while !stop.load(Ordering::SeqCst) {
                        let n = issued.fetch_add(1, Ordering::SeqCst);
                        if n >= options.max_requests {
                            break;
                        }
                        let target = (worker + n) % apis.len();
                        let customer = customers[rng.random_range(0..customers.len())];
                        let request = Request::random(format!("{run}-{worker}-{n}"), customer, &mut rng);
                        let mut tries = 0;
                        let outcome = loop {
                            let started = Instant::now();
                            let outcome = request.send(&apis[target], &token).await;
                            let ok = !outcome.unsettled();
                            let status = match outcome {
                                Outcome::Posted { .. } => Some(200),
                                Outcome::Refused(status) => Some(status),
                                Outcome::NoAnswer(_) => None,
                            };
                            let attempt =
                                Attempt { key: request.key.clone(), started, finished: Instant::now(), ok, status };
                            attempts.lock().unwrap().push(attempt);
                            if ok || tries >= options.retries {
                                break outcome;
                            }
                            tries += 1;
                            tokio::time::sleep(options.retry_delay).await;
                        };
                        if matches!(outcome, Outcome::Posted { .. }) {
                            posted.fetch_add(1, Ordering::SeqCst);
                        }
                        sent.lock().unwrap().push(Sent { request, outcome, target });
                    }
                })
            })
            .collect();
        Load { sent, attempts, posted, stop, workers }
    }

    /// Requests answered 200 so far.
    pub fn posted(&self) -> usize {
        self.posted.load(Ordering::SeqCst)
    }

    /// Waits until `n` requests were answered 200 (or every worker is done).
    pub async fn wait_for_posted(&self, n: usize) {
        while self.posted() < n && self.workers.iter().any(|w| !w.is_finished()) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Asks the workers to send nothing new; requests in flight go on.
    pub fn stop_sending(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Asks the workers to stop after their current request, waits, and answers everything sent.
    pub async fn finish(self) -> (Vec<Sent>, Vec<Attempt>) {
        self.stop_sending();
        self.finish_when_done().await
    }

    /// Waits until the workers have sent `max_requests`, and answers everything sent.
    pub async fn finish_when_done(self) -> (Vec<Sent>, Vec<Attempt>) {
        for worker in self.workers {
            worker.await.expect("load worker");
        }
        let sent = std::mem::take(&mut *self.sent.lock().unwrap());
        let attempts = std::mem::take(&mut *self.attempts.lock().unwrap());
        (sent, attempts)
    }
}

/// Sends every unsettled request again with its key, until it is answered (at most `tries`
/// times each, a second apart). Answers how many of them the first attempt had applied
/// (replayed answers) and how many were applied only now.
pub async fn settle(sent: &mut [Sent], apis: &[Api], token: &str, tries: u32) -> (usize, usize) {
    let (mut replayed, mut applied_now) = (0, 0);
    for item in sent.iter_mut().filter(|s| s.outcome.unsettled()) {
        for attempt in 0..tries {
            item.outcome = item.request.send(&apis[item.target], token).await;
            if !item.outcome.unsettled() {
                break;
            }
            assert!(
                attempt + 1 < tries,
                "request {} still unanswered after {tries} tries: {:?}",
                item.request.key,
                item.outcome
            );
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        match item.outcome {
            Outcome::Posted { replayed: true, .. } => replayed += 1,
            Outcome::Posted { replayed: false, .. } => applied_now += 1,
            _ => {}
        }
    }
    (replayed, applied_now)
}

/// Counts of a load's outcomes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    pub sent: usize,
    pub posted: usize,
    pub refused: usize,
    pub unsettled: usize,
}

pub fn tally(sent: &[Sent]) -> Tally {
    let mut tally = Tally { sent: sent.len(), ..Tally::default() };
    for item in sent {
        match item.outcome {
            Outcome::Posted { .. } => tally.posted += 1,
            ref other if other.unsettled() => tally.unsettled += 1,
            _ => tally.refused += 1,
        }
    }
    tally
}

/// The ledger agrees with what the tills were told:
/// - every request answered 200 is in the ledger exactly once: its key holds that answer and
///   names a posting of its customer, kind and points;
/// - every accreditation and redemption in the ledger belongs to exactly one key and every key
///   to one posting (nothing half-applied, nothing applied twice, nothing unkeyed);
/// - a request refused with a 4xx left no key and no posting;
/// - every balance equals its ledger and its batches (`assert_ledger_consistent_in`);
/// - when `settled`, every request has its final answer, and each customer's balance is the
///   sum of the points the tills were answered.
pub async fn assert_ledger_matches(db: &tokio_postgres::Client, schema: &str, sent: &[Sent], settled: bool) {
    db.batch_execute(&format!("set search_path to {schema}")).await.unwrap();
    let keys: HashMap<String, (i16, Option<i64>)> = db
        .query("select key, status, (response -> 'newTransaction' ->> 'id')::bigint from idempotency_keys", &[])
        .await
        .unwrap()
        .iter()
        .map(|row| (row.get(0), (row.get(1), row.get(2))))
        .collect();
    let postings: HashMap<i64, (i64, String, i64)> = db
        .query(
            "select id, customer_id, type, points from transactions where type in ('accreditation', 'redemption')",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|row| (row.get(0), (row.get(1), row.get(2), row.get(3))))
        .collect();

    let mut keyed_postings = HashSet::new();
    for (key, (status, transaction)) in &keys {
        assert_eq!(*status, 200, "key {key} holds status {status}: only successful answers are kept");
        let transaction = transaction.unwrap_or_else(|| panic!("key {key} names no transaction"));
        assert!(
            postings.contains_key(&transaction),
            "key {key} names transaction {transaction}, which is not in the ledger"
        );
        assert!(keyed_postings.insert(transaction), "transaction {transaction} is named by two keys");
    }
    let unkeyed: Vec<_> = postings.keys().filter(|id| !keyed_postings.contains(id)).collect();
    assert!(unkeyed.is_empty(), "postings that no request's key accounts for: {unkeyed:?}");

    let requested: HashSet<&str> = sent.iter().map(|s| s.request.key.as_str()).collect();
    let stray: Vec<_> = keys.keys().filter(|key| !requested.contains(key.as_str())).collect();
    assert!(stray.is_empty(), "keys no request sent: {stray:?}");

    // Per customer, the points of each key's answer (a key sent twice counts once).
    let mut answered_points: HashMap<i64, i64> = HashMap::new();
    let mut counted = HashSet::new();
    for item in sent {
        let key = &item.request.key;
        match &item.outcome {
            Outcome::Posted { transaction, points, .. } => {
                let (status, stored) =
                    keys.get(key).unwrap_or_else(|| panic!("request {key} was answered 200 but its key is gone"));
                assert_eq!((*status, *stored), (200, Some(*transaction)), "request {key}: key holds another answer");
                let (customer, kind, ledger_points) = &postings[transaction];
                assert_eq!(*customer, item.request.customer, "request {key}: posting of another customer");
                assert_eq!(kind, item.request.kind.ledger_type(), "request {key}: posting of another kind");
                assert_eq!(ledger_points, points, "request {key}: ledger points differ from the answer");
                if counted.insert(key) {
                    *answered_points.entry(item.request.customer).or_default() += points;
                }
            }
            Outcome::Refused(status) if *status < 500 => {
                assert!(!keys.contains_key(key), "request {key} was refused ({status}) but its key holds an answer");
            }
            other => assert!(!settled, "request {key} has no final answer: {other:?}"),
        }
    }

    crate::points::support::assert_ledger_consistent_in(db, schema).await;
    if settled {
        let balances = db.query("select id, points from customers", &[]).await.unwrap();
        for row in balances {
            let (customer, points): (i64, i64) = (row.get(0), row.get(1));
            let expected = answered_points.get(&customer).copied().unwrap_or(0);
            assert_eq!(
                points, expected,
                "customer {customer}: balance {points}, but the tills were answered {expected}"
            );
        }
    }
}
