//! The platform's data access: companies and the platform's audit trail, a company's schema
//! created and dropped, an impersonation's records, super admins.

use chrono::{DateTime, Utc};
use deadpool_postgres::Pool;
use tokio::task::JoinHandle;
use tokio_postgres::{Client, GenericClient, Row};
use tracing::instrument;

use super::model::{Company, CompanyAdmin, CompanyDetails, CompanyStats, NewCompany, PlatformTotals, StatsQuery};
use crate::db::{self, quote_ident, tenant_schema, Pools, TenantTx};
use crate::domain::Prefix;
use crate::error::{AppError, AppResult};
use crate::migrate;
use crate::migrate::template::Template;
use crate::platform::spares;
use crate::session::CompanyInfo;
use crate::tenant;

const COMPANY_COLUMNS: &str =
    "id, name, tax_id, logo_url, business_name, address, phone, prefix, created_at, schema_version";

fn company_from_row(row: &Row) -> Company {
    Company {
        id: row.get("id"),
        name: row.get("name"),
        tax_id: row.get("tax_id"),
        logo_url: row.get("logo_url"),
        business_name: row.get("business_name"),
        address: row.get("address"),
        phone: row.get("phone"),
        prefix: row.get("prefix"),
        created_at: row.get("created_at"),
        schema_version: row.get("schema_version"),
    }
}

/// Active companies, sorted by name.
#[instrument(level = "debug", skip_all)]
pub async fn active_companies(pool: &Pool) -> AppResult<Vec<Company>> {
    let conn = pool.get().await?;
    let sql =
        format!("select {COMPANY_COLUMNS} from platform.companies where state = 'active' order by lower(name), id");
    let rows = conn.query(&sql, &[]).await?;
    Ok(rows.iter().map(company_from_row).collect())
}

#[instrument(level = "debug", skip_all, fields(company = %prefix))]
pub async fn active_company_by_prefix(pool: &Pool, prefix: &Prefix) -> AppResult<Option<CompanyInfo>> {
    let conn = pool.get().await?;
    let stmt = conn
        .prepare_cached(&format!(
            "select {COMPANY_COLUMNS} from platform.companies where prefix = $1 and state = 'active'"
        ))
        .await?;
    Ok(conn.query_opt(&stmt, &[&prefix.as_str()]).await?.map(|row| company_from_row(&row).info()))
}

#[instrument(level = "debug", skip_all, fields(company = id))]
pub async fn active_company_by_id(pool: &Pool, id: i64) -> AppResult<Option<CompanyInfo>> {
    let conn = pool.get().await?;
    let stmt = conn
        .prepare_cached(&format!("select {COMPANY_COLUMNS} from platform.companies where id = $1 and state = 'active'"))
        .await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| company_from_row(&row).info()))
}

/// Changes an active company's details and records it, in one transaction; `None` if there is
/// no such company.
#[instrument(level = "debug", skip_all, fields(company = id))]
pub async fn update_company(pool: &Pool, id: i64, d: &CompanyDetails, actor: &str) -> AppResult<Option<Company>> {
    let mut conn = pool.get().await?;
    let tx = conn.transaction().await?;
    let sql = format!(
        "update platform.companies set name = $2, tax_id = $3, logo_url = $4, business_name = $5, \
         address = $6, phone = $7, updated_at = now() where id = $1 and state = 'active' returning {COMPANY_COLUMNS}"
    );
    let row =
        tx.query_opt(&sql, &[&id, &d.name, &d.tax_id, &d.logo_url, &d.business_name, &d.address, &d.phone]).await?;
    let Some(row) = row else { return Ok(None) };
    let company = company_from_row(&row);
    audit(&*tx, actor, "company.update", &company, serde_json::json!({ "name": company.name })).await?;
    tx.commit().await?;
    Ok(Some(company))
}

/// Records the start of an impersonation in the company's audit trail and in the platform's,
/// and answers the account acted as: the company's `admin`, or its oldest active admin if that
/// one was removed; `None` (nothing recorded) if the company has no active admin.
#[instrument(level = "debug", skip_all, fields(company = %prefix))]
pub async fn start_impersonation(
    pools: &Pools,
    company: &CompanyInfo,
    prefix: &Prefix,
    actor: &str,
) -> AppResult<Option<CompanyAdmin>> {
    let tx = TenantTx::begin(pools, prefix).await?;
    let row = tx
        .query_opt(
            "select id, username, session_version from users where role = 'admin' and is_active \
             order by (username = 'admin') desc, id limit 1",
            &[],
        )
        .await?;
    let Some(row) = row else { return Ok(None) };
    let admin =
        CompanyAdmin { id: row.get("id"), username: row.get("username"), session_version: row.get("session_version") };
    tx.execute(
        "insert into audit_log (actor, impersonated_by, action, entity, entity_id) \
         values ($1, $2, 'impersonation.start', 'user', $3)",
        &[&admin.username, &actor, &admin.id],
    )
    .await?;
    tx.commit().await?;
    let conn = pools.get().await?;
    conn.execute(
        "insert into platform.audit_log (actor, action, company_id, company_prefix) \
         values ($1, 'impersonation.start', $2, $3)",
        &[&actor, &company.id, &company.prefix],
    )
    .await?;
    Ok(Some(admin))
}

/// Advisory-lock key held by the process provisioning or deleting a company. A leftover row
/// whose lock is free belongs to a process that died part-way.
fn company_lock_key(id: i64) -> i64 {
    0x4C59_0000_0000_0000 | id
}

/// Waits for and takes the company's lock, held until the connection closes.
#[instrument(level = "debug", skip_all, fields(company = id))]
pub async fn lock_company(client: &Client, id: i64) -> Result<(), tokio_postgres::Error> {
    client.execute("select pg_advisory_lock($1)", &[&company_lock_key(id)]).await?;
    Ok(())
}

/// Takes the company's lock if no other process holds it.
#[instrument(level = "debug", skip_all, fields(company = id))]
pub async fn try_lock_company(client: &Client, id: i64) -> Result<bool, tokio_postgres::Error> {
    Ok(client.query_one("select pg_try_advisory_lock($1)", &[&company_lock_key(id)]).await?.get(0))
}

#[instrument(level = "debug", skip_all, fields(company = id))]
pub async fn unlock_company(client: &Client, id: i64) -> Result<(), tokio_postgres::Error> {
    client.execute("select pg_advisory_unlock($1)", &[&company_lock_key(id)]).await?;
    Ok(())
}

/// Records a company's change in the platform's audit trail.
#[instrument(level = "debug", skip_all, fields(action = %action))]
pub async fn audit(
    client: &impl GenericClient,
    actor: &str,
    action: &str,
    company: &Company,
    detail: serde_json::Value,
) -> Result<(), tokio_postgres::Error> {
    client
        .execute(
            "insert into platform.audit_log (actor, action, company_id, company_prefix, detail) \
             values ($1, $2, $3, $4, $5)",
            &[&actor, &action, &company.id, &company.prefix, &detail],
        )
        .await?;
    Ok(())
}

/// Creates a company from the oldest spare schema at the template's version, if one is ready, in
/// one transaction on a pooled connection: its platform row, `active` at once, taking the spare
/// ([`spares::TAKE_SQL`]) and keeping its schema; the copied rows given the time of now
/// ([`Template::restamp_script`]); its `admin` account once the password's hash is ready; its
/// creation in the platform's audit trail; its first figures (the spare's size, measured when it
/// was made, and no customer yet). Rows only: no DDL and no rename, nothing that every
/// PostgreSQL backend must then apply to its plans (docs/performance.md). `None`, and nothing
/// written, when no spare is ready; on an error nothing is written and the spare stays a spare.
#[instrument(level = "debug", skip_all, fields(company = %new.prefix))]
pub async fn create_from_spare(
    pools: &Pools,
    new: &NewCompany,
    template: &Template,
    password_hash: &mut JoinHandle<anyhow::Result<String>>,
    actor: &str,
) -> AppResult<Option<Company>> {
    let d = &new.details;
    let sql = format!(
        "with spare as ({take}), company as ( \
           insert into platform.companies (name, tax_id, logo_url, business_name, address, phone, prefix, state, \
             schema_version, schema_name) \
           select $2, $3, $4, $5, $6, $7, $8, 'active', $1, spare.schema_name from spare \
           returning {COMPANY_COLUMNS}, schema_name) \
         select company.*, spare.size_bytes from company, spare",
        take = spares::TAKE_SQL
    );
    let mut conn = pools.get().await?;
    // Dropped before its commit, the transaction rolls back.
    let tx = conn.transaction().await?;
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 8] = [
        &template.version,
        &d.name,
        &d.tax_id,
        &d.logo_url,
        &d.business_name,
        &d.address,
        &d.phone,
        &new.prefix.as_str(),
    ];
    let Some(row) = tx.query_opt(&sql, &params).await? else { return Ok(None) };
    let company = company_from_row(&row);
    let schema: String = row.get("schema_name");
    let size: Option<i64> = row.get("size_bytes");
    tx.batch_execute(&template.restamp_script(&schema)).await?;
    let password_hash = password_hash.await.map_err(AppError::internal)?.map_err(AppError::Internal)?;
    tenant::users::insert_admin(&*tx, &password_hash).await?;
    audit(&*tx, actor, "company.create", &company, serde_json::json!({ "name": company.name })).await?;
    tx.execute(
        "insert into platform.company_stats \
           (company_id, schema_version, size_bytes, customers, transactions_30d, last_activity_at, computed_at) \
         values ($1, $2, $3, 0, 0, null, now())",
        &[&company.id, &template.version, &size],
    )
    .await?;
    tx.commit().await?;
    Ok(Some(company))
}

/// The platform's row of a new company made while asked (no spare was ready), in state
/// `provisioning`, in the schema `tenant_<prefix>` (which the caller makes).
#[instrument(level = "debug", skip_all, fields(company = %prefix))]
pub async fn insert_provisioning(client: &Client, d: &CompanyDetails, prefix: &Prefix) -> AppResult<Company> {
    let sql = format!(
        "insert into platform.companies (name, tax_id, logo_url, business_name, address, phone, prefix, state, schema_name) \
         values ($1, $2, $3, $4, $5, $6, $7, 'provisioning', $8) returning {COMPANY_COLUMNS}"
    );
    let schema = tenant_schema(prefix);
    let row = client
        .query_one(
            &sql,
            &[&d.name, &d.tax_id, &d.logo_url, &d.business_name, &d.address, &d.phone, &prefix.as_str(), &schema],
        )
        .await?;
    Ok(company_from_row(&row))
}

#[instrument(level = "debug", skip(client))]
pub async fn create_schema(client: &Client, schema: &str) -> Result<(), tokio_postgres::Error> {
    client.batch_execute(&format!("create schema {}", quote_ident(schema))).await
}

/// Removes a company's platform row only (its schema, if any, is not its own).
#[instrument(level = "debug", skip_all, fields(company = id))]
pub async fn delete_company_row(client: &Client, id: i64) -> Result<(), tokio_postgres::Error> {
    client.execute("delete from platform.companies where id = $1", &[&id]).await?;
    Ok(())
}

/// Builds a new company's schema, as a copy of the tenant template when there is one (one round
/// trip, one transaction) or else by its migrations, then its `admin` account (once the
/// password's hash is ready). Answers the schema's version.
#[instrument(level = "debug", skip(client, password_hash, template))]
pub async fn provision(
    client: &mut Client,
    schema: &str,
    password_hash: JoinHandle<anyhow::Result<String>>,
    template: Option<&Template>,
) -> anyhow::Result<i32> {
    if let Some(template) = template {
        let copied = async {
            client.batch_execute(&format!("begin; {}", template.script(schema))).await?;
            // While the password's hash is computed, this backend opens each of the schema's
            // tables once, so that the company's first figures read them from its catalog cache.
            // Measuring the schema's size does that, through the index on its dependencies.
            let open_tables = SCHEMA_SIZE_SQL.replace("$2", "current_schema()");
            let (opened, password_hash) = tokio::join!(client.query_one(&open_tables, &[]), password_hash);
            opened?;
            let password_hash = password_hash??;
            tenant::users::insert_admin(client, &password_hash).await?;
            client.batch_execute("commit").await?;
            anyhow::Ok(template.version)
        }
        .await;
        if copied.is_err() {
            // Leave the connection usable for the caller's clean-up.
            let _ = client.batch_execute("rollback").await;
        }
        return copied;
    }
    let version = migrate::run_tenant_migrations(client, schema).await?;
    let password_hash = password_hash.await??;
    client.batch_execute(&format!("set search_path to {}", quote_ident(schema))).await?;
    tenant::users::insert_admin(client, &password_hash).await?;
    client.batch_execute(&format!("set search_path to {}", db::NO_TENANT_SCHEMA)).await?;
    Ok(version)
}

/// Marks a provisioned company `active` at its schema's version, and records its creation.
#[instrument(level = "debug", skip_all, fields(company = company.id))]
pub async fn activate(client: &mut Client, company: &mut Company, version: i32, actor: &str) -> AppResult<()> {
    let tx = client.transaction().await?;
    tx.execute(
        "update platform.companies set state = 'active', schema_version = $2, updated_at = now() where id = $1",
        &[&company.id, &version],
    )
    .await?;
    company.schema_version = Some(version);
    audit(&tx, actor, "company.create", company, serde_json::json!({ "name": company.name })).await?;
    tx.commit().await?;
    Ok(())
}

/// Drops a company's schema and row together.
#[instrument(level = "debug", skip(client))]
pub async fn remove_company(client: &Client, id: i64, schema: &str) -> anyhow::Result<()> {
    let schema = quote_ident(schema);
    client
        .batch_execute(&format!(
            "begin; drop schema if exists {schema} cascade; delete from platform.companies where id = {id}; commit"
        ))
        .await?;
    Ok(())
}

/// Marks an active company `deleting` (its tokens stop working at once); `None` if there is no
/// such company.
#[instrument(level = "debug", skip_all, fields(company = id))]
pub async fn mark_deleting(client: &Client, id: i64) -> AppResult<Option<Company>> {
    let sql = format!(
        "update platform.companies set state = 'deleting', updated_at = now() \
         where id = $1 and state = 'active' returning {COMPANY_COLUMNS}"
    );
    Ok(client.query_opt(&sql, &[&id]).await?.as_ref().map(company_from_row))
}

/// The companies left half-created or half-deleted, or still being created or deleted.
#[instrument(level = "debug", skip_all)]
pub async fn unfinished_companies(client: &Client) -> Result<Vec<(i64, Prefix, String)>, tokio_postgres::Error> {
    let rows = client
        .query(
            "select id, prefix, schema_name from platform.companies where state in ('provisioning', 'deleting')",
            &[],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|row| (row.get("id"), Prefix::from_trusted(row.get("prefix")), row.get("schema_name")))
        .collect())
}

/// Creates a super admin, or sets the password of an existing one.
#[instrument(level = "debug", skip_all)]
pub async fn upsert_super_admin(client: &Client, username: &str, hash: &str) -> Result<(), tokio_postgres::Error> {
    client
        .execute(
            "insert into platform.super_admins (username, password_hash) values ($1, $2) \
             on conflict (username) do update set password_hash = excluded.password_hash",
            &[&username, &hash],
        )
        .await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The operator's view: figures per company in `platform.company_stats`

fn company_stats_from_row(row: &Row) -> CompanyStats {
    CompanyStats {
        company_id: row.get("id"),
        name: row.get("name"),
        prefix: row.get("prefix"),
        schema_version: row.get("schema_version"),
        size_bytes: row.get("size_bytes"),
        customers: row.get("customers"),
        transactions_30d: row.get("transactions_30d"),
        last_activity_at: row.get("last_activity_at"),
        computed_at: row.get("computed_at"),
    }
}

/// One page of active companies with their figures, in the query's order (companies without
/// figures yet last), and how many companies match the search.
#[instrument(level = "debug", skip_all)]
pub async fn company_stats_page(client: &impl GenericClient, q: &StatsQuery) -> AppResult<(Vec<CompanyStats>, i64)> {
    let direction = if q.descending { "desc" } else { "asc" };
    let sql = format!(
        "select c.id, c.name, c.prefix, s.schema_version, s.size_bytes, s.customers, s.transactions_30d, \
         s.last_activity_at, s.computed_at \
         from platform.companies c left join platform.company_stats s on s.company_id = c.id \
         where c.state = 'active' \
           and ($1::text is null or lower(c.name) like $1 or c.prefix like $1 or lower(c.tax_id) like $1) \
         order by {} {direction} nulls last, c.id {direction} limit $2 offset $3",
        q.sort.expression()
    );
    let offset = (q.page - 1) * q.page_size;
    let rows = client.query(&sql, &[&q.pattern, &q.page_size, &offset]).await?;
    let total: i64 = client
        .query_one(
            "select count(*) from platform.companies c where c.state = 'active' \
             and ($1::text is null or lower(c.name) like $1 or c.prefix like $1 or lower(c.tax_id) like $1)",
            &[&q.pattern],
        )
        .await?
        .get(0);
    Ok((rows.iter().map(company_stats_from_row).collect(), total))
}

/// The platform's totals over every active company's latest figures.
#[instrument(level = "debug", skip_all)]
pub async fn platform_totals(client: &impl GenericClient) -> AppResult<PlatformTotals> {
    let row = client
        .query_one(
            "select count(*) as companies, coalesce(sum(s.customers), 0)::bigint as customers, \
             coalesce(sum(s.transactions_30d), 0)::bigint as transactions_30d, \
             coalesce(sum(s.size_bytes), 0)::bigint as size_bytes, min(s.computed_at) as computed_at \
             from platform.companies c left join platform.company_stats s on s.company_id = c.id \
             where c.state = 'active'",
            &[],
        )
        .await?;
    Ok(PlatformTotals {
        companies: row.get("companies"),
        customers: row.get("customers"),
        transactions_30d: row.get("transactions_30d"),
        size_bytes: row.get("size_bytes"),
        computed_at: row.get("computed_at"),
    })
}

/// The active companies whose figures were computed before `before` (or never), the oldest
/// first, with their schemas; every active company when `before` is `None`.
#[instrument(level = "debug", skip_all)]
pub async fn companies_due_for_stats(
    client: &impl GenericClient,
    before: Option<DateTime<Utc>>,
) -> Result<Vec<(i64, Prefix, String)>, tokio_postgres::Error> {
    let rows = client
        .query(
            "select c.id, c.prefix, c.schema_name from platform.companies c \
             left join platform.company_stats s on s.company_id = c.id \
             where c.state = 'active' and ($1::timestamptz is null or s.computed_at is null or s.computed_at < $1) \
             order by s.computed_at nulls first, c.id",
            &[&before],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|row| (row.get("id"), Prefix::from_trusted(row.get("prefix")), row.get("schema_name")))
        .collect())
}

/// The size on disk of the schema named `$2`: its tables' with their indexes and TOAST. The
/// tables are found through what depends on the schema (`pg_depend`'s index on the object
/// referred to), never by reading `pg_class` whole: `pg_class` has no index by schema, and at
/// 10,000 companies holds 1.3 million rows, which took 200 ms a company to read
/// (docs/performance.md, "Ten thousand companies").
pub const SCHEMA_SIZE_SQL: &str = "select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint \
     from pg_catalog.pg_depend d join pg_catalog.pg_class c on c.oid = d.objid \
     where d.refclassid = 'pg_catalog.pg_namespace'::regclass and d.refobjid = to_regnamespace($2)::oid \
       and d.classid = 'pg_catalog.pg_class'::regclass and c.relkind in ('r', 'p', 'm')";

/// Computes one company's figures in its schema at `now` and keeps them: the latest applied
/// migration, the size of its tables (with indexes and TOAST), active customers, ledger entries
/// of the 30 days before `now`, the latest entry's time. Counts only: no customer's data leaves
/// the schema. Nothing is written for a company that is no longer active.
#[instrument(level = "debug", skip(client, now))]
pub async fn refresh_company_stats(
    client: &impl GenericClient,
    id: i64,
    schema_name: &str,
    now: DateTime<Utc>,
) -> Result<(), tokio_postgres::Error> {
    let schema = quote_ident(schema_name);
    let history = migrate::HISTORY_TABLE;
    let sql = format!(
        "insert into platform.company_stats \
           (company_id, schema_version, size_bytes, customers, transactions_30d, last_activity_at, computed_at) \
         select $1, \
           (select max(version) from {schema}.{history}), \
           ({SCHEMA_SIZE_SQL}), \
           (select count(*) from {schema}.customers where is_active), \
           (select count(*) from {schema}.transactions where created_at > $3::timestamptz - interval '30 days' \
              and created_at <= $3), \
           (select max(created_at) from {schema}.transactions), \
           $3 \
         where exists (select 1 from platform.companies where id = $1 and state = 'active') \
         on conflict (company_id) do update set schema_version = excluded.schema_version, \
           size_bytes = excluded.size_bytes, customers = excluded.customers, \
           transactions_30d = excluded.transactions_30d, last_activity_at = excluded.last_activity_at, \
           computed_at = excluded.computed_at"
    );
    client.execute(&sql, &[&id, &schema_name, &now]).await?;
    Ok(())
}
