//! Failures of real processes: the server killed with `kill -9` under load while PostgreSQL
//! stops in immediate mode, two server processes on one database, and (in `make soak`) the
//! primary database killed under pg_auto_failover. Each checks that every request answered 200
//! is in the ledger exactly once and that every balance equals its ledger.

mod ha;
pub mod support;

use std::time::Duration;

use chrono::Utc;

use crate::helpers::spawn_app;
use crate::points::support::{add_customer, number, shop, sql, Clock};
use support::{
    assert_ledger_matches, free_port, prepare_database, settle, tally, Api, Load, LoadOptions, Outcome,
    PrivatePostgres, Request, Sent, ServerProcess,
};

#[tokio::test]
async fn a_server_killed_under_load_and_a_database_stopped_at_once_lose_no_answered_request() {
    let pg = PrivatePostgres::start().await;
    prepare_database(&pg.app_url()).await;
    let mut server = ServerProcess::start("crash", &pg.app_url(), free_port(), &[]).await;
    let api = Api::new(&server.base);
    let (token, customers) = api.company_with_customers("crash", 12).await;

    let options = LoadOptions { workers: 8, max_requests: 20_000, retries: 0, retry_delay: Duration::ZERO };
    let load = Load::start(vec![api], &token, &customers, options);
    load.wait_for_posted(400).await;
    // The faults, while the requests of the eight workers are in flight: the server first,
    // then the database. Nothing new is sent after them.
    load.stop_sending();
    server.kill_9();
    pg.stop_immediate().await;
    let (mut sent, _) = load.finish().await;
    let at_crash = tally(&sent);
    assert!(at_crash.posted >= 400, "the load ran before the crash: {at_crash:?}");

    pg.start_again().await;
    let server = ServerProcess::start("crash-restarted", &pg.app_url(), free_port(), &[]).await;
    let db = loyalty::db::connect_dedicated(&pg.admin_url()).await.unwrap();
    assert_ledger_matches(&db, "tenant_crash", &sent, false).await;
    // The tills retry what got no answer, with the same keys: each is applied exactly once,
    // whether or not the crash had let it commit.
    let (replayed, applied_now) = settle(&mut sent, &[Api::new(&server.base)], &token, 5).await;
    assert_ledger_matches(&db, "tenant_crash", &sent, true).await;
    let settled = tally(&sent);

    eprintln!(
        "crash: {} requests from 8 workers over 12 customers before kill -9 + immediate stop: {} answered 200, \
         {} refused (not enough points), {} unanswered; after restart {} retried: {} had committed (replayed), \
         {} applied now, {} refused; ledger: {} postings, 0 lost, 0 duplicated",
        at_crash.sent,
        at_crash.posted,
        at_crash.refused,
        at_crash.unsettled,
        at_crash.unsettled,
        replayed,
        applied_now,
        at_crash.unsettled - replayed - applied_now,
        settled.posted,
    );
}

#[tokio::test]
async fn two_server_processes_on_one_database_redeem_exactly_and_expire_each_company_once_a_day() {
    let app = spawn_app().await;
    // Companies with points due under their policy (fifo, 30 days): earned 40 days ago.
    let mut due = Vec::new();
    for prefix in ["dueone", "duetwo", "duethree", "duefour"] {
        let shop = shop(&app, prefix).await;
        sql(&app, &shop, "update settings set expiration_policy = 'fifo', points_expiration_days = 30").await;
        let clock = Clock::new(&app, &shop).await;
        let mut points = 0;
        for n in 0..25 {
            let customer = add_customer(&app, &shop, &format!("D{n}"), None).await;
            let posting = clock.accredit(customer, 10_000 + n, Utc::now() - chrono::Duration::days(40)).await.unwrap();
            points += posting.new_transaction.points;
        }
        due.push((shop, points));
    }
    // The company whose tills post through both processes (expiration policy 'none').
    let tills = shop(&app, "tills").await;
    let mut customers = Vec::new();
    for n in 0..10 {
        customers.push(add_customer(&app, &tills, &format!("T{n}"), None).await);
    }

    // Two processes started together, each running the daily expiration one second later.
    let env = [("EXPIRATION_FIRST_CHECK_SECS", "1")];
    let one = ServerProcess::spawn("one", &app.db_url, free_port(), &env);
    let two = ServerProcess::spawn("two", &app.db_url, free_port(), &env);
    one.wait_ready().await;
    two.wait_ready().await;
    let apis = vec![Api::new(&one.base), Api::new(&two.base)];
    let token = tills.admin.as_str();
    let mut sent: Vec<Sent> = Vec::new();

    // 60 concurrent redemptions of 25 points through both against a balance of 1,000:
    // exactly 40 go through, the other 20 are refused, the balance ends at 0.
    let rich = customers[0];
    let stock = Request::accredit("stock-1", rich, 100_000, "F-STOCK");
    let outcome = stock.send(&apis[0], token).await;
    assert!(matches!(outcome, Outcome::Posted { points: 1000, .. }), "{outcome:?}");
    sent.push(Sent { request: stock, outcome, target: 0 });
    let redemptions: Vec<Request> = (0..60).map(|n| Request::redeem(format!("race-{n}"), rich, 25)).collect();
    let outcomes =
        futures::future::join_all(redemptions.iter().enumerate().map(|(n, r)| r.send(&apis[n % 2], token))).await;
    let through = outcomes.iter().filter(|o| matches!(o, Outcome::Posted { .. })).count();
    let refused = outcomes.iter().filter(|o| **o == Outcome::Refused(400)).count();
    assert_eq!((through, refused), (40, 20), "{outcomes:?}");
    let through_each: Vec<usize> = (0..2)
        .map(|side| outcomes.iter().skip(side).step_by(2).filter(|o| matches!(o, Outcome::Posted { .. })).count())
        .collect();
    assert_eq!(number(&app, &tills, &format!("select points from customers where id = {rich}")).await, 0);
    sent.extend(redemptions.into_iter().zip(outcomes).enumerate().map(|(n, (request, outcome))| Sent {
        request,
        outcome,
        target: n % 2,
    }));

    // One key sent to both processes at once: one posting, the same answer twice.
    let other = customers[1];
    let stock = Request::accredit("stock-2", other, 10_000, "F-STOCK-2");
    let outcome = stock.send(&apis[1], token).await;
    sent.push(Sent { request: stock, outcome, target: 1 });
    let twice = Request::redeem("both-processes", other, 60);
    let (first, second) = tokio::join!(twice.send(&apis[0], token), twice.send(&apis[1], token));
    match (&first, &second) {
        (
            Outcome::Posted { transaction: a, replayed: replayed_a, .. },
            Outcome::Posted { transaction: b, replayed: replayed_b, .. },
        ) => {
            assert_eq!(a, b, "both answers name the same posting");
            assert!(replayed_a != replayed_b, "exactly one answer is the replay: {first:?} {second:?}");
        }
        _ => panic!("both processes answer 200: {first:?} {second:?}"),
    }
    sent.push(Sent { request: twice.clone(), outcome: first, target: 0 });
    sent.push(Sent { request: twice, outcome: second, target: 1 });

    // A mixed load spread over both processes.
    let options = LoadOptions { workers: 8, max_requests: 400, retries: 0, retry_delay: Duration::ZERO };
    let (load, _) = Load::start(apis.clone(), token, &customers[2..], options).finish_when_done().await;
    let mixed = tally(&load);
    assert_eq!(mixed.unsettled, 0, "every request through either process is answered: {mixed:?}");
    sent.extend(load);
    let db = app.db().await;
    assert_ledger_matches(&db, &tills.schema(), &sent, true).await;

    // Both processes ran their first daily pass over all 5 companies; between them each
    // company's policy ran exactly once, and no run failed on the other's.
    let mut passes = Vec::new();
    for server in [&one, &two] {
        let mut pass = server.logged("daily expiration pass");
        for _ in 0..600 {
            if !pass.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            pass = server.logged("daily expiration pass");
        }
        let pass =
            pass.first().unwrap_or_else(|| panic!("{} ran no daily pass:\n{}", server.name, server.log_text())).clone();
        assert_eq!(pass["companies"], 5, "{}: {pass}", server.name);
        assert_eq!(pass["failed"], 0, "{}: {pass}", server.name);
        passes.push(pass["ran"].as_u64().unwrap());
    }
    let mut runs = 0;
    for shop in due.iter().map(|(shop, _)| shop).chain([&tills]) {
        let days =
            number(&app, shop, "select count(distinct run_date) from expiration_runs where trigger = 'daily'").await;
        let rows = number(&app, shop, "select count(*) from expiration_runs where trigger = 'daily'").await;
        assert!(days >= 1 && rows == days, "{}: {rows} daily runs over {days} days", shop.prefix);
        runs += rows;
    }
    assert_eq!(passes.iter().sum::<u64>() as i64, runs, "runs reported by the processes: {passes:?}");
    for (shop, points) in &due {
        let expired =
            number(&app, shop, "select coalesce(-sum(points), 0)::bigint from transactions where type = 'expiration'")
                .await;
        assert_eq!(expired, *points, "{}: every due point expired once", shop.prefix);
        let twice = number(
            &app,
            shop,
            "select count(*) from (select customer_id from transactions where type = 'expiration' \
             group by customer_id having count(*) > 1) t",
        )
        .await;
        assert_eq!(twice, 0, "{}: a customer expired twice", shop.prefix);
        crate::points::support::assert_ledger_consistent(&app, shop).await;
    }

    eprintln!(
        "two processes: 60 concurrent redemptions of 25 points on a 1,000-point balance: 40 through \
         ({} via one, {} via two), 20 refused; one key to both at once: one posting; mixed load {} requests \
         ({} answered 200, {} refused) through both; daily expiration: {} companies ran by one, {} by two, \
         {} runs in all, {} due points expired once",
        through_each[0],
        through_each[1],
        mixed.sent,
        mixed.posted,
        mixed.refused,
        passes[0],
        passes[1],
        runs,
        due.iter().map(|(_, p)| p).sum::<i64>(),
    );
}

#[tokio::test]
async fn a_request_whose_database_connection_is_terminated_mid_query_answers_503_and_its_retry_posts_once() {
    let app = spawn_app().await;
    let shop = shop(&app, "cutoff").await;
    let customer = add_customer(&app, &shop, "C1", None).await;
    let api = Api::new(&app.address);
    let request = Request::accredit("cut-1", customer, 5_000, "F-CUT");

    // The customer's row is locked, so the request waits inside PostgreSQL; then its backend
    // is terminated, as a shutdown or a failover does.
    let blocker = app.db().await;
    blocker
        .batch_execute(&format!("begin; select 1 from {}.customers where id = {customer} for update", shop.schema()))
        .await
        .unwrap();
    let (outcome, ()) = tokio::join!(request.send(&api, &shop.admin), async {
        let sql = "select pid from pg_stat_activity where datname = current_database() and usename = 'loyalty_app' \
                   and wait_event_type = 'Lock'";
        for _ in 0..300 {
            if let Some(row) = blocker.query_opt(sql, &[]).await.unwrap() {
                let pid: i32 = row.get(0);
                blocker.execute("select pg_terminate_backend($1)", &[&pid]).await.unwrap();
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("the request never waited on the lock");
    });
    blocker.batch_execute("rollback").await.unwrap();
    assert_eq!(outcome, Outcome::Refused(503), "a lost connection is a temporary outage, not a fault");

    let retried = request.send(&api, &shop.admin).await;
    assert!(matches!(retried, Outcome::Posted { points: 50, replayed: false, .. }), "{retried:?}");
    let sent = [Sent { request, outcome: retried, target: 0 }];
    assert_ledger_matches(&app.db().await, &shop.schema(), &sent, true).await;
}
