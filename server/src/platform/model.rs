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
