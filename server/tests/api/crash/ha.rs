//! High availability, run by `make soak` (`soak/ha.sh`): PostgreSQL under pg_auto_failover (a
//! monitor, a primary and a synchronous standby on loopback ports, started here) and the real
//! server on a multi-host `DATABASE_URL` with `target_session_attrs=read-write`. Under an
//! accredit/redeem load whose tills retry with the same Idempotency-Key, each round kills the
//! primary's node (`kill -9` of its keeper and PostgreSQL); the monitor promotes the standby,
//! the server's pool reconnects to it by itself, and the killed node is started again and
//! rejoins as the standby of the next round. Afterwards every request answered 200 is in the
//! ledger exactly once and every balance equals its ledger, on the primary and on the standby.
//!
//! `HA_ROUNDS` failovers (default 2). `HA_MONITOR_DEFAULTS=1` keeps pg_auto_failover's default
//! failure detection instead of [`FAST_DETECTION`].

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::support::{
    as_pg_owner, assert_ledger_matches, free_port, pg_program, prepare_database, repo_root, run, scratch_dir, settle,
    tally, Api, Load, LoadOptions, Outcome, ServerProcess,
};

/// Monitor settings (milliseconds) that notice a dead primary in about 3 s instead of about 20,
/// and promote 5 s later instead of 30. `primary_demote_timeout` must stay above the keepers'
/// `timeout.network_partition_timeout` (set to 3 s with it), so that a primary cut off from the
/// monitor and its standby stops taking writes before the standby is promoted.
const FAST_DETECTION: [(&str, &str); 6] = [
    ("pgautofailover.health_check_period", "1000"),
    ("pgautofailover.health_check_timeout", "1000"),
    ("pgautofailover.health_check_max_retries", "1"),
    ("pgautofailover.health_check_retry_delay", "500"),
    ("pgautofailover.node_considered_unhealthy_timeout", "3000"),
    ("pgautofailover.primary_demote_timeout", "5000"),
];
const NETWORK_PARTITION_TIMEOUT_SECS: &str = "3";

/// A `pg_autoctl` service (monitor or node) running in its own process group.
struct Service {
    name: String,
    pgdata: PathBuf,
    port: u16,
    child: Option<Child>,
}

/// A pg_auto_failover formation of this test's own, in a scratch folder.
struct Formation {
    dir: PathBuf,
    monitor: Service,
    nodes: Vec<Service>,
}

fn superuser_url(port: u16, database: &str) -> String {
    format!("postgres://postgres@127.0.0.1:{port}/{database}?connect_timeout=3")
}

/// Runs a query as superuser on one server; `None` when the server does not answer.
async fn query(port: u16, database: &str, sql: &str) -> Option<Vec<tokio_postgres::Row>> {
    let client = loyalty::db::connect_dedicated(&superuser_url(port, database)).await.ok()?;
    client.query(sql, &[]).await.ok()
}

impl Formation {
    async fn start(fast_detection: bool) -> Formation {
        let dir = scratch_dir("ha");
        let mut formation = Formation {
            monitor: Service { name: "monitor".into(), pgdata: dir.join("monitor"), port: free_port(), child: None },
            nodes: (1..=2)
                .map(|n| Service {
                    name: format!("node{n}"),
                    pgdata: dir.join(format!("node{n}")),
                    port: free_port(),
                    child: None,
                })
                .collect(),
            dir,
        };
        let pg_ctl = pg_program("pg_ctl").display().to_string();
        let monitor_port = formation.monitor.port.to_string();
        let monitor_data = formation.monitor.pgdata.display().to_string();
        // How every service runs: trusting local connections, without TLS, in the foreground.
        let service = ["--auth", "trust", "--no-ssl", "--pgctl", &pg_ctl, "--run"];
        let args = [
            &["create", "monitor", "--pgdata", &monitor_data, "--pgport", &monitor_port, "--hostname", "127.0.0.1"][..],
            &service,
        ]
        .concat();
        formation.monitor.child = Some(formation.spawn("monitor", &args));
        let mut ready = false;
        for _ in 0..600 {
            if query(formation.monitor.port, "pg_auto_failover", "select 1 from pgautofailover.node limit 1")
                .await
                .is_some()
            {
                ready = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(ready, "the monitor did not start:\n{}", formation.log("monitor"));
        if fast_detection {
            let monitor = loyalty::db::connect_dedicated(&superuser_url(formation.monitor.port, "pg_auto_failover"))
                .await
                .unwrap();
            for (name, value) in FAST_DETECTION {
                monitor.batch_execute(&format!("alter system set {name} = {value}")).await.unwrap();
            }
            monitor.batch_execute("select pg_reload_conf()").await.unwrap();
        }

        let monitor_uri =
            format!("postgres://autoctl_node@127.0.0.1:{}/pg_auto_failover?sslmode=disable", formation.monitor.port);
        for n in 0..2 {
            let (name, data, port) = {
                let node = &formation.nodes[n];
                (node.name.clone(), node.pgdata.display().to_string(), node.port.to_string())
            };
            let node = [
                "create",
                "postgres",
                "--pgdata",
                &data,
                "--pgport",
                &port,
                "--hostname",
                "127.0.0.1",
                "--listen",
                "127.0.0.1",
                "--name",
                &name,
                "--monitor",
                &monitor_uri,
            ];
            let args = [&node[..], &service].concat();
            formation.nodes[n].child = Some(formation.spawn(&name, &args));
            // The first node starts alone ('single'); the second is cloned from it.
            let wanted: Vec<(&str, &str)> =
                if n == 0 { vec![("node1", "single")] } else { vec![("node1", "primary"), ("node2", "secondary")] };
            formation.wait_for_states(&wanted).await;
        }
        if fast_detection {
            for n in 0..2 {
                let data = formation.nodes[n].pgdata.display().to_string();
                let set = [
                    "config",
                    "set",
                    "--pgdata",
                    &data,
                    "timeout.network_partition_timeout",
                    NETWORK_PARTITION_TIMEOUT_SECS,
                ];
                run(&mut formation.autoctl(&set).into(), "pg_autoctl config set").await;
                run(&mut formation.autoctl(&["reload", "--pgdata", &data]).into(), "pg_autoctl reload").await;
            }
        }
        formation
    }

    /// `pg_autoctl ARGS` as the data folders' owner, with its configuration and state kept in
    /// the scratch folder.
    fn autoctl(&self, args: &[&str]) -> Command {
        let mut command = as_pg_owner(Path::new("env"));
        command
            .arg(format!("XDG_CONFIG_HOME={}", self.dir.join("config").display()))
            .arg(format!("XDG_DATA_HOME={}", self.dir.join("share").display()))
            .arg(format!("XDG_RUNTIME_DIR={}", self.dir.join("run").display()))
            .arg("pg_autoctl")
            .args(args);
        command
    }

    /// Starts a long-running `pg_autoctl` in a process group of its own, logging to a file.
    fn spawn(&self, name: &str, args: &[&str]) -> Child {
        use std::os::unix::process::CommandExt;
        let log =
            std::fs::OpenOptions::new().create(true).append(true).open(self.dir.join(format!("{name}.log"))).unwrap();
        let mut command = self.autoctl(args);
        command.process_group(0).stdin(Stdio::null()).stdout(log.try_clone().unwrap()).stderr(log);
        command.spawn().unwrap_or_else(|err| panic!("start pg_autoctl for {name}: {err}"))
    }

    fn log(&self, name: &str) -> String {
        let text = std::fs::read_to_string(self.dir.join(format!("{name}.log"))).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }

    /// (node name, reported state, assigned state) as the monitor sees them.
    async fn states(&self) -> Vec<(String, String, String)> {
        let sql = "select nodename, reportedstate::text, goalstate::text from pgautofailover.node order by nodeid";
        query(self.monitor.port, "pg_auto_failover", sql)
            .await
            .unwrap_or_default()
            .iter()
            .map(|row| (row.get(0), row.get(1), row.get(2)))
            .collect()
    }

    /// Waits (at most 5 minutes) until each named node reports and is assigned its state. A
    /// standby being cloned waits for a checkpoint on the primary, so it asks for one.
    async fn wait_for_states(&self, wanted: &[(&str, &str)]) {
        let started = Instant::now();
        let mut last_checkpoint = Instant::now();
        loop {
            let states = self.states().await;
            let reached = wanted.iter().all(|(name, state)| {
                states.iter().any(|(n, reported, goal)| n == name && reported == state && goal == state)
            });
            if reached {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(300),
                "the formation did not reach {wanted:?}: {states:?}\n{}\n{}",
                self.log("node1"),
                self.log("node2")
            );
            if last_checkpoint.elapsed() > Duration::from_secs(2) {
                if let Some(primary) = self.primary().await {
                    let _ = query(self.nodes[primary].port, "postgres", "checkpoint").await;
                }
                last_checkpoint = Instant::now();
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The node out of recovery (the primary), if any.
    async fn primary(&self) -> Option<usize> {
        for (n, node) in self.nodes.iter().enumerate() {
            if let Some(rows) = query(node.port, "postgres", "select not pg_is_in_recovery()").await {
                if rows[0].get::<_, bool>(0) {
                    return Some(n);
                }
            }
        }
        None
    }

    /// Whether a node takes writes now, as `target_session_attrs=read-write` checks it (a
    /// promoted node stays read-only until the monitor is sure the old primary is gone).
    async fn writable(&self, n: usize) -> bool {
        let sql = "select not pg_is_in_recovery() and current_setting('transaction_read_only') = 'off'";
        match query(self.nodes[n].port, "postgres", sql).await {
            Some(rows) => rows[0].get(0),
            None => false,
        }
    }

    /// `kill -9` of a node's whole process group: its keeper and its PostgreSQL, at once.
    fn kill(&mut self, n: usize) {
        let node = &mut self.nodes[n];
        if let Some(mut child) = node.child.take() {
            kill_group(&child, "-KILL");
            child.wait().unwrap();
        }
    }

    /// Starts a stopped node again (`pg_autoctl run`); the monitor tells it its new role.
    fn restart(&mut self, n: usize) {
        let data = self.nodes[n].pgdata.display().to_string();
        let child = self.spawn(&self.nodes[n].name.clone(), &["run", "--pgdata", &data]);
        self.nodes[n].child = Some(child);
    }

    /// A URL naming both nodes: a client connects to whichever takes writes.
    fn url(&self, user: &str) -> String {
        let hosts: Vec<String> = self.nodes.iter().map(|node| format!("127.0.0.1:{}", node.port)).collect();
        format!("postgres://{user}@{}/loyalty?target_session_attrs=read-write&connect_timeout=5", hosts.join(","))
    }
}

fn kill_group(child: &Child, signal: &str) {
    let _ = Command::new("kill").arg(signal).arg("--").arg(format!("-{}", child.id())).status();
}

impl Drop for Formation {
    fn drop(&mut self) {
        let services = self.nodes.iter_mut().chain(std::iter::once(&mut self.monitor));
        let mut children: Vec<Child> = services.filter_map(|service| service.child.take()).collect();
        for child in &children {
            kill_group(child, "-TERM");
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline && children.iter_mut().any(|c| c.try_wait().ok().flatten().is_none()) {
            std::thread::sleep(Duration::from_millis(100));
        }
        for child in &mut children {
            if child.try_wait().ok().flatten().is_none() {
                kill_group(child, "-KILL");
                let _ = child.wait();
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One failover, as measured.
struct Round {
    killed: String,
    promoted_after: Duration,
    service_back_after: Duration,
    failed_attempts: usize,
    /// Failed attempts by answer: (status or "no answer", count).
    failures: Vec<(String, usize)>,
    requests_delayed: usize,
}

#[tokio::test]
#[ignore = "soak: needs pg_auto_failover's pg_autoctl; run by `make soak` (soak/ha.sh)"]
async fn the_server_rides_through_failovers_of_the_primary_without_losing_an_answered_request() {
    let rounds: usize = std::env::var("HA_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(2);
    let fast_detection = std::env::var("HA_MONITOR_DEFAULTS").map(|v| v != "1").unwrap_or(true);
    let mut formation = Formation::start(fast_detection).await;
    let primary = formation.primary().await.expect("a primary");
    run(
        tokio::process::Command::new(pg_program("psql"))
            .args(["-q", "-f"])
            .arg(repo_root().join("deploy/sql/setup-database.sql"))
            .arg(superuser_url(formation.nodes[primary].port, "postgres")),
        "database set-up",
    )
    .await;
    let app_url = formation.url("loyalty_app");
    prepare_database(&app_url).await;
    let server = ServerProcess::start("ha", &app_url, free_port(), &[]).await;
    let api = Api::new(&server.base);
    let (token, customers) = api.company_with_customers("ha", 20).await;

    // Tills retry a failed request with its key every 100 ms for up to 4 minutes.
    let options =
        LoadOptions { workers: 8, max_requests: 1_000_000, retries: 2400, retry_delay: Duration::from_millis(100) };
    let load = Load::start(vec![api.clone()], &token, &customers, options);
    let started = Instant::now();
    let mut kills = Vec::new();
    for _ in 0..rounds {
        load.wait_for_posted(load.posted() + 1000).await;
        let primary = formation.primary().await.expect("a primary before the kill");
        let standby = 1 - primary;
        formation.kill(primary);
        let killed_at = Instant::now();
        let mut promoted = None;
        while killed_at.elapsed() < Duration::from_secs(300) {
            if formation.writable(standby).await {
                promoted = Some(killed_at.elapsed());
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let Some(promoted) = promoted else {
            panic!("no promotion: {:?}\n{}", formation.states().await, formation.log("monitor"));
        };
        // The service is back: more requests answered after the kill.
        load.wait_for_posted(load.posted() + 200).await;
        formation.restart(primary);
        let (old, new) = (formation.nodes[primary].name.clone(), formation.nodes[standby].name.clone());
        formation.wait_for_states(&[(old.as_str(), "secondary"), (new.as_str(), "primary")]).await;
        kills.push((old, killed_at, promoted));
    }
    load.wait_for_posted(load.posted() + 1000).await;
    let (mut sent, attempts) = load.finish().await;
    let duration = started.elapsed();
    let before_settling = tally(&sent);
    let replayed_in_load = sent.iter().filter(|s| matches!(s.outcome, Outcome::Posted { replayed: true, .. })).count();
    let (replayed, applied_now) = settle(&mut sent, &[api], &token, 30).await;

    let primary_db = loyalty::db::connect_dedicated(&formation.url("postgres")).await.unwrap();
    assert_ledger_matches(&primary_db, "tenant_ha", &sent, true).await;
    // The standby holds the same ledger once it has replayed everything the primary wrote.
    let lsn: String = primary_db.query_one("select pg_current_wal_lsn()::text", &[]).await.unwrap().get(0);
    let standby = 1 - formation.primary().await.expect("a primary");
    let standby_db =
        loyalty::db::connect_dedicated(&superuser_url(formation.nodes[standby].port, "loyalty")).await.unwrap();
    let mut caught_up = false;
    for _ in 0..600 {
        let row = standby_db.query_one("select pg_last_wal_replay_lsn() >= $1::text::pg_lsn", &[&lsn]).await.unwrap();
        if row.get::<_, bool>(0) {
            caught_up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(caught_up, "the standby did not replay up to {lsn}");
    assert_ledger_matches(&standby_db, "tenant_ha", &sent, true).await;

    let rounds: Vec<Round> = kills
        .iter()
        .map(|(killed, at, promoted)| {
            // Requests that began in the instant the signal took to land may still succeed: the
            // outage starts at the first failure after the kill.
            let down = attempts.iter().filter(|a| !a.ok && a.finished >= *at).map(|a| a.finished).min().unwrap_or(*at);
            let back = attempts
                .iter()
                .filter(|a| a.ok && a.started >= down)
                .map(|a| a.finished)
                .min()
                .expect("served after the kill");
            let failed: Vec<_> = attempts.iter().filter(|a| !a.ok && a.finished >= *at && a.finished <= back).collect();
            let mut delayed: Vec<&str> = failed.iter().map(|a| a.key.as_str()).collect();
            delayed.sort_unstable();
            delayed.dedup();
            let mut failures: Vec<(String, usize)> = Vec::new();
            for attempt in &failed {
                let kind = attempt.status.map_or("no answer".to_string(), |s| s.to_string());
                match failures.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, count)) => *count += 1,
                    None => failures.push((kind, 1)),
                }
            }
            Round {
                failures,
                killed: killed.clone(),
                promoted_after: *promoted,
                service_back_after: back - *at,
                failed_attempts: failed.len(),
                requests_delayed: delayed.len(),
            }
        })
        .collect();
    let settled = tally(&sent);
    eprintln!(
        "ha: {} detection, {} failovers in {:.0} s; load: 8 workers over 20 customers, {} requests, {} answered 200, \
         {} refused (not enough points), {} attempts failed and were retried with their keys ({} requests answered by \
         a replay: they had committed before their answer was lost), {} unanswered at the end ({} had committed, \
         {} applied on retry); ledger on primary and standby: 0 lost, 0 duplicated",
        if fast_detection { "fast" } else { "default" },
        rounds.len(),
        duration.as_secs_f64(),
        settled.sent,
        settled.posted,
        settled.refused,
        attempts.iter().filter(|a| !a.ok).count(),
        replayed_in_load,
        before_settling.unsettled,
        replayed,
        applied_now,
    );
    for (n, round) in rounds.iter().enumerate() {
        eprintln!(
            "ha: failover {}: killed {}; standby took writes after {:.1} s; first request served after {:.1} s; \
             {} attempts failed meanwhile ({:?}), from {} requests (all later answered)",
            n + 1,
            round.killed,
            round.promoted_after.as_secs_f64(),
            round.service_back_after.as_secs_f64(),
            round.failed_attempts,
            round.failures,
            round.requests_delayed,
        );
    }
    // A failover is answered as a temporary outage (503) or not at all, never as a fault.
    let faults: Vec<_> = attempts.iter().filter(|a| a.status.is_some_and(|s| s >= 500 && s != 503)).collect();
    // What the server answered 500 for, if anything.
    let mut internal: Vec<String> = server
        .logged("request failed")
        .iter()
        .map(|fields| {
            let error = fields["error"].as_str().unwrap_or_default();
            error.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(300).collect::<String>()
        })
        .collect();
    internal.sort();
    internal.dedup();
    assert!(faults.is_empty(), "{} attempts failed with another 5xx than 503: {internal:?}", faults.len());
}
