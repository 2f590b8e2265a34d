//! A point of sale as the API answers it and takes it.

use serde::{Deserialize, Serialize};

use crate::domain::{self, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Msg};

/// A point of sale: the till or store where users post.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PointOfSale {
    /// The point of sale's id (a user's or a transaction's `posId`).
    pub id: i64,
    /// Unique in the company without regard to case.
    pub name: String,
}

/// A point of sale to add, or its new name.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct PosInput {
    /// Required, at most 200 characters; unique in the company without regard to case.
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
    /// Users assigned to the point of sale.
    pub users: i64,
    /// Transactions posted at it. While either count is above 0, deleting the point of sale
    /// deactivates it instead.
    pub transactions: i64,
}
