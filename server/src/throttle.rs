//! Login throttling shared by every server process through the database: repeated failures for
//! one login name or one client address first slow every further attempt down, then lock it out
//! for a while. The key is the login text itself, so existing and unknown users are treated alike.

use std::time::Duration;

use deadpool_postgres::Pool;

use crate::config::LoginPolicy;
use crate::error::{AppError, AppResult, Msg};

/// The throttle keys of one login attempt.
pub struct Attempt {
    name_key: String,
    address_key: String,
}

impl Attempt {
    pub fn new(login: &str, address: &str) -> Self {
        Attempt { name_key: format!("login:{login}"), address_key: format!("addr:{address}") }
    }
}

/// Refuses a locked-out attempt (429), or answers how long to wait before trying it.
pub async fn admit(pool: &Pool, policy: &LoginPolicy, attempt: &Attempt) -> AppResult<Duration> {
    let conn = pool.get().await?;
    let stmt = conn
        .prepare_cached(
            "select max(ceil(extract(epoch from locked_until - now()) / 60))::bigint as locked_minutes, \
                    coalesce(max(failures) filter (where key = $2 and window_started_at > now() - $3::float8 * interval '1 second'), 0) \
                        as name_failures \
             from platform.login_throttle where key = any($1) and (locked_until > now() or key = $2)",
        )
        .await?;
    let keys = [attempt.name_key.as_str(), attempt.address_key.as_str()];
    let row = conn
        .query_one(&stmt, &[&&keys[..], &attempt.name_key, &policy.window.as_secs_f64()])
        .await?;
    if let Some(minutes) = row.get::<_, Option<i64>>("locked_minutes") {
        return Err(AppError::TooManyRequests(Msg::LoginLocked.with("minutes", minutes.max(1))));
    }
    let failures: i32 = row.get("name_failures");
    if failures < policy.slow_after {
        return Ok(Duration::ZERO);
    }
    let steps = (failures - policy.slow_after + 1) as u32;
    Ok((policy.delay_step * steps).min(policy.max_delay))
}

/// Counts a failed attempt against both keys, locking a key that reached its limit.
pub async fn record_failure(pool: &Pool, policy: &LoginPolicy, attempt: &Attempt) -> AppResult<()> {
    let conn = pool.get().await?;
    let count = conn
        .prepare_cached(
            "insert into platform.login_throttle as t (key, failures, window_started_at) values ($1, 1, now()) \
             on conflict (key) do update set \
               failures = case when t.window_started_at < now() - $2::float8 * interval '1 second' then 1 else t.failures + 1 end, \
               window_started_at = case when t.window_started_at < now() - $2::float8 * interval '1 second' \
                                        then now() else t.window_started_at end \
             returning failures",
        )
        .await?;
    let lock = conn
        .prepare_cached(
            "update platform.login_throttle set locked_until = now() + $2::float8 * interval '1 second', \
             failures = 0, window_started_at = now() where key = $1",
        )
        .await?;
    let window = policy.window.as_secs_f64();
    for (key, limit) in [
        (&attempt.name_key, policy.lock_after_per_name),
        (&attempt.address_key, policy.lock_after_per_address),
    ] {
        let failures: i32 = conn.query_one(&count, &[key, &window]).await?.get(0);
        if failures >= limit {
            conn.execute(&lock, &[key, &policy.lock_for.as_secs_f64()]).await?;
            tracing::warn!(kind = if key.starts_with("login:") { "login name" } else { "client address" }, "login locked out");
        }
    }
    if rand::random::<u8>() == 0 {
        conn.execute(
            "delete from platform.login_throttle where window_started_at < now() - interval '1 day' \
             and (locked_until is null or locked_until < now())",
            &[],
        )
        .await?;
    }
    Ok(())
}

/// A successful login clears its login name's failures.
pub async fn record_success(pool: &Pool, attempt: &Attempt) -> AppResult<()> {
    let conn = pool.get().await?;
    let stmt = conn.prepare_cached("delete from platform.login_throttle where key = $1").await?;
    conn.execute(&stmt, &[&attempt.name_key]).await?;
    Ok(())
}
