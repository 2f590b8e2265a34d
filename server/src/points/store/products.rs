//! The product a redemption is for (a read of the products area's table).

use tracing::instrument;

use crate::db::Conn;
use crate::error::AppResult;

pub const PRODUCT: &str = "select id, name, points_value, price, is_active from products where id = $1";

/// A product as a redemption needs it.
#[derive(Clone, Debug)]
pub struct RedeemableProduct {
    pub id: i64,
    pub name: String,
    pub points_value: i64,
    pub price: i64,
    pub is_active: bool,
}

#[instrument(level = "debug", skip(conn))]
pub async fn product(conn: &Conn, id: i64) -> AppResult<Option<RedeemableProduct>> {
    let stmt = conn.prepare_cached(PRODUCT).await?;
    Ok(conn.query_opt(&stmt, &[&id]).await?.map(|row| RedeemableProduct {
        id: row.get("id"),
        name: row.get("name"),
        points_value: row.get("points_value"),
        price: row.get("price"),
        is_active: row.get("is_active"),
    }))
}
