//! The platform: companies (tenants) and their lifecycle, super admins, and impersonation.

use axum::extract::State;
use axum::http::StatusCode;
use deadpool_postgres::Pool;
use serde::{Deserialize, Serialize};
use tokio::task::JoinHandle;
use tokio_postgres::Row;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::{self, quote_ident, tenant_schema};
use crate::domain::{self, Prefix, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Msg};
use crate::extract::{Json, Path};
use crate::migrate;
use crate::session::{self, CompanyInfo, SessionResponse, SuperAdmin, UserView};
use crate::state::AppState;
use crate::tenant;

/// A company as the super admin sees it.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Company {
    pub id: i64,
    pub name: String,
    pub tax_id: String,
    pub logo_url: Option<String>,
    pub business_name: Option<String>,
    pub address: Option<String>,
    pub phone: Option<String>,
    pub prefix: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub schema_version: Option<i32>,
}

const COMPANY_COLUMNS: &str =
    "id, name, tax_id, logo_url, business_name, address, phone, prefix, created_at, schema_version";

impl Company {
    fn from_row(row: &Row) -> Self {
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

    pub fn info(&self) -> CompanyInfo {
        CompanyInfo {
            id: self.id,
            name: self.name.clone(),
            logo_url: self.logo_url.clone(),
            business_name: self.business_name.clone(),
            tax_id: self.tax_id.clone(),
            address: self.address.clone(),
            phone: self.phone.clone(),
            prefix: self.prefix.clone(),
        }
    }
}

/// The fields of a company that a super admin may set or change.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompanyInput {
    #[schema(value_type = String, required = true, min_length = 1)]
    pub name: Option<String>,
    /// Create only: lowercase letters and digits, starting with a letter (2 to 30).
    pub prefix: Option<String>,
    #[schema(value_type = String, required = true, min_length = 1)]
    pub tax_id: Option<String>,
    pub logo_url: Option<String>,
    pub business_name: Option<String>,
    pub address: Option<String>,
    pub phone: Option<String>,
    pub admin_password: Option<String>,
}

/// Validated company details (everything but the prefix and the password).
pub struct CompanyDetails {
    pub name: String,
    pub tax_id: String,
    pub logo_url: Option<String>,
    pub business_name: Option<String>,
    pub address: Option<String>,
    pub phone: Option<String>,
}

/// A validated request to create a company.
pub struct NewCompany {
    pub prefix: Prefix,
    pub details: CompanyDetails,
    pub admin_password: String,
}

impl CompanyInput {
    fn details(&self) -> AppResult<CompanyDetails> {
        Ok(CompanyDetails {
            name: domain::required_text(Field::Name, self.name.as_deref(), MAX_TEXT)?,
            tax_id: domain::required_text(Field::TaxId, self.tax_id.as_deref(), 40)?,
            logo_url: domain::optional_url(Field::LogoUrl, self.logo_url.as_deref())?,
            business_name: domain::optional_text(Field::BusinessName, self.business_name.as_deref(), MAX_TEXT)?,
            address: domain::optional_text(Field::Address, self.address.as_deref(), MAX_TEXT)?,
            phone: domain::optional_text(Field::Phone, self.phone.as_deref(), 40)?,
        })
    }

    pub fn into_new(self) -> AppResult<NewCompany> {
        let missing =
            [self.name.as_deref(), self.prefix.as_deref(), self.tax_id.as_deref(), self.admin_password.as_deref()]
                .iter()
                .any(|v| v.map(str::trim).unwrap_or_default().is_empty());
        if missing {
            return Err(AppError::bad_request(Msg::CompanyRequiredFields));
        }
        let details = self.details()?;
        let prefix = Prefix::parse(self.prefix.as_deref().unwrap_or_default().trim())?;
        let admin_password = domain::new_password(Field::AdminPassword, self.admin_password.as_deref())?;
        Ok(NewCompany { prefix, details, admin_password })
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_companies, create_company_handler))
        .routes(routes!(update_company, delete_company_handler))
        .routes(routes!(impersonate))
}

/// Active companies, sorted by name.
#[utoipa::path(get, path = "/super/companies", tag = "companies", security(("bearer" = [])),
    responses((status = 200, body = Vec<Company>), crate::error::ApiErrors))]
async fn list_companies(_: SuperAdmin, State(state): State<AppState>) -> AppResult<Json<Vec<Company>>> {
    let conn = state.pool.get().await?;
    let sql =
        format!("select {COMPANY_COLUMNS} from platform.companies where state = 'active' order by lower(name), id");
    let rows = conn.query(&sql, &[]).await?;
    Ok(Json(rows.iter().map(Company::from_row).collect()))
}

/// Creates a company, its schema and its `admin` user.
#[utoipa::path(post, path = "/super/companies", tag = "companies", security(("bearer" = [])),
    request_body = CompanyInput, responses((status = 201, body = Company), crate::error::ApiErrors))]
async fn create_company_handler(
    admin: SuperAdmin,
    State(state): State<AppState>,
    Json(input): Json<CompanyInput>,
) -> AppResult<(StatusCode, Json<Company>)> {
    let new = input.into_new()?;
    let company = create_company(&state, new, &admin.username).await?;
    Ok((StatusCode::CREATED, Json(company)))
}

/// Changes a company's details (never its prefix).
#[utoipa::path(put, path = "/super/companies/{id}", tag = "companies", security(("bearer" = [])),
    params(("id" = i64, Path, description = "company id")), request_body = CompanyInput,
    responses((status = 200, body = Company), crate::error::ApiErrors))]
async fn update_company(
    admin: SuperAdmin,
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Json(input): Json<CompanyInput>,
) -> AppResult<Json<Company>> {
    if input.name.as_deref().map(str::trim).unwrap_or_default().is_empty()
        || input.tax_id.as_deref().map(str::trim).unwrap_or_default().is_empty()
    {
        return Err(AppError::bad_request(Msg::CompanyNameAndTaxIdRequired));
    }
    let d = input.details()?;
    let mut conn = state.pool.get().await?;
    let tx = conn.transaction().await?;
    let sql = format!(
        "update platform.companies set name = $2, tax_id = $3, logo_url = $4, business_name = $5, \
         address = $6, phone = $7, updated_at = now() where id = $1 and state = 'active' returning {COMPANY_COLUMNS}"
    );
    let row = tx
        .query_opt(&sql, &[&id, &d.name, &d.tax_id, &d.logo_url, &d.business_name, &d.address, &d.phone])
        .await?
        .ok_or_else(|| AppError::not_found(Msg::CompanyNotFound))?;
    let company = Company::from_row(&row);
    audit(&*tx, &admin.username, "company.update", &company, serde_json::json!({ "name": company.name })).await?;
    tx.commit().await?;
    Ok(Json(company))
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct MessageResponse {
    pub message: String,
}

/// Deletes a company with all its data, irreversibly.
#[utoipa::path(delete, path = "/super/companies/{id}", tag = "companies", security(("bearer" = [])),
    params(("id" = i64, Path, description = "company id")),
    responses((status = 200, body = MessageResponse), crate::error::ApiErrors))]
async fn delete_company_handler(
    admin: SuperAdmin,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> AppResult<Json<MessageResponse>> {
    let company = delete_company(&state, id, &admin.username).await?;
    Ok(Json(MessageResponse { message: format!("company {} deleted", company.name) }))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ImpersonateRequest {
    #[schema(value_type = i64, required = true)]
    company_id: Option<i64>,
}

/// Starts acting as a company's admin.
#[utoipa::path(post, path = "/super/impersonate", tag = "companies", security(("bearer" = [])),
    request_body = ImpersonateRequest, responses((status = 200, body = SessionResponse), crate::error::ApiErrors))]
async fn impersonate(
    admin: SuperAdmin,
    State(state): State<AppState>,
    Json(body): Json<ImpersonateRequest>,
) -> AppResult<Json<SessionResponse>> {
    let id = body.company_id.ok_or_else(|| AppError::bad_request(Msg::CompanyIdRequired))?;
    let company =
        active_company_by_id(&state.pool, id).await?.ok_or_else(|| AppError::not_found(Msg::CompanyNotFound))?;
    let prefix = Prefix::from_trusted(company.prefix.clone());
    let tx = db::TenantTx::begin(&state.pool, &prefix).await?;
    // The company's `admin` account, or its oldest active admin if that one was removed.
    let row = tx
        .query_opt(
            "select id, username, session_version from users where role = 'admin' and is_active \
             order by (username = 'admin') desc, id limit 1",
            &[],
        )
        .await?
        .ok_or_else(|| AppError::conflict(Msg::CompanyNoAdmin))?;
    let username: String = row.get("username");
    tx.execute(
        "insert into audit_log (actor, impersonated_by, action, entity, entity_id) \
         values ($1, $2, 'impersonation.start', 'user', $3)",
        &[&username, &admin.username, &row.get::<_, i64>("id")],
    )
    .await?;
    tx.commit().await?;
    let conn = state.pool.get().await?;
    conn.execute(
        "insert into platform.audit_log (actor, action, company_id, company_prefix) \
         values ($1, 'impersonation.start', $2, $3)",
        &[&admin.username, &company.id, &company.prefix],
    )
    .await?;
    let user = UserView {
        id: row.get("id"),
        username,
        role: "admin".into(),
        company_id: Some(company.id),
        company: Some(company),
        pos_id: None,
        pos_name: None,
        impersonated_by: Some(admin.username.clone()),
        session_version: row.get("session_version"),
    };
    let token = state.keys.issue(user.claims())?;
    tracing::info!(super_admin = %admin.username, company = %prefix, "impersonation started");
    Ok(Json(SessionResponse { token, user }))
}

// ---------------------------------------------------------------------------------------------
// Data access

pub async fn active_company_by_prefix(pool: &Pool, prefix: &Prefix) -> AppResult<Option<CompanyInfo>> {
    let conn = pool.get().await?;
    let stmt = conn
        .prepare_cached(&format!(
            "select {COMPANY_COLUMNS} from platform.companies where prefix = $1 and state = 'active'"
        ))
        .await?;
    Ok(conn.query_opt(&stmt, &[&prefix.as_str()]).await?.map(|row| Company::from_row(&row).info()))
}

pub async fn active_company_by_id(pool: &Pool, id: i64) -> AppResult<Option<CompanyInfo>> {
    let conn = pool.get().await?;
    let stmt = conn
        .prepare_cached(&format!("select {COMPANY_COLUMNS} from platform.companies where id = $1 and state = 'active'"))
        .await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| Company::from_row(&row).info()))
}

/// Advisory-lock key held by the process provisioning or deleting a company. A leftover row
/// whose lock is free belongs to a process that died part-way.
fn company_lock_key(id: i64) -> i64 {
    0x4C59_0000_0000_0000 | id
}

async fn audit(
    client: &impl tokio_postgres::GenericClient,
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

/// Creates a company and provisions its schema: the platform row (as `provisioning`), the
/// schema, its migrations, the `admin` user and default settings, then marks it `active`.
/// If any step fails nothing remains: the schema and the row are removed.
pub async fn create_company(state: &AppState, new: NewCompany, actor: &str) -> AppResult<Company> {
    // The admin's password is hashed (tens of milliseconds of CPU) while the database builds the
    // schema, and is awaited only to insert the account.
    let password_hash = tokio::spawn(session::hash_password(new.admin_password.clone()));
    let url = state.config.db.url.expose().clone();
    let mut client = db::connect_dedicated(&url).await?;
    let d = &new.details;
    let sql = format!(
        "insert into platform.companies (name, tax_id, logo_url, business_name, address, phone, prefix, state) \
         values ($1, $2, $3, $4, $5, $6, $7, 'provisioning') returning {COMPANY_COLUMNS}"
    );
    let row = client
        .query_one(
            &sql,
            &[&d.name, &d.tax_id, &d.logo_url, &d.business_name, &d.address, &d.phone, &new.prefix.as_str()],
        )
        .await?;
    let mut company = Company::from_row(&row);
    client.execute("select pg_advisory_lock($1)", &[&company_lock_key(company.id)]).await?;

    let schema = quote_ident(&tenant_schema(&new.prefix));
    if let Err(err) = client.batch_execute(&format!("create schema {schema}")).await {
        // Not ours to drop: only the row goes.
        client.execute("delete from platform.companies where id = $1", &[&company.id]).await?;
        tracing::error!(company = %new.prefix, error = %err, "could not create the company schema");
        return Err(AppError::conflict(Msg::CompanySchemaExists));
    }
    match provision(&mut client, &new.prefix, password_hash).await {
        Ok(version) => {
            let tx = client.transaction().await?;
            tx.execute(
                "update platform.companies set state = 'active', schema_version = $2, updated_at = now() where id = $1",
                &[&company.id, &version],
            )
            .await?;
            company.schema_version = Some(version);
            audit(&tx, actor, "company.create", &company, serde_json::json!({ "name": company.name })).await?;
            tx.commit().await?;
            tracing::info!(company = %new.prefix, "company created");
            Ok(company)
        }
        Err(err) => {
            tracing::error!(company = %new.prefix, error = ?err, "provisioning failed, removing what was created");
            remove_company(&client, company.id, &new.prefix).await.map_err(AppError::internal)?;
            Err(AppError::Internal(err))
        }
    }
}

async fn provision(
    client: &mut tokio_postgres::Client,
    prefix: &Prefix,
    password_hash: JoinHandle<anyhow::Result<String>>,
) -> anyhow::Result<i32> {
    let schema = quote_ident(&tenant_schema(prefix));
    let version = migrate::run_tenant_migrations(client, prefix).await?;
    let password_hash = password_hash.await??;
    client.batch_execute(&format!("set search_path to {schema}")).await?;
    tenant::users::insert_admin(client, &password_hash).await?;
    client.batch_execute(&format!("set search_path to {}", db::NO_TENANT_SCHEMA)).await?;
    Ok(version)
}

/// Drops a company's schema and row together.
async fn remove_company(client: &tokio_postgres::Client, id: i64, prefix: &Prefix) -> anyhow::Result<()> {
    let schema = quote_ident(&tenant_schema(prefix));
    client
        .batch_execute(&format!(
            "begin; drop schema if exists {schema} cascade; delete from platform.companies where id = {id}; commit"
        ))
        .await?;
    Ok(())
}

/// Deletes a company: its tokens stop working at once (state `deleting`), then its schema and
/// row are dropped in one transaction.
pub async fn delete_company(state: &AppState, id: i64, actor: &str) -> AppResult<Company> {
    let client = db::connect_dedicated(state.config.db.url.expose()).await?;
    let sql = format!(
        "update platform.companies set state = 'deleting', updated_at = now() \
         where id = $1 and state = 'active' returning {COMPANY_COLUMNS}"
    );
    let row = client.query_opt(&sql, &[&id]).await?.ok_or_else(|| AppError::not_found(Msg::CompanyNotFound))?;
    let company = Company::from_row(&row);
    client.execute("select pg_advisory_lock($1)", &[&company_lock_key(id)]).await?;
    let prefix = Prefix::from_trusted(company.prefix.clone());
    audit(&client, actor, "company.delete", &company, serde_json::json!({ "name": company.name })).await?;
    remove_company(&client, id, &prefix).await?;
    tracing::info!(company = %prefix, "company deleted");
    Ok(company)
}

/// Removes companies left half-created or half-deleted by a process that died part-way.
/// A company whose provisioning is still running elsewhere holds its lock and is left alone.
pub async fn clean_up_leftovers(database_url: &str) -> anyhow::Result<usize> {
    let client = db::connect_dedicated(database_url).await?;
    let rows = client
        .query("select id, prefix from platform.companies where state in ('provisioning', 'deleting')", &[])
        .await?;
    let mut removed = 0;
    for row in rows {
        let id: i64 = row.get("id");
        let key = company_lock_key(id);
        let locked: bool = client.query_one("select pg_try_advisory_lock($1)", &[&key]).await?.get(0);
        if !locked {
            continue;
        }
        let prefix = Prefix::from_trusted(row.get("prefix"));
        tracing::warn!(company = %prefix, "removing a company left half-provisioned or half-deleted");
        remove_company(&client, id, &prefix).await?;
        client.execute("select pg_advisory_unlock($1)", &[&key]).await?;
        removed += 1;
    }
    Ok(removed)
}

/// Creates a super admin, or resets the password of an existing one.
pub async fn upsert_super_admin(database_url: &str, username: &str, password: String) -> anyhow::Result<()> {
    let hash = session::hash_password(password).await?;
    let client = db::connect_dedicated(database_url).await?;
    client
        .execute(
            "insert into platform.super_admins (username, password_hash) values ($1, $2) \
             on conflict (username) do update set password_hash = excluded.password_hash",
            &[&username, &hash],
        )
        .await?;
    Ok(())
}
