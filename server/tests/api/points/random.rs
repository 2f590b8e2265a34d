//! Thousands of random operations, four at a time, under changing expiration policies.

use chrono::Duration;
use loyalty::i18n::Msg;
use loyalty::AppError;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::support::*;

const OPERATIONS: usize = 3_000;
const AT_ONCE: usize = 4;
const CUSTOMERS: usize = 12;

#[derive(Clone, Copy, Debug)]
enum Op {
    Accredit { customer: i64, amount: i64 },
    Redeem { customer: i64, points: i64 },
    Void { transaction: i64 },
    Expire,
}

#[derive(Debug, Default)]
struct Tally {
    accredited: usize,
    redeemed: usize,
    short_balance: usize,
    voided: usize,
    void_refused: usize,
    expired_points: i64,
}

#[tokio::test]
async fn thousands_of_random_operations_keep_every_balance_equal_to_its_ledger_and_its_batches() {
    let seed = std::env::var("POINTS_RANDOM_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(20_250_615u64);
    println!("random points test seed: {seed} (set POINTS_RANDOM_SEED to replay)");
    let mut rng = StdRng::seed_from_u64(seed);
    let (app, shop) = acme().await;
    let clock = Clock::new(&app, &shop).await;
    let mut customers = Vec::new();
    for n in 0..CUSTOMERS {
        customers.push(add_customer(&app, &shop, &format!("{}", 1000 + n), None).await);
    }
    let mut now = bogota(2023, 1, 1, 9, 0);
    let mut transactions: Vec<i64> = Vec::new();
    let mut tally = Tally::default();

    let mut done = 0;
    while done < OPERATIONS {
        now += Duration::minutes(rng.random_range(0..=36 * 60));
        if rng.random_bool(0.02) {
            let policy = match rng.random_range(0..4) {
                0 => "expiration_policy = 'none'".to_string(),
                1 => format!("expiration_policy = 'fifo', points_expiration_days = {}", rng.random_range(10..90)),
                2 => format!("expiration_policy = 'inactivity', inactivity_days = {}", rng.random_range(5..60)),
                _ => "expiration_policy = 'calendar'".to_string(),
            };
            sql(&app, &shop, &format!("update settings set {policy}")).await;
        }
        let ops: Vec<Op> = (0..AT_ONCE)
            .map(|_| {
                let customer = customers[rng.random_range(0..CUSTOMERS)];
                match rng.random_range(0..100) {
                    0..=39 => Op::Accredit { customer, amount: rng.random_range(1_000..=60_000) },
                    40..=69 => Op::Redeem { customer, points: rng.random_range(1..=400) },
                    70..=91 if !transactions.is_empty() => {
                        Op::Void { transaction: transactions[rng.random_range(0..transactions.len())] }
                    }
                    _ => Op::Expire,
                }
            })
            .collect();
        let results = futures::future::join_all(ops.iter().map(|op| run(&clock, *op, now))).await;
        for (op, result) in ops.iter().zip(results) {
            match (op, result) {
                (Op::Accredit { .. }, Ok(Outcome::Posted(id))) => {
                    tally.accredited += 1;
                    transactions.push(id);
                }
                (Op::Redeem { .. }, Ok(Outcome::Posted(id))) => {
                    tally.redeemed += 1;
                    transactions.push(id);
                }
                (Op::Redeem { .. }, Err(AppError::BadRequest(problem))) if problem.msg == Msg::NotEnoughPoints => {
                    tally.short_balance += 1;
                }
                (Op::Void { .. }, Ok(Outcome::Voided(cancellation))) => {
                    tally.voided += 1;
                    transactions.push(cancellation);
                }
                (Op::Void { .. }, Err(AppError::Conflict(problem)))
                    if [Msg::VoidAlreadyVoided, Msg::VoidNotVoidable, Msg::VoidPointsSpent].contains(&problem.msg) =>
                {
                    tally.void_refused += 1;
                }
                (Op::Expire, Ok(Outcome::Expired(points))) => tally.expired_points += points,
                (op, other) => panic!("seed {seed}: {op:?} at {now} gave {other:?}"),
            }
        }
        done += ops.len();
        if done % 500 < AT_ONCE {
            assert_ledger_consistent(&app, &shop).await;
        }
    }
    assert_ledger_consistent(&app, &shop).await;
    println!("{tally:?}");
    assert!(tally.accredited > 500 && tally.redeemed > 200, "{tally:?}");
    assert!(tally.short_balance > 0 && tally.voided > 50 && tally.void_refused > 50, "{tally:?}");
    assert!(tally.expired_points > 0, "{tally:?}");
    let expirations = number(&app, &shop, "select count(*) from transactions where type = 'expiration'").await;
    assert!(expirations > 0);
}

#[derive(Debug)]
enum Outcome {
    Posted(i64),
    Voided(i64),
    Expired(i64),
}

async fn run(clock: &Clock<'_>, op: Op, now: chrono::DateTime<chrono::Utc>) -> Result<Outcome, AppError> {
    match op {
        Op::Accredit { customer, amount } => {
            clock.accredit(customer, amount, now).await.map(|p| Outcome::Posted(p.new_transaction.id))
        }
        Op::Redeem { customer, points } => {
            clock.redeem(customer, points, now).await.map(|p| Outcome::Posted(p.new_transaction.id))
        }
        Op::Void { transaction } => clock.void(transaction, now).await.map(|v| Outcome::Voided(v.cancellation_id)),
        Op::Expire => Ok(Outcome::Expired(clock.expire(now).await.points)),
    }
}
