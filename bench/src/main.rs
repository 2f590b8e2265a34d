//! Load generator for `make bench` (docs/performance.md).
//!
//! - `provision`: creates companies through the super admin API, `--concurrency` at a time, and
//!   prints the time each took; logs in as each company's admin and writes the tokens to a file
//!   (or, given the server's database and secret, signs its admins' tokens itself: at 10,000
//!   companies the logins were 10,000 argon2 checks, minutes of the machine that measure
//!   nothing of the issue's).
//! - `load`: drives `POST /api/customers/{id}/accredit` and `/redeem`, alternating, at a fixed
//!   concurrency for a fixed time, spread over every company of the tokens file; with
//!   `--mix all` also voids, reports, dashboards and expiration runs; `--timeline` prints
//!   every second's answers, errors and slowest answer; `--sweep N` instead serves every company
//!   N times, in a shuffled order, each pass one operation of the mix in turn (accreditations,
//!   then redemptions, for the sales), and ends then (what makes a run over thousands of
//!   companies start warm).
//! - `read`: times GET requests, one at a time.
//!
//! Every command prints human lines and ends with one `RESULT key=value ...` line for the
//! bench script to read.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use futures::{StreamExt, TryStreamExt};
use hdrhistogram::Histogram;
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{json, Value};

#[derive(Parser)]
#[command(name = "loyalty-bench", about = "Load generator for the loyalty benchmarks")]
struct Cli {
    /// The server's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080", global = true)]
    base: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create companies `<stem><from>` to `<stem><to>` and write `prefix<TAB>admin token` lines.
    Provision {
        #[arg(long)]
        super_user: String,
        #[arg(long, env = "BENCH_SUPER_PASSWORD")]
        super_password: String,
        #[arg(long, default_value = "b")]
        stem: String,
        #[arg(long, default_value_t = 1)]
        from: u32,
        #[arg(long)]
        to: u32,
        #[arg(long, default_value = "bench-admin-pass-1")]
        admin_password: String,
        /// Appended to, one line per company.
        #[arg(long)]
        tokens_out: PathBuf,
        /// Companies created at once.
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// Admin logins at once (each costs an argon2 verification on the server).
        #[arg(long, default_value_t = 2)]
        login_concurrency: usize,
        /// Milliseconds each creation waits after the one before it ended: an operator's pace,
        /// not a burst.
        #[arg(long, default_value_t = 0)]
        pause_ms: u64,
        /// Sign each admin's token with the server's `JWT_SECRET` instead of logging in: the
        /// claims a login would give, read from the database at `--database-url`.
        #[arg(long, env = "BENCH_JWT_SECRET", requires = "database_url")]
        jwt_secret: Option<String>,
        #[arg(long)]
        database_url: Option<String>,
    },
    /// Accredit and redeem, alternating, at random customers of random companies.
    Load {
        #[arg(long)]
        tokens: PathBuf,
        /// Customers per company; ids 1..=N must exist with enough points to redeem.
        #[arg(long, default_value_t = 10_000)]
        customers: i64,
        #[arg(long, default_value_t = 16)]
        concurrency: usize,
        #[arg(long, default_value_t = 20)]
        seconds: u64,
        /// Requests in this first part are sent but not counted.
        #[arg(long, default_value_t = 3)]
        warmup_seconds: u64,
        /// `sales`: accredit and redeem, alternating. `all`: also void the redemption just made,
        /// read the report and the dashboard, and now and then run the expiration.
        #[arg(long, value_enum, default_value = "sales")]
        mix: Mix,
        /// Print requests, errors and the slowest answer of every second.
        #[arg(long)]
        timeline: bool,
        /// Instead of running for `--seconds`, send each company this many requests, the
        /// companies in a shuffled order, and end when all are answered.
        #[arg(long)]
        sweep: Option<usize>,
    },
    /// Time GET requests one at a time: `--path name=/api/...`, repeatable.
    Read {
        #[arg(long)]
        token: String,
        #[arg(long = "path", required = true)]
        paths: Vec<String>,
        #[arg(long, default_value_t = 100)]
        requests: usize,
        #[arg(long, default_value_t = 5)]
        warmup: usize,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let base = cli.base.trim_end_matches('/').to_string();
    let http = reqwest::Client::builder().pool_max_idle_per_host(256).build()?;
    match cli.command {
        Command::Provision {
            super_user,
            super_password,
            stem,
            from,
            to,
            admin_password,
            tokens_out,
            concurrency,
            login_concurrency,
            pause_ms,
            jwt_secret,
            database_url,
        } => {
            let tokens = match (jwt_secret, database_url) {
                (Some(secret), Some(url)) => Tokens::Signed { secret, url },
                _ => Tokens::Login { concurrency: login_concurrency },
            };
            provision(
                &http,
                &base,
                &super_user,
                &super_password,
                &stem,
                from..=to,
                &admin_password,
                &tokens_out,
                concurrency,
                tokens,
                Duration::from_millis(pause_ms),
            )
            .await
        }
        Command::Load { tokens, customers, concurrency, seconds, warmup_seconds, mix, timeline, sweep } => {
            let tokens = read_tokens(&tokens)?;
            let run = Run {
                stamp: run_stamp(),
                customers,
                concurrency,
                duration: Duration::from_secs(seconds),
                warmup: Duration::from_secs(warmup_seconds),
                mix,
                timeline,
                sweep,
            };
            load(http, base, tokens, run).await
        }
        Command::Read { token, paths, requests, warmup } => read(&http, &base, &token, &paths, requests, warmup).await,
    }
}

fn read_tokens(path: &PathBuf) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let tokens: Vec<String> =
        text.lines().filter_map(|line| line.split_once('\t')).map(|(_, token)| token.trim().to_string()).collect();
    if tokens.is_empty() {
        bail!("{} holds no tokens", path.display());
    }
    Ok(tokens)
}

async fn login(http: &reqwest::Client, base: &str, username: &str, password: &str) -> anyhow::Result<String> {
    let answer = http
        .post(format!("{base}/api/login"))
        .json(&json!({ "username": username, "password": password }))
        .send()
        .await?;
    let status = answer.status();
    let body: Value = answer.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("login of {username} answered {status}: {body}");
    }
    body["token"].as_str().map(str::to_string).context("login answer has no token")
}

/// A quantile of a histogram of microseconds, in milliseconds.
fn millis_at(h: &Histogram<u64>, q: f64) -> f64 {
    h.value_at_quantile(q) as f64 / 1000.0
}

#[allow(clippy::too_many_arguments)]
async fn provision(
    http: &reqwest::Client,
    base: &str,
    super_user: &str,
    super_password: &str,
    stem: &str,
    numbers: std::ops::RangeInclusive<u32>,
    admin_password: &str,
    tokens_out: &PathBuf,
    concurrency: usize,
    tokens: Tokens,
    pause: Duration,
) -> anyhow::Result<()> {
    let super_token = login(http, base, super_user, super_password).await?;
    let super_token = &super_token;
    let started = Instant::now();
    let creations = numbers.map(|n| async move {
        tokio::time::sleep(pause).await;
        let prefix = format!("{stem}{n}");
        let body = json!({ "name": format!("Bench {prefix}"), "prefix": prefix, "taxId": "900000000-1", "adminPassword": admin_password });
        let t0 = Instant::now();
        let answer = http.post(format!("{base}/api/super/companies")).bearer_auth(super_token).json(&body).send().await?;
        let status = answer.status();
        let text = answer.text().await?;
        let micros = t0.elapsed().as_micros() as u64;
        if status.as_u16() != 201 {
            bail!("creating {prefix} answered {status}: {text}");
        }
        anyhow::Ok((prefix, micros))
    });
    let created: Vec<(String, u64)> =
        futures::stream::iter(creations).buffered(concurrency.max(1)).try_collect().await?;
    let mut times = Histogram::<u64>::new(3)?;
    for (_, micros) in &created {
        times.record(*micros)?;
    }
    let (count, seconds) = (created.len(), started.elapsed().as_secs_f64());
    let (p50, p99, max) = (millis_at(&times, 0.5), millis_at(&times, 0.99), times.max() as f64 / 1000.0);
    let paced = if pause.is_zero() { String::new() } else { format!(", each {} ms after the last", pause.as_millis()) };
    println!(
        "provisioned {count} companies in {seconds:.1} s, {concurrency} at a time{paced}: per company p50 {p50:.1} ms, p99 {p99:.1} ms, max {max:.1} ms"
    );

    let prefixes: Vec<&str> = created.iter().map(|(prefix, _)| prefix.as_str()).collect();
    let lines = match tokens {
        Tokens::Login { concurrency } => log_in_as_admins(http, base, &prefixes, admin_password, concurrency).await?,
        Tokens::Signed { secret, url } => sign_admin_tokens(&prefixes, &secret, &url).await?,
    };
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(tokens_out)?;
    for line in lines {
        file.write_all(line.as_bytes())?;
    }
    println!("RESULT companies={count} seconds={seconds:.2} p50_ms={p50:.1} p99_ms={p99:.1} max_ms={max:.1}");
    Ok(())
}

/// How `provision` gets each company's admin token.
enum Tokens {
    /// `POST /api/login` as `admin@<prefix>`, this many at once.
    Login { concurrency: usize },
    /// Signed here with the server's secret, from the admin's row in the company's schema.
    Signed { secret: String, url: String },
}

/// `prefix<TAB>token` lines, each company's admin logged in through the API.
async fn log_in_as_admins(
    http: &reqwest::Client,
    base: &str,
    prefixes: &[&str],
    password: &str,
    concurrency: usize,
) -> anyhow::Result<Vec<String>> {
    let started = Instant::now();
    let logins = prefixes.iter().map(|prefix| async move {
        let token = login(http, base, &format!("admin@{prefix}"), password).await?;
        anyhow::Ok(format!("{prefix}\t{token}\n"))
    });
    let lines: Vec<String> = futures::stream::iter(logins).buffered(concurrency.max(1)).try_collect().await?;
    println!("logged in as their admins in {:.1} s, {concurrency} at a time", started.elapsed().as_secs_f64());
    Ok(lines)
}

/// `prefix<TAB>token` lines, each company's admin token signed with the server's secret: the
/// claims a login gives (`loyalty::session::UserView::claims`), from the company's platform row
/// and its admin's row, read on one connection to the server's database.
async fn sign_admin_tokens(prefixes: &[&str], secret: &str, url: &str) -> anyhow::Result<Vec<String>> {
    use loyalty::config::Secret;
    use loyalty::session::{Claims, JwtKeys};

    let started = Instant::now();
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.context("connecting")?;
    tokio::spawn(connection);
    let keys = JwtKeys::new(&Secret::new(secret.to_string()), Duration::from_secs(24 * 3600));
    let companies = client
        .query(
            "select prefix, id, schema_name from platform.companies where prefix = any($1) and state = 'active'",
            &[&prefixes],
        )
        .await?;
    let mut lines = Vec::with_capacity(companies.len());
    for company in companies {
        let (prefix, company_id, schema): (String, i64, String) = (company.get(0), company.get(1), company.get(2));
        let schema = format!("\"{}\"", schema.replace('"', "\"\""));
        let admin = client
            .query_one(
                &format!(
                    "select id, username, role, pos_id, session_version from {schema}.users where username = 'admin'"
                ),
                &[],
            )
            .await
            .with_context(|| format!("reading {prefix}'s admin"))?;
        let claims = Claims {
            uid: admin.get(0),
            username: admin.get(1),
            role: admin.get(2),
            company_id: Some(company_id),
            prefix: Some(prefix.clone()),
            pos_id: admin.get(3),
            impersonated_by: None,
            sv: admin.get(4),
            iat: 0,
            exp: 0,
        };
        let token = keys.issue(claims).map_err(|err| anyhow::anyhow!("signing {prefix}'s token: {err:?}"))?;
        lines.push(format!("{prefix}\t{token}\n"));
    }
    if lines.len() != prefixes.len() {
        bail!("{} of {} companies found active", lines.len(), prefixes.len());
    }
    println!("signed their admins' tokens in {:.1} s (the server's secret, no login)", started.elapsed().as_secs_f64());
    Ok(lines)
}

/// Which requests `load` sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Mix {
    Sales,
    All,
}

/// The operations of the `all` mix, in the order each worker cycles through them; the
/// expiration runs once every `EXPIRE_EVERY` cycles of a worker.
const ALL_MIX: [&str; 6] = ["accredit", "redeem", "void", "accredit", "report", "dashboard"];
const EXPIRE_EVERY: u64 = 50;

struct Run {
    /// Tells this run's invoice references and idempotency keys apart from every other run's:
    /// a company credits an invoice once, and the bench runs the load many times against the
    /// same companies.
    stamp: String,
    customers: i64,
    concurrency: usize,
    duration: Duration,
    warmup: Duration,
    mix: Mix,
    timeline: bool,
    /// Serve each company this many times, then end (no time limit, no warm-up).
    sweep: Option<usize>,
}

/// One second of the run: answers, errors and the slowest answer (microseconds).
#[derive(Clone, Copy, Default)]
struct Second {
    ok: u64,
    errors: u64,
    max_us: u64,
}

#[derive(Default)]
struct WorkerTally {
    histogram: Option<Histogram<u64>>,
    ok: u64,
    errors: std::collections::BTreeMap<String, u64>,
    per_operation: std::collections::BTreeMap<&'static str, u64>,
    seconds: Vec<Second>,
}

/// The start of this run in nanoseconds since the epoch, in hexadecimal.
fn run_stamp() -> String {
    format!("{:x}", SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos()))
}

/// One request of the mix: its name, method, path and body. `n` numbers the worker's requests
/// (their invoice references), `turn` picks the operation.
fn next_request(
    run: &Run,
    worker: usize,
    n: u64,
    turn: u64,
    customer: i64,
    last_redemption: Option<i64>,
) -> (&'static str, reqwest::Method, String, Option<Value>) {
    let (amount, points) = {
        let mut rng = rand::rng();
        (rng.random_range(10_000..=200_000i64), rng.random_range(1..=50i64))
    };
    let operation = match run.mix {
        Mix::Sales if turn.is_multiple_of(2) => "accredit",
        Mix::Sales => "redeem",
        Mix::All if turn > 0 && turn.is_multiple_of(EXPIRE_EVERY * ALL_MIX.len() as u64) => "expire",
        Mix::All => ALL_MIX[(turn % ALL_MIX.len() as u64) as usize],
    };
    let post = reqwest::Method::POST;
    match (operation, last_redemption) {
        ("accredit", _) => (
            "accredit",
            post,
            format!("/api/customers/{customer}/accredit"),
            Some(json!({ "invoiceAmount": amount, "invoiceReference": format!("F-{}-{worker}-{n}", run.stamp) })),
        ),
        ("void", Some(id)) => ("void", post, format!("/api/transactions/{id}/void"), Some(json!({}))),
        ("redeem", _) | ("void", None) => {
            ("redeem", post, format!("/api/customers/{customer}/redeem"), Some(json!({ "pointsToRedeem": points })))
        }
        ("report", _) => ("report", reqwest::Method::GET, "/api/transactions/search?page=1&pageSize=25".into(), None),
        ("dashboard", _) => ("dashboard", reqwest::Method::GET, "/api/stats/dashboard".into(), None),
        _ => ("expire", post, "/api/tasks/expire-points".into(), Some(json!({}))),
    }
}

async fn load(http: reqwest::Client, base: String, tokens: Vec<String>, run: Run) -> anyhow::Result<()> {
    let tokens = Arc::new(tokens);
    let run = Arc::new(run);
    let stop = Arc::new(AtomicBool::new(false));
    // A sweep's requests, in order: each company once per pass, every pass shuffled.
    let sweep: Arc<Vec<usize>> = Arc::new(match run.sweep {
        Some(passes) => {
            let mut rng = rand::rng();
            (0..passes)
                .flat_map(|_| {
                    let mut pass: Vec<usize> = (0..tokens.len()).collect();
                    pass.shuffle(&mut rng);
                    pass
                })
                .collect()
        }
        None => Vec::new(),
    });
    let swept = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let measure_from = if run.sweep.is_some() { started } else { started + run.warmup };
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..run.concurrency {
        let (http, base, tokens, stop, run) = (http.clone(), base.clone(), tokens.clone(), stop.clone(), run.clone());
        let (sweep, swept) = (sweep.clone(), swept.clone());
        workers.spawn(async move {
            let mut tally = WorkerTally { histogram: Some(Histogram::<u64>::new(3).unwrap()), ..Default::default() };
            let mut n: u64 = 0;
            // The redemption this worker made last, with its company: the next void takes it back.
            let mut last_redemption: Option<(usize, i64)> = None;
            while !stop.load(Ordering::Relaxed) {
                // A sweep's pass picks the operation, so that two passes serve every company an
                // accreditation and a redemption, each meeting its own statements on the
                // company's connection; a timed run alternates them for each worker.
                let (company, turn, customer) = {
                    let mut rng = rand::rng();
                    let (company, turn) = if run.sweep.is_some() {
                        let index = swept.fetch_add(1, Ordering::Relaxed);
                        match sweep.get(index) {
                            Some(&company) => (company, (index / tokens.len()) as u64),
                            None => break,
                        }
                    } else {
                        (rng.random_range(0..tokens.len()), n)
                    };
                    (company, turn, rng.random_range(1..=run.customers))
                };
                let (company, voidable) = match last_redemption {
                    Some((c, id)) if run.mix == Mix::All => (c, Some(id)),
                    _ => (company, None),
                };
                let (operation, method, path, body) = next_request(&run, worker, n, turn, customer, voidable);
                let key = format!("bench-{}-{worker}-{n}", run.stamp);
                n += 1;
                let t0 = Instant::now();
                let mut request = http.request(method, format!("{base}{path}")).bearer_auth(&tokens[company]);
                if let Some(body) = body {
                    request = request.header("Idempotency-Key", key).json(&body);
                }
                let outcome = match request.send().await {
                    Ok(answer) => {
                        let status = answer.status();
                        let body = answer.bytes().await;
                        match (status.is_success(), body) {
                            (true, Ok(body)) => {
                                if operation == "redeem" {
                                    let id = serde_json::from_slice::<Value>(&body)
                                        .ok()
                                        .and_then(|v| v["newTransaction"]["id"].as_i64());
                                    last_redemption = id.map(|id| (company, id));
                                } else if operation == "void" {
                                    last_redemption = None;
                                }
                                Ok(())
                            }
                            (_, Ok(body)) => {
                                Err(format!("{operation} {} {}", status.as_u16(), String::from_utf8_lossy(&body)))
                            }
                            (_, Err(e)) => Err(format!("{operation} body: {e}")),
                        }
                    }
                    Err(e) => Err(format!("{operation} transport: {e}")),
                };
                if outcome.is_err() && operation == "void" {
                    last_redemption = None;
                }
                let elapsed = t0.elapsed();
                let second = (t0 - started).as_secs() as usize;
                if tally.seconds.len() <= second {
                    tally.seconds.resize(second + 1, Second::default());
                }
                let slot = &mut tally.seconds[second];
                slot.max_us = slot.max_us.max(elapsed.as_micros() as u64);
                if outcome.is_ok() {
                    slot.ok += 1
                } else {
                    slot.errors += 1
                }
                if t0 < measure_from {
                    continue;
                }
                match outcome {
                    Ok(()) => {
                        tally.ok += 1;
                        *tally.per_operation.entry(operation).or_default() += 1;
                        tally.histogram.as_mut().unwrap().record(elapsed.as_micros() as u64).unwrap();
                    }
                    Err(e) => {
                        let e: String = e.chars().take(120).collect();
                        *tally.errors.entry(e).or_default() += 1;
                    }
                }
            }
            tally
        });
    }
    if run.sweep.is_none() {
        tokio::time::sleep(run.warmup + run.duration).await;
        stop.store(true, Ordering::Relaxed);
    }
    let mut tallies = Vec::new();
    while let Some(tally) = workers.join_next().await {
        tallies.push(tally?);
    }
    let measured = measure_from.elapsed();
    let mut histogram = Histogram::<u64>::new(3)?;
    let mut ok = 0;
    let mut errors = std::collections::BTreeMap::<String, u64>::new();
    let mut per_operation = std::collections::BTreeMap::<&str, u64>::new();
    let mut seconds: Vec<Second> = Vec::new();
    for tally in tallies {
        histogram.add(tally.histogram.unwrap())?;
        ok += tally.ok;
        for (e, count) in tally.errors {
            *errors.entry(e).or_default() += count;
        }
        for (operation, count) in tally.per_operation {
            *per_operation.entry(operation).or_default() += count;
        }
        if seconds.len() < tally.seconds.len() {
            seconds.resize(tally.seconds.len(), Second::default());
        }
        for (sum, s) in seconds.iter_mut().zip(&tally.seconds) {
            sum.ok += s.ok;
            sum.errors += s.errors;
            sum.max_us = sum.max_us.max(s.max_us);
        }
    }
    if run.timeline {
        for (i, s) in seconds.iter().enumerate() {
            println!(
                "  second {i:>4}: {:>5} answered, {:>3} errors, slowest {:>8.1} ms",
                s.ok,
                s.errors,
                s.max_us as f64 / 1000.0
            );
        }
    }
    let failed: u64 = errors.values().sum();
    let rps = ok as f64 / measured.as_secs_f64();
    println!(
        "{} companies, concurrency {}, {:.0} s: {ok} answered 2xx ({rps:.0}/s), {failed} errors; \
         latency p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
        tokens.len(),
        run.concurrency,
        measured.as_secs_f64(),
        millis_at(&histogram, 0.5),
        millis_at(&histogram, 0.99),
        millis_at(&histogram, 0.999),
        histogram.max() as f64 / 1000.0
    );
    if run.mix == Mix::All {
        let counts: Vec<String> = per_operation.iter().map(|(op, n)| format!("{op} {n}")).collect();
        println!("  answered: {}", counts.join(", "));
    }
    for (e, count) in &errors {
        println!("  error x{count}: {e}");
    }
    println!(
        "RESULT rps={rps:.1} ok={ok} errors={failed} p50_ms={:.2} p99_ms={:.2} p999_ms={:.2} max_ms={:.2}",
        millis_at(&histogram, 0.5),
        millis_at(&histogram, 0.99),
        millis_at(&histogram, 0.999),
        histogram.max() as f64 / 1000.0
    );
    Ok(())
}

async fn read(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    paths: &[String],
    requests: usize,
    warmup: usize,
) -> anyhow::Result<()> {
    let mut results = Vec::new();
    for spec in paths {
        let (name, path) = spec.split_once('=').context("--path must be name=/api/...")?;
        let mut histogram = Histogram::<u64>::new(3)?;
        for i in 0..warmup + requests {
            let t0 = Instant::now();
            let answer = http.get(format!("{base}{path}")).bearer_auth(token).send().await?;
            let status = answer.status();
            let body = answer.bytes().await?;
            let elapsed = t0.elapsed();
            if !status.is_success() {
                bail!("{name}: GET {path} answered {status}: {}", String::from_utf8_lossy(&body));
            }
            if i >= warmup {
                histogram.record(elapsed.as_micros() as u64)?;
            }
        }
        println!(
            "{name:<28} p50 {:>7.2} ms  p99 {:>7.2} ms  ({requests} requests, {path})",
            millis_at(&histogram, 0.5),
            millis_at(&histogram, 0.99)
        );
        results.push(format!(
            "{name}_p50_ms={:.2} {name}_p99_ms={:.2}",
            millis_at(&histogram, 0.5),
            millis_at(&histogram, 0.99)
        ));
    }
    println!("RESULT {}", results.join(" "));
    Ok(())
}
