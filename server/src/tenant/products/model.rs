//! A product as the API answers it and takes it.

use serde::{Deserialize, Serialize};

use crate::domain::{self, MAX_LONG_TEXT, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Msg};

/// A product customers can redeem their points for.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Product {
    /// The product's id (a redemption's `productId`).
    pub id: i64,
    /// The company's own code, unique without regard to case.
    pub code: String,
    /// At most 200 characters.
    pub name: String,
    /// Null when none.
    pub description: Option<String>,
    /// An `https://` address or a path on this server; null when none.
    pub image_url: Option<String>,
    /// What the product is worth in whole pesos (COP): a redemption's `redeemedValue`.
    pub price: i64,
    /// What redeeming it costs, in whole points (at least 1 while active).
    pub points_value: i64,
    /// Inactive products are not offered at the till and cannot be redeemed.
    #[serde(rename = "is_active")]
    pub is_active: bool,
    /// The product's category; null when none.
    pub category_id: Option<i64>,
    /// That category's name; null without one.
    pub category_name: Option<String>,
}

/// A product to add, or a product's new state (every field is replaced).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductInput {
    /// Required, at most 50 characters; unique in the company without regard to case.
    #[schema(value_type = String, required = true, min_length = 1)]
    code: Option<String>,
    /// Required, at most 200 characters.
    #[schema(value_type = String, required = true, min_length = 1)]
    name: Option<String>,
    /// At most 2000 characters; absent or empty: none.
    description: Option<String>,
    /// Whole COP, 0 or more (a number or a string of digits).
    #[schema(value_type = Option<i64>)]
    price: Option<serde_json::Value>,
    /// Whole points, 0 or more (a number or a string of digits); at least 1 for an active product.
    #[schema(value_type = Option<i64>)]
    points_value: Option<serde_json::Value>,
    /// An `https://` address or a path on this server (starting with `/`), at most 2000 characters;
    /// absent or empty: none.
    image_url: Option<String>,
    /// Absent: active.
    #[serde(rename = "is_active")]
    is_active: Option<bool>,
    /// Optional; must be an existing category.
    #[schema(value_type = Option<i64>)]
    category_id: Option<serde_json::Value>,
}

/// A product input once validated.
pub struct ValidProduct {
    pub code: String,
    pub name: String,
    pub description: Option<String>,
    pub price: i64,
    pub points_value: i64,
    pub image_url: Option<String>,
    pub is_active: bool,
    pub category_id: Option<i64>,
}

impl ProductInput {
    /// The product, validated.
    pub fn validate(&self) -> AppResult<ValidProduct> {
        let blank = |v: &Option<String>| v.as_deref().map(str::trim).unwrap_or_default().is_empty();
        if blank(&self.code) || blank(&self.name) {
            return Err(AppError::bad_request(Msg::ProductRequiredFields));
        }
        let product = ValidProduct {
            code: domain::required_text(Field::Code, self.code.as_deref(), 50)?,
            name: domain::required_text(Field::Name, self.name.as_deref(), MAX_TEXT)?,
            description: domain::optional_text(Field::Description, self.description.as_deref(), MAX_LONG_TEXT)?,
            price: domain::whole_number(Field::Price, self.price.as_ref(), 0)?,
            points_value: domain::whole_number(Field::PointsValue, self.points_value.as_ref(), 0)?,
            image_url: domain::optional_url(Field::ImageUrl, self.image_url.as_deref())?,
            is_active: self.is_active.unwrap_or(true),
            category_id: domain::optional_id(Field::CategoryId, self.category_id.as_ref())?,
        };
        // The till offers every active product for redemption: it must be worth something.
        if product.is_active && product.points_value < 1 {
            return Err(AppError::bad_request(Msg::ProductPointsRequired.field(Field::PointsValue)));
        }
        Ok(product)
    }
}

/// Transactions that refer to a product, for the delete confirmation.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ProductUsage {
    /// Transactions that refer to the product: while there are any, deleting the product makes it
    /// inactive instead.
    pub transactions: i64,
}
