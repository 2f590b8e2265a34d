//! A product category as the API answers it and takes it.

use serde::{Deserialize, Serialize};

use crate::domain::{self, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Msg};

/// The icons a category may have (Heroicons names).
pub const ICONS: [&str; 26] = [
    "Tag",
    "Star",
    "Gift",
    "ShoppingBag",
    "Cake",
    "Beaker",
    "CreditCard",
    "BuildingStorefront",
    "DevicePhoneMobile",
    "ComputerDesktop",
    "ShoppingCart",
    "Heart",
    "HomeModern",
    "MusicalNote",
    "BookOpen",
    "PuzzlePiece",
    "GlobeAlt",
    "Truck",
    "WrenchScrewdriver",
    "BuildingOffice",
    "Key",
    "Cog8Tooth",
    "Map",
    "Ticket",
    "AcademicCap",
    "Sparkles",
];

/// The icon shown for a stored name that is not (or no longer) in the set.
pub const FALLBACK_ICON: &str = "Star";

/// A product category.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Category {
    /// The category's id (a product's `categoryId`).
    pub id: i64,
    /// Unique in the company without regard to case.
    pub name: String,
    /// A Heroicons name from the set `CategoryInput.icon` lists; `Star` for a stored name no longer
    /// in it.
    pub icon: String,
}

/// A category to add, or a category's new name and icon.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct CategoryInput {
    /// Required, at most 200 characters; unique in the company without regard to case.
    #[schema(value_type = String, required = true, min_length = 1)]
    name: Option<String>,
    /// One of the icon names: Tag, Star, Gift, ShoppingBag, ...
    #[schema(value_type = String, required = true, min_length = 1)]
    icon: Option<String>,
}

impl CategoryInput {
    /// The name and icon, validated.
    pub fn validate(&self) -> AppResult<(String, String)> {
        let icon = self.icon.as_deref().map(str::trim).unwrap_or_default();
        if self.name.as_deref().map(str::trim).unwrap_or_default().is_empty() || icon.is_empty() {
            return Err(AppError::bad_request(Msg::CategoryRequiredFields));
        }
        let name = domain::required_text(Field::Name, self.name.as_deref(), MAX_TEXT)?;
        if !ICONS.contains(&icon) {
            return Err(AppError::bad_request(Msg::CategoryIconUnknown.with("icons", ICONS.join(", "))));
        }
        Ok((name, icon.to_string()))
    }
}

/// Products that use a category, for the delete confirmation.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CategoryUsage {
    /// Products in the category: while any are, deleting the category deactivates it instead.
    pub products: i64,
}
