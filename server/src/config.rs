//! Typed configuration, loaded once from the command line and the environment.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};

/// A value that must never reach a log line: its `Debug` and `Display` print a placeholder.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret<T>(T);

impl<T> Secret<T> {
    pub fn new(value: T) -> Self {
        Secret(value)
    }

    pub fn expose(&self) -> &T {
        &self.0
    }
}

impl<T> fmt::Debug for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl<T> fmt::Display for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Shortest JWT secret `loyalty serve` accepts.
pub const MIN_JWT_SECRET_LEN: usize = 32;

/// How the server reaches PostgreSQL.
#[derive(Clone, Debug)]
pub struct DbConfig {
    pub url: Secret<String>,
    /// The request pool's connections' URL, `{n}` standing for each connection's number
    /// (`DB_POOL_URL`; `url` when unset): through a pooler that keeps a backend for each number,
    /// a restarted server meets the backends its last run warmed (docs/operations.md).
    pub pool_url: Option<Secret<String>>,
    pub pool_size: usize,
    /// Connections each company's requests may use at least (see `db::Pools`).
    pub min_choices: usize,
    pub conn_max_age: Duration,
    /// Prepared statements a pooled connection keeps before it drops them all (see `db::Pools`).
    pub statements_per_connection: usize,
    /// How long a request waits for its company's home connection when many companies are
    /// active, before it takes another (see `db::Pools::get_for`).
    pub home_patience: Duration,
}

/// Everything `loyalty serve` needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub db: DbConfig,
    pub jwt_secret: Secret<String>,
    pub token_ttl: Duration,
    pub client_dir: PathBuf,
    pub migrate_concurrency: usize,
    pub login: LoginPolicy,
    /// Take the client address from `X-Forwarded-For` (only behind a trusted reverse proxy).
    pub trust_proxy: bool,
    /// Bearer token a metrics scraper may use for `/metrics` (a super admin's token works too).
    pub metrics_token: Option<Secret<String>>,
    /// How webhooks are delivered (docs/webhooks.md).
    pub webhooks: WebhookConfig,
}

/// How webhook deliveries are made and retried (docs/webhooks.md).
#[derive(Clone, Debug)]
pub struct WebhookConfig {
    /// Allow `http://` and private, loopback and link-local addresses (`WEBHOOK_ALLOW_PRIVATE`):
    /// for tests and closed networks only.
    pub allow_private: bool,
    /// The first retry's wait; each further one doubles it (`WEBHOOK_RETRY_BASE_MS`).
    pub retry_base: Duration,
    /// The longest wait between two attempts.
    pub retry_max: Duration,
    /// How long a delivery is retried before it is given up.
    pub retry_for: Duration,
    /// Failed attempts in a row after which an endpoint is disabled (`WEBHOOK_DISABLE_AFTER`).
    pub disable_after: i32,
    /// How often the worker looks for work when it found none (`WEBHOOK_POLL_MS`).
    pub poll_every: Duration,
    /// The longest an endpoint may take to answer.
    pub timeout: Duration,
}

impl Default for WebhookConfig {
    fn default() -> Self {
        WebhookConfig {
            allow_private: false,
            retry_base: Duration::from_secs(30),
            retry_max: Duration::from_secs(4 * 3600),
            retry_for: Duration::from_secs(24 * 3600),
            disable_after: 10,
            poll_every: Duration::from_secs(1),
            timeout: Duration::from_secs(10),
        }
    }
}

impl WebhookConfig {
    /// The defaults, with what the environment sets (`WEBHOOK_ALLOW_PRIVATE`,
    /// `WEBHOOK_RETRY_BASE_MS`, `WEBHOOK_DISABLE_AFTER`, `WEBHOOK_POLL_MS`); a value that does
    /// not parse is an error naming the variable.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let mut config = WebhookConfig::default();
        if let Some(raw) = var("WEBHOOK_ALLOW_PRIVATE") {
            config.allow_private = match raw.trim() {
                "true" | "1" => true,
                "false" | "0" | "" => false,
                _ => bail!("WEBHOOK_ALLOW_PRIVATE must be true or false"),
            };
        }
        let number = |name: &str| -> anyhow::Result<Option<u64>> {
            var(name)
                .map(|raw| raw.trim().parse::<u64>().with_context(|| format!("{name} must be a whole number")))
                .transpose()
        };
        if let Some(ms) = number("WEBHOOK_RETRY_BASE_MS")? {
            config.retry_base = Duration::from_millis(ms.max(1));
        }
        if let Some(n) = number("WEBHOOK_DISABLE_AFTER")? {
            config.disable_after = i32::try_from(n.clamp(1, 1000)).unwrap_or(1000);
        }
        if let Some(ms) = number("WEBHOOK_POLL_MS")? {
            config.poll_every = Duration::from_millis(ms.max(10));
        }
        Ok(config)
    }
}

/// How repeated login failures are slowed down and then locked out.
#[derive(Clone, Debug)]
pub struct LoginPolicy {
    /// Failures within `window` after which every further attempt waits.
    pub slow_after: i32,
    /// Added wait per failure beyond `slow_after`, capped at `max_delay`.
    pub delay_step: Duration,
    pub max_delay: Duration,
    /// Failures within `window` that lock a login name out for `lock_for`.
    pub lock_after_per_name: i32,
    /// Failures within `window` that lock a client address out for `lock_for`.
    pub lock_after_per_address: i32,
    pub window: Duration,
    pub lock_for: Duration,
}

impl Default for LoginPolicy {
    fn default() -> Self {
        LoginPolicy {
            slow_after: 3,
            delay_step: Duration::from_secs(1),
            max_delay: Duration::from_secs(5),
            lock_after_per_name: 10,
            lock_after_per_address: 50,
            window: Duration::from_secs(15 * 60),
            lock_for: Duration::from_secs(15 * 60),
        }
    }
}

/// Reads the JWT secret from `JWT_SECRET`, or in demo mode from (or into) a local file.
pub fn resolve_jwt_secret(
    from_env: Option<String>,
    demo_secret_file: Option<&PathBuf>,
) -> anyhow::Result<Secret<String>> {
    if let Some(secret) = from_env.filter(|s| !s.is_empty()) {
        if secret.len() < MIN_JWT_SECRET_LEN {
            bail!("JWT_SECRET must be at least {MIN_JWT_SECRET_LEN} characters long");
        }
        return Ok(Secret::new(secret));
    }
    let Some(path) = demo_secret_file else {
        bail!(
            "JWT_SECRET is not set: set it to a random string of at least {MIN_JWT_SECRET_LEN} \
             characters (or use --demo-secret-file for a local demo)"
        );
    };
    if let Ok(existing) = std::fs::read_to_string(path) {
        let existing = existing.trim().to_string();
        if existing.len() >= MIN_JWT_SECRET_LEN {
            return Ok(Secret::new(existing));
        }
    }
    let secret = random_token(48);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(path, &secret).with_context(|| format!("writing {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(Secret::new(secret))
}

/// A random alphanumeric string from the operating system's generator.
pub fn random_token(len: usize) -> String {
    use rand::distr::{Alphanumeric, SampleString};
    Alphanumeric.sample_string(&mut rand::rng(), len)
}
