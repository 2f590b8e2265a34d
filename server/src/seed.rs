//! `loyalty seed-demo`: a demo company with users of every role, points of sale, categories,
//! products and customers. Idempotent: running it again adds nothing that is already there.

use crate::auth;
use crate::db::{quote_ident, tenant_schema};
use crate::domain::Prefix;
use crate::http::AppState;
use crate::platform::{self, CompanyDetails, NewCompany};

pub const DEMO_PREFIX: &str = "demo";
pub const DEMO_ADMIN_PASSWORD: &str = "admin123";
/// (username, password, role, point of sale)
pub const DEMO_USERS: &[(&str, &str, &str, &str)] = &[
    ("supervisor", "super123", "supervisor", "Principal"),
    ("cajero", "cajero123", "cajero", "Principal"),
    ("cajero2", "cajero123", "cajero", "Norte"),
];

const POINTS_OF_SALE: &[&str] = &["Principal", "Norte", "Sur"];
const CATEGORIES: &[(&str, &str)] =
    &[("Bebidas", "Beaker"), ("Hogar", "HomeModern"), ("Regalos", "Gift"), ("Tecnología", "DevicePhoneMobile")];
/// (code, name, description, price, points, category)
const PRODUCTS: &[(&str, &str, &str, i64, i64, &str)] = &[
    ("CAF-001", "Café de origen 500 g", "Café tostado del Huila", 28_000, 2_800, "Bebidas"),
    ("TER-002", "Termo de acero", "Termo de 750 ml", 45_000, 4_500, "Hogar"),
    ("BON-010", "Bono de regalo $10.000", "Bono para cualquier compra", 10_000, 1_000, "Regalos"),
    ("AUD-003", "Audífonos inalámbricos", "Bluetooth, estuche de carga", 120_000, 12_000, "Tecnología"),
    ("TAZ-004", "Taza de cerámica", "Taza con el logo de la tienda", 15_000, 1_500, "Hogar"),
];
/// (document, name, email, phone, birthdate)
const CUSTOMERS: &[(&str, &str, &str, &str, &str)] = &[
    ("1020304050", "Ana María Gómez", "ana.gomez@example.com", "3001234567", "1990-04-12"),
    ("79888777", "Carlos Pérez", "carlos.perez@example.com", "3109876543", "1985-11-02"),
    ("52111222", "Luisa Fernanda Rojas", "luisa.rojas@example.com", "3205551234", "1996-02-29"),
    ("1015999888", "Juan Esteban Díaz", "", "3015550000", "2001-07-20"),
];

/// Seeds the demo company; answers whether it had to create it.
pub async fn seed_demo(state: &AppState) -> anyhow::Result<bool> {
    let prefix = Prefix::parse(DEMO_PREFIX).map_err(|e| anyhow::anyhow!("{e}"))?;
    let existing = platform::active_company_by_prefix(&state.pool, &prefix).await.map_err(|e| anyhow::anyhow!("{e}"))?;
    let created = existing.is_none();
    if created {
        let new = NewCompany {
            prefix: prefix.clone(),
            details: CompanyDetails {
                name: "Tienda Demo".into(),
                tax_id: "900123456-7".into(),
                logo_url: None,
                business_name: Some("Tienda Demo S.A.S.".into()),
                address: Some("Calle 10 # 5-20, Bogotá".into()),
                phone: Some("601 555 0100".into()),
            },
            admin_password: DEMO_ADMIN_PASSWORD.into(),
        };
        platform::create_company(state, new, "seed-demo").await.map_err(|e| anyhow::anyhow!("{e:?}"))?;
    }

    let mut conn = state.pool.get().await?;
    let tx = conn.transaction().await?;
    tx.batch_execute(&format!("set local search_path to {}", quote_ident(&tenant_schema(&prefix)))).await?;
    if created {
        tx.execute(
            "update settings set points_per_peso = 0.01, redemption_rate = 1, campaign_multiplier = 1",
            &[],
        )
        .await?;
    }
    for name in POINTS_OF_SALE {
        tx.execute(
            "insert into points_of_sale (name) values ($1) on conflict do nothing",
            &[name],
        )
        .await?;
    }
    for (username, password, role, pos) in DEMO_USERS {
        let exists = tx.query_opt("select 1 from users where username = $1", &[username]).await?.is_some();
        if exists {
            continue;
        }
        let hash = auth::hash_password((*password).to_string()).await?;
        let pos_id: Option<i64> =
            tx.query_opt("select id from points_of_sale where name = $1", &[pos]).await?.map(|row| row.get(0));
        tx.execute(
            "insert into users (username, password_hash, role, pos_id) values ($1, $2, $3, $4)",
            &[username, &hash, role, &pos_id],
        )
        .await?;
    }
    for (name, icon) in CATEGORIES {
        tx.execute(
            "insert into categories (name, icon) values ($1, $2) on conflict do nothing",
            &[name, icon],
        )
        .await?;
    }
    for (code, name, description, price, points, category) in PRODUCTS {
        let category_id: Option<i64> =
            tx.query_opt("select id from categories where name = $1", &[category]).await?.map(|row| row.get(0));
        tx.execute(
            "insert into products (code, name, description, price, points_value, category_id) \
             values ($1, $2, $3, $4, $5, $6) on conflict (code) do nothing",
            &[code, name, description, price, points, &category_id],
        )
        .await?;
    }
    for (document, name, email, phone, birthdate) in CUSTOMERS {
        let email = Some(*email).filter(|e| !e.is_empty());
        tx.execute(
            "insert into customers (document, name, email, phone, birthdate) \
             values ($1, $2, $3, $4, $5::text::date) on conflict (document) do nothing",
            &[document, name, &email, phone, birthdate],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(created)
}
