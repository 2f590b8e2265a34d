//! The platform's models: a company as the super admin sees it, and the details that create or
//! change one.

use serde::{Deserialize, Serialize};

use crate::domain::{self, Prefix, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Msg};
use crate::session::CompanyInfo;

/// A company as the super admin sees it.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Company {
    /// The company's id on the platform (its users' `companyId`).
    pub id: i64,
    /// The trade name, shown in the company's header and on receipts.
    pub name: String,
    /// The company's tax id (NIT), as written.
    pub tax_id: String,
    /// An `https://` address or a path on this server; null when none.
    pub logo_url: Option<String>,
    /// The registered business name (razón social); null when not given.
    pub business_name: Option<String>,
    /// For receipts; null when not given.
    pub address: Option<String>,
    /// For receipts, as written; null when not given.
    pub phone: Option<String>,
    /// Set at creation and never changed: the company's users log in as `username@prefix`, and its
    /// data lives in the database schema named after it.
    pub prefix: String,
    /// When the company was created (RFC 3339, UTC).
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// The last tenant migration applied to the company's schema; null until the schema is
    /// provisioned.
    pub schema_version: Option<i32>,
}

impl Company {
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
    /// Required, at most 200 characters.
    #[schema(value_type = String, required = true, min_length = 1)]
    pub name: Option<String>,
    /// Create only: lowercase letters and digits, starting with a letter (2 to 30).
    pub prefix: Option<String>,
    /// The tax id (NIT): required, at most 40 characters.
    #[schema(value_type = String, required = true, min_length = 1)]
    pub tax_id: Option<String>,
    /// An `https://` address or a path on this server (starting with `/`), at most 2000 characters;
    /// absent or empty: none.
    pub logo_url: Option<String>,
    /// At most 200 characters; absent or empty: none.
    pub business_name: Option<String>,
    /// At most 200 characters; absent or empty: none.
    pub address: Option<String>,
    /// At most 40 characters; absent or empty: none.
    pub phone: Option<String>,
    /// Create only, required: the password of the company's first user, `admin`, 8 to 128
    /// characters.
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
    pub(super) fn details(&self) -> AppResult<CompanyDetails> {
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

/// The admin account a super admin acts as when impersonating a company.
pub struct CompanyAdmin {
    pub id: i64,
    pub username: String,
    pub session_version: i32,
}

/// A company's figures as the operator sees them: counts and sizes, never a customer's data.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompanyStats {
    /// The company's id on the platform.
    pub company_id: i64,
    /// The company's trade name.
    pub name: String,
    /// The company's prefix (its schema is `tenant_<prefix>`).
    pub prefix: String,
    /// The latest tenant migration applied to the company's schema; null until first computed.
    pub schema_version: Option<i32>,
    /// Bytes on disk of the company's tables with their indexes and TOAST; null until first
    /// computed.
    pub size_bytes: Option<i64>,
    /// Active customers; null until first computed.
    pub customers: Option<i64>,
    /// Ledger entries of the 30 days before `computedAt`; null until first computed.
    #[serde(rename = "transactions30d")]
    pub transactions_30d: Option<i64>,
    /// The latest ledger entry's time (RFC 3339, UTC); null when there is none.
    pub last_activity_at: Option<chrono::DateTime<chrono::Utc>>,
    /// When these figures were computed (RFC 3339, UTC); null until first computed.
    pub computed_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// The platform's totals over every active company.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlatformTotals {
    /// Active companies.
    pub companies: i64,
    /// Active customers of every company.
    pub customers: i64,
    /// Ledger entries of the last 30 days of every company.
    #[serde(rename = "transactions30d")]
    pub transactions_30d: i64,
    /// Bytes on disk of every company's schema.
    pub size_bytes: i64,
    /// The oldest figures' computation time: every figure is at least this recent. Null when
    /// no company has figures yet.
    pub computed_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// One page of the operator's view and the platform's totals.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompanyStatsPage {
    /// The page's rows, in the requested order.
    pub items: Vec<CompanyStats>,
    /// Companies matching the search (all active companies without one).
    pub total: i64,
    /// The page answered, from 1.
    pub page: i64,
    /// Rows per page: 10, 25 or 50.
    pub page_size: i64,
    /// The platform's totals, whatever the search.
    pub totals: PlatformTotals,
}

/// What a refresh of the figures did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatsRefresh {
    /// Companies whose figures were due (every active company, on the operator's demand).
    pub companies: usize,
    /// Companies whose figures were computed anew.
    pub refreshed: usize,
    /// Companies whose figures could not be computed (logged); their previous figures stay.
    pub failed: usize,
}

/// A column the operator's view sorts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsSort {
    Name,
    Prefix,
    SchemaVersion,
    SizeBytes,
    Customers,
    Transactions30d,
    LastActivityAt,
    ComputedAt,
}

impl StatsSort {
    /// The names the API accepts, as the answer's fields are named.
    pub const NAMES: &'static str =
        "name, prefix, schemaVersion, sizeBytes, customers, transactions30d, lastActivityAt, computedAt";

    pub fn parse(value: &str) -> Option<Self> {
        Some(match value {
            "name" => StatsSort::Name,
            "prefix" => StatsSort::Prefix,
            "schemaVersion" => StatsSort::SchemaVersion,
            "sizeBytes" => StatsSort::SizeBytes,
            "customers" => StatsSort::Customers,
            "transactions30d" => StatsSort::Transactions30d,
            "lastActivityAt" => StatsSort::LastActivityAt,
            "computedAt" => StatsSort::ComputedAt,
            _ => return None,
        })
    }

    /// The SQL expression sorted on (a fixed text, never the request's).
    pub fn expression(self) -> &'static str {
        match self {
            StatsSort::Name => "lower(c.name)",
            StatsSort::Prefix => "c.prefix",
            StatsSort::SchemaVersion => "s.schema_version",
            StatsSort::SizeBytes => "s.size_bytes",
            StatsSort::Customers => "s.customers",
            StatsSort::Transactions30d => "s.transactions_30d",
            StatsSort::LastActivityAt => "s.last_activity_at",
            StatsSort::ComputedAt => "s.computed_at",
        }
    }
}

/// A validated request of the operator's view.
#[derive(Clone, Debug)]
pub struct StatsQuery {
    pub sort: StatsSort,
    pub descending: bool,
    /// A `like` pattern of the lower-cased search text, when there is one.
    pub pattern: Option<String>,
    pub page: i64,
    pub page_size: i64,
}
