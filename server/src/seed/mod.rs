//! `loyalty seed-demo`: a demo company with users of every role, points of sale, categories,
//! products and customers. Idempotent: running it again adds nothing that is already there.

use crate::domain::Prefix;
use crate::platform::{self, CompanyDetails, NewCompany};
use crate::session;
use crate::state::AppState;

mod store;

pub const DEMO_PREFIX: &str = "demo";
pub const DEMO_ADMIN_PASSWORD: &str = "admin123";
/// (username, password, role, point of sale)
pub const DEMO_USERS: &[(&str, &str, &str, &str)] = &[
    ("supervisor", "super123", "supervisor", "Principal"),
    ("cajero", "cajero123", "cajero", "Principal"),
    ("cajero2", "cajero123", "cajero", "Norte"),
    ("cajero3", "cajero123", "cajero", "Sur"),
    ("cajero4", "cajero123", "cajero", "Principal"),
];

const POINTS_OF_SALE: &[&str] = &["Principal", "Norte", "Sur"];
const CATEGORIES: &[(&str, &str)] =
    &[("Bebidas", "Beaker"), ("Hogar", "HomeModern"), ("Regalos", "Gift"), ("Tecnología", "DevicePhoneMobile")];
/// (code, name, description, price, category). A product's points value is its price in points
/// at the company's redemption rate (`price × redemptionRate`), so the catalogue agrees with
/// what a point is worth at the till.
const PRODUCTS: &[(&str, &str, &str, i64, &str)] = &[
    ("BOL-008", "Bolsa reutilizable", "Bolsa de tela con el logo de la tienda", 4_000, "Hogar"),
    ("BON-005", "Bono de regalo $5.000", "Bono para cualquier compra", 5_000, "Regalos"),
    ("JUG-006", "Jugo natural 1 L", "Jugo de fruta sin azúcar añadida", 8_500, "Bebidas"),
    ("BON-010", "Bono de regalo $10.000", "Bono para cualquier compra", 10_000, "Regalos"),
    ("TAZ-004", "Taza de cerámica", "Taza con el logo de la tienda", 15_000, "Hogar"),
    ("CAF-001", "Café de origen 500 g", "Café tostado del Huila", 28_000, "Bebidas"),
    ("CAR-007", "Cargador USB-C", "Cargador rápido de 20 W", 35_000, "Tecnología"),
    ("TER-002", "Termo de acero", "Termo de 750 ml", 45_000, "Hogar"),
    ("AUD-003", "Audífonos inalámbricos", "Bluetooth, estuche de carga", 120_000, "Tecnología"),
];
/// (document, name, email, phone, birthdate): the customers the README and the docs name.
const CUSTOMERS: &[(&str, &str, &str, &str, &str)] = &[
    ("1020304050", "Ana María Gómez", "ana.gomez@example.com", "3001234567", "1990-04-12"),
    ("79888777", "Carlos Pérez", "carlos.perez@example.com", "3109876543", "1985-11-02"),
    ("52111222", "Luisa Fernanda Rojas", "luisa.rojas@example.com", "3205551234", "1996-02-29"),
    ("1015999888", "Juan Esteban Díaz", "", "3015550000", "2001-07-20"),
];
/// Customers made up besides the named ones.
const GENERATED_CUSTOMERS: i32 = 296;
/// Days of history before today.
pub const HISTORY_DAYS: i32 = 60;

/// Seeds the demo company; answers whether it had to create it.
pub async fn seed_demo(state: &AppState) -> anyhow::Result<bool> {
    let prefix = Prefix::parse(DEMO_PREFIX).map_err(|e| anyhow::anyhow!("{e}"))?;
    let existing =
        platform::store::active_company_by_prefix(&state.pool, &prefix).await.map_err(|e| anyhow::anyhow!("{e}"))?;
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
    store::enter_company(&tx, &prefix).await?;
    // The history is made once, on a company without a ledger; everything else is completed.
    let history = store::has_no_ledger(&tx).await?;
    if history {
        store::set_demo_rules(&tx).await?;
    }
    for name in POINTS_OF_SALE {
        store::add_point_of_sale(&tx, name).await?;
    }
    let mut hashes: Vec<(&str, String)> = Vec::new();
    for (username, password, role, pos) in DEMO_USERS {
        if store::user_exists(&tx, username).await? {
            continue;
        }
        // One hash per password: argon2 is slow on purpose.
        let hash = match hashes.iter().find(|(known, _)| known == password) {
            Some((_, hash)) => hash.clone(),
            None => {
                let hash = session::hash_password((*password).to_string()).await?;
                hashes.push((password, hash.clone()));
                hash
            }
        };
        store::add_user(&tx, username, &hash, role, pos).await?;
    }
    for (name, icon) in CATEGORIES {
        store::add_category(&tx, name, icon).await?;
    }
    for (code, name, description, price, category) in PRODUCTS {
        store::add_product(&tx, code, name, description, *price, category).await?;
    }
    for (document, name, email, phone, birthdate) in CUSTOMERS {
        let email = Some(*email).filter(|e| !e.is_empty());
        store::add_customer(&tx, document, name, email, phone, birthdate).await?;
    }
    store::add_generated_customers(&tx, GENERATED_CUSTOMERS).await?;
    store::add_consents(&tx, &prefix).await?;
    if history {
        store::write_history(&tx, HISTORY_DAYS).await?;
    }
    tx.commit().await?;
    Ok(created)
}
