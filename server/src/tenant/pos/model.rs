//! A point of sale as the API answers it and takes it.

use serde::{Deserialize, Serialize};

use crate::domain::{self, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Msg};

#[derive(Serialize, utoipa::ToSchema)]
pub struct PointOfSale {
    pub id: i64,
    pub name: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct PosInput {
    #[schema(value_type = String, required = true, min_length = 1)]
    name: Option<String>,
}

impl PosInput {
    /// The name, validated.
    pub fn name(&self) -> AppResult<String> {
        domain::required_text(Field::Name, self.name.as_deref(), MAX_TEXT).map_err(|e| {
            if self.name.as_deref().map(str::trim).unwrap_or_default().is_empty() {
                AppError::bad_request(Msg::PosNameRequired)
            } else {
                e
            }
        })
    }
}

/// What refers to a point of sale, for the delete confirmation.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PosUsage {
    pub users: i64,
    pub transactions: i64,
}
