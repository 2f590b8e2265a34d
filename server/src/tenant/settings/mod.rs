//! The program's rules and the role permission lists.

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::AppResult;
use crate::extract::Json;
use crate::session::Tenant;
use crate::state::AppState;

pub mod model;
mod store;

use model::{Settings, SettingsInput, SetupProgress};
pub use store::{load, SELECT};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(read, save)).routes(routes!(setup))
}

/// The program's rules and role permissions (every company role).
#[utoipa::path(get, path = "/settings", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = Settings), crate::error::ApiErrors))]
async fn read(t: Tenant) -> AppResult<Json<Settings>> {
    let settings = load(&t).await?;
    t.commit().await?;
    Ok(Json(settings))
}

/// Saves the program's rules and role permissions (admin); answers the saved settings.
#[utoipa::path(post, path = "/settings", tag = "settings", security(("bearer" = [])), request_body = SettingsInput,
    responses((status = 200, body = Settings), crate::error::ApiErrors))]
async fn save(t: Tenant, Json(input): Json<SettingsInput>) -> AppResult<Json<Settings>> {
    t.require_admin()?;
    store::lock(&t).await?;
    let before = load(&t).await?;
    let s = input.apply(before.clone())?;
    store::save(&t, &s).await?;
    let changes = rule_changes(&before, &s);
    if !changes.is_empty() {
        let detail = serde_json::json!({ "changes": changes });
        crate::tenant::audit(&t, "settings.update", "settings", None, detail).await?;
    }
    if before.role_permissions != s.role_permissions {
        let detail = serde_json::json!({ "before": before.role_permissions, "after": s.role_permissions });
        crate::tenant::audit(&t, "permissions.update", "settings", None, detail).await?;
    }
    let saved = load(&t).await?;
    t.commit().await?;
    Ok(Json(saved))
}

/// The rules a save changed, as the audit trail records them: each field's API name to
/// `{from, to}`; the role permissions apart (`permissions.update` records them). Rules added
/// later are compared with no change here.
fn rule_changes(before: &Settings, after: &Settings) -> serde_json::Map<String, serde_json::Value> {
    let (serde_json::Value::Object(old), serde_json::Value::Object(new)) =
        (serde_json::json!(before), serde_json::json!(after))
    else {
        return serde_json::Map::new();
    };
    new.into_iter()
        .filter(|(field, _)| field != "rolePermissions")
        .filter_map(|(field, to)| {
            let from = old.get(&field).cloned().unwrap_or_default();
            (from != to).then(|| (field, serde_json::json!({ "from": from, "to": to })))
        })
        .collect()
}

/// The admin's set-up checklist: the rules, points of sale, staff and products.
#[utoipa::path(get, path = "/settings/setup", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = SetupProgress), crate::error::ApiErrors))]
async fn setup(t: Tenant) -> AppResult<Json<SetupProgress>> {
    t.require_admin()?;
    let rules = load(&t).await?.rules_set();
    let (points_of_sale, users, products) = store::setup_counts(&t).await?;
    t.commit().await?;
    Ok(Json(SetupProgress { rules, points_of_sale, users, products }))
}
