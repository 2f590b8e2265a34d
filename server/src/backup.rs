//! `loyalty backup` and `loyalty restore`: one `pg_dump` file per tenant schema plus one for the
//! platform schema, so one company can be brought back without touching the others.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use futures::StreamExt;
use tokio::process::Command;

use crate::citus;
use crate::db;
use crate::domain::Prefix;

/// Finds a PostgreSQL client program on PATH or among the installed server versions.
fn pg_program(name: &str) -> anyhow::Result<PathBuf> {
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path().join("bin").join(name)).collect())
        .unwrap_or_default();
    versions.sort();
    versions
        .into_iter()
        .rev()
        .find(|p| p.is_file())
        .with_context(|| format!("{name} not found: install the PostgreSQL client programs"))
}

async fn run(program: &Path, args: &[String]) -> anyhow::Result<()> {
    let output =
        Command::new(program).args(args).output().await.with_context(|| format!("running {}", program.display()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        bail!("{} failed: {}", program.display(), stderr.trim());
    }
    Ok(())
}

/// Writes `platform.dump` and `<schema>.dump` for every active company into `dir`, each
/// company's file named for its schema (`tenant_<prefix>`, or a spare's `tenant_<number>`).
/// Answers the files written.
pub async fn backup(database_url: &str, dir: &Path, concurrency: usize) -> anyhow::Result<Vec<PathBuf>> {
    let pg_dump = pg_program("pg_dump")?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let client = db::connect_dedicated(database_url).await?;
    let companies = db::active_schemas(&client).await?;
    drop(client);
    let mut schemas = vec!["platform".to_string()];
    let mut names: Vec<String> = companies.into_values().collect();
    names.sort();
    schemas.extend(names);
    let total = schemas.len();
    let mut done = 0;
    let mut written = Vec::with_capacity(total);
    let mut failures = Vec::new();
    let mut jobs = futures::stream::iter(schemas)
        .map(|schema| {
            let pg_dump = pg_dump.clone();
            let file = dir.join(format!("{schema}.dump"));
            async move {
                let started = Instant::now();
                let args = vec![
                    format!("--dbname={database_url}"),
                    format!("--schema={schema}"),
                    "--format=custom".into(),
                    "--no-owner".into(),
                    "--no-privileges".into(),
                    format!("--file={}", file.display()),
                ];
                let result = run(&pg_dump, &args).await;
                (schema, file, started.elapsed(), result)
            }
        })
        .buffer_unordered(concurrency.max(1));
    while let Some((schema, file, elapsed, result)) = jobs.next().await {
        done += 1;
        match result {
            Ok(()) => {
                println!("[{done}/{total}] {schema}: {} ({} ms)", file.display(), elapsed.as_millis());
                written.push(file);
            }
            Err(err) => {
                println!("[{done}/{total}] {schema}: FAILED: {err:#}");
                failures.push(schema);
            }
        }
    }
    if !failures.is_empty() {
        bail!("{} of {total} schemas could not be backed up: {}", failures.len(), failures.join(", "));
    }
    Ok(written)
}

/// Replaces one company's schema with the contents of its backup file, in one transaction.
/// The company must exist (and be active); other companies are not touched. On Citus the
/// company ends up on the node it was on.
pub async fn restore(database_url: &str, prefix: &Prefix, file: &Path) -> anyhow::Result<()> {
    let pg_restore = pg_program("pg_restore")?;
    if !file.is_file() {
        bail!("{} is not a file", file.display());
    }
    let mut client = db::connect_dedicated(database_url).await?;
    if !db::is_active_company(&client, prefix).await? {
        bail!("no active company with prefix '{prefix}': create it first, then restore its data");
    }
    let schema = db::company_schema(&client, prefix).await?.unwrap_or_else(|| db::tenant_schema(prefix));
    // The file must hold exactly this company's schema.
    let list = Command::new(&pg_restore).arg("--list").arg(file).output().await?;
    if !list.status.success() {
        bail!("{} is not a backup file pg_restore can read", file.display());
    }
    let listing = String::from_utf8_lossy(&list.stdout);
    if !listing.lines().any(|l| l.contains(" SCHEMA ") && l.split_whitespace().any(|w| w == schema)) {
        bail!("{} does not hold the schema {schema}", file.display());
    }
    // On Citus, pg_restore cannot replace a distributed schema in one transaction (it deadlocks
    // with itself): the schema comes back to the coordinator, is replaced there like on any
    // PostgreSQL, and goes back to its node. The company is served throughout.
    let home = if citus::installed(&client).await? { citus::node_of(&client, &schema).await? } else { None };
    if let Some(home) = &home {
        println!("bringing {schema} from {home} back to the coordinator for the restore");
        citus::undistribute(&mut client, prefix).await?;
    }
    let args = vec![
        format!("--dbname={database_url}"),
        "--single-transaction".into(),
        "--clean".into(),
        "--if-exists".into(),
        "--no-owner".into(),
        "--no-privileges".into(),
        format!("--schema={schema}"),
        file.display().to_string(),
    ];
    let restored = run(&pg_restore, &args).await;
    if let Some(home) = home {
        println!("distributing {schema} again");
        citus::distribute(&mut client, prefix).await?;
        let placed = citus::node_of(&client, &schema).await?;
        drop(client);
        if placed.as_ref() != Some(&home) {
            citus::move_company(database_url, prefix, &home, citus::MoveOptions::default()).await?;
        }
    }
    restored
}
