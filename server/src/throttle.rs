//! Login throttling shared by every server process through the database: every password check
//! (a login, a supervisor's approval of a void) is counted against its login name and its client
//! address before the password is looked at. Repeated attempts first slow every further one
//! down, then a key that reached its limit is locked out for a while. The key is the login text
//! itself, so existing and unknown users are treated alike (docs/reliability.md). The module is
//! its own store: each of its statements is in a traced function.

use std::time::Duration;

use deadpool_postgres::Pool;
use serde_json::Value;
use tracing::instrument;

use crate::config::LoginPolicy;
use crate::db::{self, Pools, TenantTx};
use crate::domain::Prefix;
use crate::error::{AppError, AppResult, Msg};
use crate::state::AppState;

/// The throttle keys of one password check.
pub struct Attempt {
    name_key: String,
    address_key: String,
}

impl Attempt {
    pub fn new(login: &str, address: &str) -> Self {
        Attempt { name_key: format!("login:{login}"), address_key: format!("addr:{address}") }
    }
}

/// An attempt counted before its password is checked: the counts of its two keys including it.
#[derive(Debug)]
pub struct Admitted {
    name_count: i32,
    address_count: i32,
}

/// Which keys a failure locked.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Locked {
    pub name: bool,
    pub address: bool,
}

impl Locked {
    pub fn any(&self) -> bool {
        self.name || self.address
    }
}

const GIVE_BACK: &str = "update platform.login_throttle set failures = greatest(failures - 1, 0) where key = $1";

/// Counts the attempt against both keys in one statement, so that concurrent attempts each get
/// a count of their own. Refuses it (429, no password work, the counts given back) while either
/// key is locked or when a count is beyond its key's limit; otherwise waits as long as the
/// name's earlier attempts in the window ask, and admits it.
#[instrument(level = "debug", skip_all)]
pub async fn admit(pool: &Pool, policy: &LoginPolicy, attempt: &Attempt) -> AppResult<Admitted> {
    let conn = pool.get().await?;
    // Rows locked now are left as they are and come back without a count; the minutes left are
    // read from the statement's snapshot (a lock written since then reads as a whole lock).
    let stmt = conn
        .prepare_cached(
            "with wanted (key) as (select unnest($1::text[])), \
             counted as ( \
               insert into platform.login_throttle as t (key, failures, window_started_at) \
               select key, 1, now() from wanted \
               on conflict (key) do update set \
                 failures = case when t.window_started_at < now() - $2::float8 * interval '1 second' \
                                 then 1 else t.failures + 1 end, \
                 window_started_at = case when t.window_started_at < now() - $2::float8 * interval '1 second' \
                                          then now() else t.window_started_at end \
               where t.locked_until is null or t.locked_until <= now() \
               returning t.key, t.failures) \
             select w.key, c.failures, \
                    (select ceil(extract(epoch from l.locked_until - now()) / 60)::bigint \
                     from platform.login_throttle l where l.key = w.key and l.locked_until > now()) as locked_minutes \
             from wanted w left join counted c on c.key = w.key",
        )
        .await?;
    let keys = [attempt.name_key.as_str(), attempt.address_key.as_str()];
    let rows = conn.query(&stmt, &[&&keys[..], &policy.window.as_secs_f64()]).await?;
    let whole_lock = (policy.lock_for.as_secs() as i64 + 59) / 60;
    let mut admitted = Admitted { name_count: 0, address_count: 0 };
    let mut refused = None;
    let mut counted = Vec::new();
    for row in rows {
        let key: String = row.get("key");
        let (count, limit) = if key == attempt.name_key {
            (&mut admitted.name_count, policy.lock_after_per_name)
        } else {
            (&mut admitted.address_count, policy.lock_after_per_address)
        };
        match row.get::<_, Option<i32>>("failures") {
            Some(failures) => {
                *count = failures;
                counted.push(key);
                if failures > limit {
                    refused = refused.or(Some(whole_lock));
                }
            }
            None => refused = Some(row.get::<_, Option<i64>>("locked_minutes").unwrap_or(whole_lock)),
        }
    }
    if let Some(minutes) = refused {
        // An attempt refused unchecked taught nothing: it leaves the counts as they were. One
        // key a statement, so that no statement holds one row while waiting for the other.
        let give_back = conn.prepare_cached(GIVE_BACK).await?;
        for key in &counted {
            conn.execute(&give_back, &[key]).await?;
        }
        return Err(AppError::TooManyRequests(Msg::LoginLocked.with("minutes", minutes.max(1))));
    }
    drop(conn);
    let delay = delay(policy, admitted.name_count);
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    Ok(admitted)
}

/// The wait of an attempt whose login name has `count` attempts in the window, itself included.
fn delay(policy: &LoginPolicy, count: i32) -> Duration {
    let earlier = count - 1;
    if earlier < policy.slow_after {
        return Duration::ZERO;
    }
    let steps = (earlier - policy.slow_after + 1) as u32;
    (policy.delay_step * steps).min(policy.max_delay)
}

/// A failed attempt stays counted; the one whose count reached a key's limit locks that key
/// (and starts its count over). Answers which keys this failure locked.
#[instrument(level = "debug", skip_all)]
pub async fn record_failure(
    pool: &Pool,
    policy: &LoginPolicy,
    attempt: &Attempt,
    admitted: &Admitted,
) -> AppResult<Locked> {
    let conn = pool.get().await?;
    let lock = conn
        .prepare_cached(
            "update platform.login_throttle set locked_until = now() + $2::float8 * interval '1 second', \
             failures = 0, window_started_at = now() \
             where key = $1 and (locked_until is null or locked_until <= now())",
        )
        .await?;
    let lock_for = policy.lock_for.as_secs_f64();
    let mut locked = Locked::default();
    if admitted.name_count >= policy.lock_after_per_name {
        locked.name = conn.execute(&lock, &[&attempt.name_key, &lock_for]).await? > 0;
    }
    if admitted.address_count >= policy.lock_after_per_address {
        locked.address = conn.execute(&lock, &[&attempt.address_key, &lock_for]).await? > 0;
    }
    if locked.any() {
        tracing::warn!(name = locked.name, address = locked.address, "login locked out");
    }
    if rand::random::<u8>() == 0 {
        conn.execute(
            "delete from platform.login_throttle where window_started_at < now() - interval '1 day' \
             and (locked_until is null or locked_until < now())",
            &[],
        )
        .await?;
    }
    Ok(locked)
}

/// A successful attempt clears its login name's count and gives its address its count back.
#[instrument(level = "debug", skip_all)]
pub async fn record_success(pool: &Pool, attempt: &Attempt) -> AppResult<()> {
    let conn = pool.get().await?;
    let clear = conn.prepare_cached("delete from platform.login_throttle where key = $1").await?;
    let give_back = conn.prepare_cached(GIVE_BACK).await?;
    conn.execute(&clear, &[&attempt.name_key]).await?;
    conn.execute(&give_back, &[&attempt.address_key]).await?;
    Ok(())
}

/// Records a lock in a company's audit trail, in a transaction of its own (the request's, if
/// any, is about to be rolled back with its refusal).
#[instrument(level = "debug", skip_all, fields(company = %prefix))]
pub async fn audit_lock(pools: &Pools, prefix: &Prefix, actor: &str, detail: &Value) -> AppResult<()> {
    let tx = TenantTx::begin(pools, prefix).await?;
    let stmt = tx
        .prepare_cached(
            "insert into audit_log (actor, action, entity, detail) values ($1, 'login.locked', 'login', $2)",
        )
        .await?;
    tx.execute(&stmt, &[&actor, detail]).await?;
    tx.commit().await
}

/// Whether the company under this prefix is active (a deleted one keeps no audit trail).
async fn company_is_active(pool: &Pool, prefix: &Prefix) -> AppResult<bool> {
    let conn = pool.get().await?;
    Ok(db::is_active_company(&**conn, prefix).await?)
}

// ---------------------------------------------------------------------------------------------
// Throttled password checks, as login and a void's approval make them

/// One password check as the throttle and the audit trail see it.
pub struct PasswordCheck<'a> {
    /// The login text counted: `name@prefix` for a company user, a super admin's bare name.
    pub login: &'a str,
    pub address: &'a str,
    /// The company whose audit trail records a lock, if it is one.
    pub company: Option<&'a Prefix>,
    /// Who asked: a cajero asking for an approval; `system` for a login.
    pub actor: &'a str,
    /// `login` or `voidApproval`.
    pub via: &'static str,
}

/// Checks a password the way every login does (docs/reliability.md): the attempt is counted
/// against its login name and its client address before `verify` runs, waits as long as the
/// name's earlier attempts ask, and is refused with 429 (without running `verify`) while either
/// is locked or beyond its limit. A failure (`verify` answers `None`) that reaches a limit locks
/// it, recorded in the company's audit trail; a success clears the name's count.
pub async fn throttled<T>(
    state: &AppState,
    check: PasswordCheck<'_>,
    verify: impl std::future::Future<Output = AppResult<Option<T>>>,
) -> AppResult<Option<T>> {
    let policy = &state.config.login;
    let attempt = Attempt::new(check.login, check.address);
    let admitted = admit(&state.pool, policy, &attempt).await?;
    if let Some(found) = verify.await? {
        record_success(&state.pool, &attempt).await?;
        return Ok(Some(found));
    }
    let locked = record_failure(&state.pool, policy, &attempt, &admitted).await?;
    if let (true, Some(prefix)) = (locked.any(), check.company) {
        let keys: Vec<&str> = [(locked.name, "name"), (locked.address, "address")]
            .into_iter()
            .filter_map(|(on, key)| on.then_some(key))
            .collect();
        let detail = serde_json::json!({
            "login": check.login,
            "address": check.address,
            "locked": keys,
            "minutes": policy.lock_for.as_secs().div_ceil(60),
            "via": check.via,
        });
        // The lock holds either way: a company that cannot record it does not change the answer.
        let recorded = async {
            if company_is_active(&state.pool, prefix).await? {
                audit_lock(&state.pool, prefix, check.actor, &detail).await?;
            }
            AppResult::Ok(())
        };
        if let Err(err) = recorded.await {
            tracing::error!(error = ?err, "recording a login lock in the audit trail");
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_wait_a_step_more_from_the_fourth_on_up_to_the_longest_wait() {
        let policy = LoginPolicy::default();
        let waits: Vec<u64> = (1..=10).map(|count| delay(&policy, count).as_secs()).collect();
        assert_eq!(waits, [0, 0, 0, 1, 2, 3, 4, 5, 5, 5]);
    }
}
