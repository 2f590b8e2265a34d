//! `loyalty`: serve the product, migrate schemas, create super admins, seed a demo company, print
//! the OpenAPI document.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use loyalty::config::{self, Config, DbConfig, LoginPolicy, Secret};
use loyalty::domain::Prefix;
use loyalty::migrate::{self, MigrateOptions};
use loyalty::{platform, seed, telemetry, AppState};

#[derive(Parser)]
#[command(name = "loyalty", version, about = "Multi-company loyalty-points server")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API and the built client.
    Serve(ServeArgs),
    /// Migrate the platform schema and every company's schema.
    Migrate(MigrateArgs),
    /// Vacuum and analyse the companies' tables changed since their last upkeep (each night:
    /// deploy/systemd/loyalty-maintain.timer).
    Maintain(MaintainArgs),
    /// Create a super admin, or reset the password of an existing one.
    CreateSuperAdmin(SuperAdminArgs),
    /// Create (or complete) the demo company with users of every role and sample data.
    SeedDemo(DbArgs),
    /// Back up the platform schema and every company's schema, one file each.
    Backup(BackupArgs),
    /// Restore one company's schema from its backup file, touching no other company.
    Restore(RestoreArgs),
    /// On a Citus coordinator: where each company is, and moving companies between nodes.
    #[command(subcommand)]
    Citus(CitusCommand),
    /// Print the API's OpenAPI document (as served at /api/openapi.json); needs no database.
    Openapi,
}

#[derive(Subcommand)]
enum CitusCommand {
    /// The nodes, and which node holds each company and its size there.
    Status {
        #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
        database_url: String,
    },
    /// Move one company to another worker while it keeps serving (citus_schema_move).
    Move {
        #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
        database_url: String,
        /// The company's prefix.
        #[arg(long)]
        company: String,
        /// The worker to move it to, host:port as the cluster knows it (`loyalty citus status`).
        #[arg(long)]
        to: loyalty::citus::NodeAddr,
        #[command(flatten)]
        how: MoveArgs,
    },
    /// Balance the companies over the workers (after adding one), one company at a time.
    Rebalance {
        #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
        database_url: String,
        #[command(flatten)]
        how: MoveArgs,
    },
    /// Place companies still on the coordinator (created before Citus) on workers.
    Distribute {
        #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
        database_url: String,
        /// Only this company (its prefix).
        #[arg(long)]
        company: Option<String>,
    },
}

#[derive(Args)]
struct MoveArgs {
    /// How the rows are copied: auto and force-logical accept writes until the switch-over.
    #[arg(long, value_enum, default_value = "auto")]
    mode: loyalty::citus::TransferMode,
    /// Milliseconds the switch-over may hold the company's writes waiting for its running
    /// transactions; past this it gives up and the move is tried again.
    #[arg(long, default_value_t = 2000)]
    switch_over_wait_ms: u64,
    /// Moves tried per company before giving up.
    #[arg(long, default_value_t = 5)]
    attempts: u32,
}

impl MoveArgs {
    fn options(&self) -> loyalty::citus::MoveOptions {
        loyalty::citus::MoveOptions {
            mode: self.mode,
            switch_over_wait: Duration::from_millis(self.switch_over_wait_ms),
            attempts: self.attempts,
            ..Default::default()
        }
    }
}

#[derive(Args)]
struct BackupArgs {
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: String,
    /// Folder for the files (created if missing).
    #[arg(long)]
    dir: PathBuf,
    /// Schemas dumped at once.
    #[arg(long, default_value_t = 4)]
    concurrency: usize,
}

#[derive(Args)]
struct RestoreArgs {
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: String,
    /// The company's prefix.
    #[arg(long)]
    company: String,
    /// Its backup file (tenant_<prefix>.dump).
    file: PathBuf,
}

#[derive(Args, Clone)]
struct DbArgs {
    /// PostgreSQL URL, e.g. postgres://loyalty@127.0.0.1:5432/loyalty
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: String,
    /// The request pool's connections' URL, `{n}` standing for each connection's number (0 to
    /// DB_POOL_SIZE - 1); DATABASE_URL when unset. Through a pooler that keeps one backend for
    /// each number, a restart meets the backends the last run warmed (docs/operations.md).
    #[arg(long, env = "DB_POOL_URL", hide_env_values = true)]
    pool_url: Option<String>,
    /// Connections in the request pool.
    #[arg(long, env = "DB_POOL_SIZE", default_value_t = 16)]
    pool_size: usize,
    /// Pooled connections each company's requests may use at least; more when few companies are
    /// active (docs/architecture.md).
    #[arg(long, env = "DB_POOL_MIN_CHOICES", default_value_t = 2)]
    min_choices: usize,
    /// Seconds after which a pooled connection is retired.
    #[arg(long, env = "DB_CONN_MAX_AGE_SECS", default_value_t = 1800)]
    conn_max_age_secs: u64,
    /// Prepared statements a pooled connection keeps before it drops them all, each about 27 kB
    /// in its PostgreSQL backend (docs/performance.md, "Ten thousand companies").
    #[arg(long, env = "DB_STATEMENTS_PER_CONNECTION", default_value_t = 4_000)]
    statements_per_connection: usize,
    /// Milliseconds a company's home connection may stay with one request, when many companies
    /// are active, before the requests waiting for it take another of their company's
    /// connections: longer than a sale holds one under load (docs/performance.md, "One
    /// connection a company").
    #[arg(long, env = "DB_HOME_PATIENCE_MS", default_value_t = 100)]
    home_patience_ms: u64,
}

impl DbArgs {
    fn config(&self) -> DbConfig {
        DbConfig {
            url: Secret::new(self.database_url.clone()),
            pool_url: self.pool_url.clone().map(Secret::new),
            pool_size: self.pool_size,
            min_choices: self.min_choices,
            conn_max_age: Duration::from_secs(self.conn_max_age_secs),
            statements_per_connection: self.statements_per_connection,
            home_patience: Duration::from_millis(self.home_patience_ms),
        }
    }
}

#[derive(Args)]
struct ServeArgs {
    #[command(flatten)]
    db: DbArgs,
    /// Address to listen on.
    #[arg(long, env = "BIND_ADDR", default_value = "127.0.0.1:8080")]
    bind_addr: SocketAddr,
    /// Folder of the built client.
    #[arg(long, env = "CLIENT_DIR", default_value = "client/dist")]
    client_dir: PathBuf,
    /// Hours a session token stays valid.
    #[arg(long, env = "TOKEN_TTL_HOURS", default_value_t = 12)]
    token_ttl_hours: u64,
    /// Local demo only: keep a generated JWT secret in this file when JWT_SECRET is unset.
    #[arg(long)]
    demo_secret_file: Option<PathBuf>,
    /// Tenants migrated at once at start-up.
    #[arg(long, env = "MIGRATE_CONCURRENCY", default_value_t = 8)]
    migrate_concurrency: usize,
    /// Take client addresses from X-Forwarded-For (only behind a trusted reverse proxy).
    #[arg(long, env = "TRUST_PROXY", default_value_t = false)]
    trust_proxy: bool,
    /// Company schemas kept made ahead of need, so that creating a company takes one (rows only)
    /// instead of building it (docs/architecture.md); made again in batches, once half are taken
    /// or a minute after the last company created. About the companies created in a busy hour;
    /// 0 builds each when asked.
    #[arg(long, env = "SPARE_SCHEMAS", default_value_t = 4)]
    spare_schemas: usize,
    /// Seconds at most that start-up spends, before it listens, preparing the companies' sale
    /// statements on their connections and rehearsing a sale of each in a transaction rolled
    /// back, the most recently active first (0: none).
    #[arg(long, env = "WARM_UP_SECS", default_value_t = 15)]
    warm_up_secs: u64,
    /// Seconds after start-up before the daily expiration job first looks for due companies
    /// (then it looks every hour).
    #[arg(long, env = "EXPIRATION_FIRST_CHECK_SECS",
          default_value_t = loyalty::points::expiration::FIRST_CHECK_AFTER.as_secs())]
    expiration_first_check_secs: u64,
}

#[derive(Args)]
struct MaintainArgs {
    /// PostgreSQL URL, e.g. postgres://loyalty@127.0.0.1:5432/loyalty
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: String,
    /// Changes since a table's last vacuum or analysis from which it is looked after.
    #[arg(long, default_value_t = platform::maintenance::DEFAULT_MIN_CHANGES, value_parser = clap::value_parser!(i64).range(1..))]
    min_changes: i64,
}

#[derive(Args)]
struct MigrateArgs {
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: String,
    /// Tenants migrated at once.
    #[arg(long, env = "MIGRATE_CONCURRENCY", default_value_t = 8)]
    concurrency: usize,
    /// Migrate only this company (its prefix).
    #[arg(long)]
    company: Option<String>,
    /// List what would run per tenant, change nothing.
    #[arg(long)]
    dry_run: bool,
    /// Also apply the tenant migrations in this folder (`V<n>__<name>.sql`), after the built-in
    /// ones: for rehearsing an upgrade on a copy of the database, never on the live one.
    #[arg(long, value_name = "DIR")]
    rehearse_tenant_migrations: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct SuperAdminArgs {
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: String,
    #[arg(long)]
    username: String,
    /// The password; or set SUPER_ADMIN_PASSWORD; or pipe it on standard input.
    #[arg(long, env = "SUPER_ADMIN_PASSWORD", hide_env_values = true)]
    password: Option<String>,
}

/// Every password hash or check takes 19 MiB (argon2id's default cost) on one of the runtime's
/// blocking threads. glibc serves a freed block that large from the thread's own heap next time,
/// and keeps it there: the server's memory grew with every thread that had ever hashed. A fixed
/// threshold hands such blocks back to the system as soon as they are freed.
fn return_large_blocks_to_the_system() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: mallopt only changes the allocator's tuning; 1 MiB is a valid threshold.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    return_large_blocks_to_the_system();
    telemetry::init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve(args).await,
        Command::Migrate(args) => run_migrate(args).await,
        Command::Maintain(args) => maintain(args).await,
        Command::CreateSuperAdmin(args) => create_super_admin(args).await,
        Command::SeedDemo(args) => seed_demo(args).await,
        Command::Backup(args) => {
            let files = loyalty::backup::backup(&args.database_url, &args.dir, args.concurrency).await;
            files.map(|files| {
                println!("{} files written to {}", files.len(), args.dir.display());
                ExitCode::SUCCESS
            })
        }
        Command::Restore(args) => match Prefix::parse(&args.company) {
            Ok(prefix) => loyalty::backup::restore(&args.database_url, &prefix, &args.file).await.map(|()| {
                println!("company '{prefix}' restored from {}", args.file.display());
                ExitCode::SUCCESS
            }),
            Err(err) => Err(anyhow::anyhow!("--company: {err}")),
        },
        Command::Citus(command) => citus(command).await,
        Command::Openapi => print_openapi(),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let jwt_secret = config::resolve_jwt_secret(std::env::var("JWT_SECRET").ok(), args.demo_secret_file.as_ref())?;
    let config = Config {
        db: args.db.config(),
        jwt_secret,
        token_ttl: Duration::from_secs(args.token_ttl_hours.max(1) * 3600),
        client_dir: args.client_dir,
        migrate_concurrency: args.migrate_concurrency,
        login: LoginPolicy::default(),
        trust_proxy: args.trust_proxy,
        metrics_token: std::env::var("METRICS_TOKEN").ok().filter(|t| t.len() >= 16).map(Secret::new),
        webhooks: config::WebhookConfig::from_env(|name| std::env::var(name).ok())?,
    };
    let url = config.db.url.expose().clone();
    migrate::run_platform_migrations(&url).await?;
    loyalty::citus::log_mode(&url).await?;
    let removed = platform::clean_up_leftovers(&url).await?;
    if removed > 0 {
        tracing::warn!(removed, "removed companies left over by an interrupted provisioning or deletion");
    }
    if !loyalty::app::client_is_built(&config.client_dir) {
        tracing::warn!(dir = %config.client_dir.display(), "client is not built: only the API is served");
    }
    let state = AppState::new(config)?;
    let first_check = Duration::from_secs(args.expiration_first_check_secs);
    let _daily_expiration = loyalty::points::expiration::spawn_daily(state.clone(), first_check);
    let _webhook_worker = loyalty::webhooks::worker::spawn(state.clone());
    match loyalty::points::warm::warm_up(&state, Duration::from_secs(args.warm_up_secs)).await {
        Ok(w) => tracing::info!(
            companies = w.companies,
            warmed = w.warmed,
            rehearsed = w.rehearsed,
            kept = w.kept,
            failed = w.failed,
            "connections warmed"
        ),
        Err(err) => tracing::warn!(error = ?err, "could not warm the connections"),
    }
    // After the warm-up, whose two cores its DDL would share; its first check is at once.
    let _spare_schemas = platform::spares::spawn(
        state.clone(),
        args.spare_schemas,
        platform::spares::CHECK_EVERY,
        platform::spares::QUIET_AFTER,
    );
    let listener =
        tokio::net::TcpListener::bind(args.bind_addr).await.with_context(|| format!("binding {}", args.bind_addr))?;
    tracing::info!(addr = %args.bind_addr, "serving");
    let service = loyalty::app(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, service).with_graceful_shutdown(shutdown_signal()).await?;
    tracing::info!("stopped");
    Ok(ExitCode::SUCCESS)
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut sig) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            sig.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

async fn run_migrate(args: MigrateArgs) -> anyhow::Result<ExitCode> {
    let only = match &args.company {
        Some(prefix) => Some(Prefix::parse(prefix).map_err(|e| anyhow::anyhow!("--company: {e}"))?),
        None => None,
    };
    let extra_tenant_migrations = match &args.rehearse_tenant_migrations {
        Some(dir) => {
            refinery::load_sql_migrations(dir).with_context(|| format!("reading migrations from {}", dir.display()))?
        }
        None => Vec::new(),
    };
    let opts = MigrateOptions { concurrency: args.concurrency, only, dry_run: args.dry_run, extra_tenant_migrations };
    let summary = migrate::migrate_all(&args.database_url, &opts).await?;
    if !summary.platform_applied.is_empty() {
        println!("platform: applied {:?}", summary.platform_applied);
    }
    let failed = summary.failed();
    let changed = summary.tenants.iter().filter(|t| !t.applied.is_empty()).count();
    let verb = if args.dry_run { "would change" } else { "migrated" };
    println!(
        "{} tenants: {verb} {changed}, up to date {}, failed {failed} in {:.1} s",
        summary.tenants.len(),
        summary.tenants.len() - changed - failed,
        summary.elapsed.as_secs_f64()
    );
    for tenant in summary.tenants.iter().filter(|t| t.error.is_some()) {
        println!("  FAILED {}: {}", tenant.prefix, tenant.error.as_deref().unwrap_or_default());
    }
    Ok(if failed > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

async fn maintain(args: MaintainArgs) -> anyhow::Result<ExitCode> {
    let client = loyalty::db::connect_dedicated(&args.database_url).await?;
    let summary = platform::maintenance::run(&client, args.min_changes).await?;
    if summary.busy {
        println!("another upkeep is under way: nothing done");
    } else {
        println!("vacuumed and analysed {} tables ({} companies)", summary.tables, summary.companies);
    }
    Ok(ExitCode::SUCCESS)
}

async fn create_super_admin(args: SuperAdminArgs) -> anyhow::Result<ExitCode> {
    let password = match args.password {
        Some(p) => p,
        None => {
            let mut line = String::new();
            std::io::stdin().read_line(&mut line).context("reading the password from standard input")?;
            line.trim_end_matches(['\r', '\n']).to_string()
        }
    };
    let username = args.username.trim().to_lowercase();
    if username.is_empty() || username.contains('@') || username.len() > 50 {
        anyhow::bail!("--username must be 1 to 50 characters and contain no '@'");
    }
    loyalty::domain::new_password(loyalty::i18n::Field::Password, Some(&password))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    migrate::run_platform_migrations(&args.database_url).await?;
    platform::upsert_super_admin(&args.database_url, &username, password).await?;
    println!("super admin '{username}' is ready");
    Ok(ExitCode::SUCCESS)
}

async fn seed_demo(args: DbArgs) -> anyhow::Result<ExitCode> {
    let url = args.database_url.clone();
    migrate::run_platform_migrations(&url).await?;
    let config = Config {
        db: args.config(),
        jwt_secret: Secret::new(config::random_token(48)),
        token_ttl: Duration::from_secs(3600),
        client_dir: PathBuf::from("client/dist"),
        migrate_concurrency: 1,
        login: LoginPolicy::default(),
        trust_proxy: false,
        metrics_token: None,
        webhooks: config::WebhookConfig::default(),
    };
    let state = AppState::new(config)?;
    let created = seed::seed_demo(&state).await?;
    println!("demo company '{}' {}", seed::DEMO_PREFIX, if created { "created" } else { "already present, completed" });
    Ok(ExitCode::SUCCESS)
}

/// The document the client's and the browser tests' TypeScript types are generated from
/// (client/scripts/api-types.sh).
fn print_openapi() -> anyhow::Result<ExitCode> {
    use std::io::Write;
    let json = loyalty::app::openapi().to_pretty_json().context("serialising the OpenAPI document")?;
    writeln!(std::io::stdout().lock(), "{json}").context("writing the OpenAPI document")?;
    Ok(ExitCode::SUCCESS)
}

async fn citus(command: CitusCommand) -> anyhow::Result<ExitCode> {
    use loyalty::citus;
    match command {
        CitusCommand::Status { database_url } => {
            let client = loyalty::db::connect_dedicated(&database_url).await?;
            print!("{}", citus::status(&client).await?);
        }
        CitusCommand::Move { database_url, company, to, how } => {
            let prefix = Prefix::parse(&company).map_err(|e| anyhow::anyhow!("--company: {e}"))?;
            citus::move_company(&database_url, &prefix, &to, how.options()).await?;
        }
        CitusCommand::Rebalance { database_url, how } => {
            let moved = citus::rebalance(&database_url, how.options()).await?;
            println!("{moved} companies moved");
        }
        CitusCommand::Distribute { database_url, company } => {
            let only = company.map(|c| Prefix::parse(&c).map_err(|e| anyhow::anyhow!("--company: {e}"))).transpose()?;
            let mut client = loyalty::db::connect_dedicated(&database_url).await?;
            let status = citus::status(&client).await?;
            let local: Vec<Prefix> = status
                .companies
                .iter()
                .filter(|c| c.node.is_none() && c.state == "active")
                .map(|c| Prefix::from_trusted(c.prefix.clone()))
                .filter(|p| only.as_ref().is_none_or(|o| o == p))
                .collect();
            if local.is_empty() {
                println!("no company to distribute: every one is on a worker");
            }
            for (n, prefix) in local.iter().enumerate() {
                let started = std::time::Instant::now();
                citus::distribute(&mut client, prefix).await?;
                let schema = loyalty::db::company_schema(&client, prefix).await?;
                let schema = schema.unwrap_or_else(|| loyalty::db::tenant_schema(prefix));
                let node = citus::node_of(&client, &schema).await?;
                let node = node.map_or_else(|| "?".into(), |n| n.to_string());
                println!("[{}/{}] {prefix}: on {node} ({} ms)", n + 1, local.len(), started.elapsed().as_millis());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
