//! The import's options and answer.

use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult, Msg};

/// At most this many row errors are listed in the answer; `errorCount` counts them all.
pub const MAX_LISTED_ERRORS: usize = 1000;

/// The largest file the import takes (413 beyond): far above the API's 64 KiB, since a
/// million customers make a file of about 100 MB (docs/import.md).
pub const MAX_FILE_BYTES: u64 = 200 * 1024 * 1024;

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ImportParams {
    /// `true` (the default): read and check every row, write nothing. `false`: write the valid rows.
    pub dry_run: Option<bool>,
    /// What to do with a document a customer already has: `skip` (the default) or `update`
    /// (its details are replaced; its points are not touched).
    pub on_existing: Option<String>,
    /// The consent channel of every row whose `consent` column is empty: `store`, `web` or
    /// `import`.
    pub consent_channel: Option<String>,
}

/// What happens to a document a customer already has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnExisting {
    Skip,
    Update,
}

impl OnExisting {
    pub fn parse(raw: Option<&str>) -> AppResult<Self> {
        match raw.map(str::trim).unwrap_or_default() {
            "" | "skip" => Ok(OnExisting::Skip),
            "update" => Ok(OnExisting::Update),
            _ => Err(AppError::bad_request(Msg::ImportOnExistingInvalid)),
        }
    }
}

/// How a customer gave the authorization to hold their data (docs/privacy.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConsentChannel {
    Store,
    Web,
    Import,
}

impl ConsentChannel {
    /// The channel named by `raw` (Spanish names too); `None` when empty.
    pub fn parse(raw: &str) -> Result<Option<Self>, Msg> {
        match raw.trim().to_lowercase().as_str() {
            "" => Ok(None),
            "store" | "tienda" => Ok(Some(ConsentChannel::Store)),
            "web" => Ok(Some(ConsentChannel::Web)),
            "import" | "importacion" | "importación" => Ok(Some(ConsentChannel::Import)),
            _ => Err(Msg::ImportConsentInvalid),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ConsentChannel::Store => "store",
            ConsentChannel::Web => "web",
            ConsentChannel::Import => "import",
        }
    }
}

/// One problem of one row, as a spreadsheet user finds it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct RowError {
    /// The row's line as a spreadsheet shows it (the header is line 1).
    pub line: u64,
    /// The column as the file's header names it (or the field's name when the file lacks it).
    pub column: String,
    /// What is wrong, in the request's language.
    pub message: String,
}

/// What an import read and (unless a dry run) wrote.
#[derive(Debug, Default, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportAnswer {
    /// True when nothing was written.
    pub dry_run: bool,
    /// Data rows read (blank rows are not counted).
    pub rows: u64,
    /// Rows without errors: written (or that would be) as below.
    pub valid: u64,
    /// Valid rows whose document no customer has: new customers.
    pub created: u64,
    /// Valid rows of existing customers whose details were replaced (`onExisting=update`).
    pub updated: u64,
    /// Valid rows of existing customers left as they are (`onExisting=skip`).
    pub skipped: u64,
    /// The opening points given to the new customers, in all.
    pub opening_points: i64,
    /// Errors in all (a row may have several); `errors` lists the first 1,000.
    pub error_count: u64,
    /// The first 1,000 errors, by line.
    pub errors: Vec<RowError>,
}
