//! The audit trail, readable (`GET /api/audit`): each recorded action with its detail, the
//! filters and paging, admins only, one company's entries only.

use chrono::Utc;
use loyalty::points::expiration::run_daily;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{refused_and_throttled, TestApp, SUPER_ADMIN};
use crate::points::support::*;

/// The trail's entries as the admin reads them, newest first (`query` adds filters).
async fn trail(app: &TestApp, token: &str, query: &str) -> Vec<Value> {
    let answer = app.get(&format!("/api/audit?pageSize=50&{query}"), token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    answer.body["items"].as_array().unwrap().clone()
}

/// The newest entry of `action`.
fn entry<'a>(entries: &'a [Value], action: &str) -> &'a Value {
    entries.iter().find(|e| e["action"] == action).unwrap_or_else(|| panic!("no {action} in {entries:#?}"))
}

fn actions(entries: &[Value]) -> Vec<&str> {
    entries.iter().map(|e| e["action"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn a_rule_change_shows_each_changed_field_with_its_old_and_new_value_and_a_permission_change_the_grid() {
    let (app, shop) = acme().await;
    let before = app.get("/api/settings", &shop.admin).await.body;

    let saved = app.post("/api/settings", &shop.admin, json!({ "pointsPerPeso": 0.02, "inactivityDays": 90 })).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    let grid = json!({ "supervisor": ["/main", "/reportes"], "cajero": ["/accreditar"] });
    assert_eq!(app.post("/api/settings", &shop.admin, json!({ "rolePermissions": grid })).await.status, StatusCode::OK);
    // Saving what is already there records nothing.
    assert_eq!(app.post("/api/settings", &shop.admin, json!({ "pointsPerPeso": 0.02 })).await.status, StatusCode::OK);

    let entries = trail(&app, &shop.admin, "").await;
    assert_eq!(actions(&entries), ["permissions.update", "settings.update"]);
    let rules = entry(&entries, "settings.update");
    assert_eq!(rules["actor"], "admin");
    assert_eq!(rules["impersonatedBy"], Value::Null);
    assert_eq!(
        rules["detail"],
        json!({ "changes": {
            "pointsPerPeso": { "from": 0.01, "to": 0.02 },
            "inactivityDays": { "from": before["inactivityDays"], "to": 90 },
        } })
    );
    let permissions = entry(&entries, "permissions.update");
    assert_eq!(permissions["detail"], json!({ "before": before["rolePermissions"], "after": grid }));
}

#[tokio::test]
async fn users_created_edited_deleted_and_reactivated_and_their_passwords_appear_with_the_username() {
    let (app, shop, customer) = acme_with_customer().await;
    let centro = app.create_pos(&shop.admin, "Centro").await;
    let norte = app.create_pos(&shop.admin, "Norte").await;
    let (ana, ana_token) = app.create_user(&shop.admin, "acme", "ana", "cajero", Some(centro)).await;
    let edited =
        app.put(&format!("/api/users/{ana}"), &shop.admin, json!({ "role": "supervisor", "posId": norte })).await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.body);
    accredited(&app, &ana_token, customer, 10_000).await;
    let reset =
        app.post(&format!("/api/users/{ana}/password"), &shop.admin, json!({ "password": "otra-clave-9" })).await;
    assert_eq!(reset.status, StatusCode::OK, "{}", reset.body);
    let ana_token = app.login_ok("ana@acme", "otra-clave-9").await;
    let change = json!({ "currentPassword": "otra-clave-9", "newPassword": "tercera-clave-9" });
    assert_eq!(app.post("/api/me/password", &ana_token, change).await.status, StatusCode::OK);
    assert_eq!(app.delete(&format!("/api/users/{ana}"), &shop.admin).await.body["deleted"], "soft");
    assert_eq!(app.post(&format!("/api/users/{ana}/reactivate"), &shop.admin, json!({})).await.status, StatusCode::OK);

    let entries = trail(&app, &shop.admin, "").await;
    let of_ana: Vec<&Value> = entries.iter().filter(|e| e["entity"] == "user" && e["entityId"] == ana).collect();
    assert_eq!(
        of_ana.iter().map(|e| e["action"].as_str().unwrap()).collect::<Vec<_>>(),
        ["user.reactivate", "user.delete", "user.passwordChange", "user.passwordReset", "user.update", "user.create"]
    );
    let created = entry(&entries, "user.create");
    assert_eq!(created["detail"]["username"], "ana");
    assert_eq!(created["detail"]["after"], json!({ "role": "cajero", "posId": centro, "posName": "Centro" }));
    let update = entry(&entries, "user.update");
    assert_eq!(update["detail"]["username"], "ana");
    assert_eq!(update["detail"]["before"], json!({ "role": "cajero", "posId": centro, "posName": "Centro" }));
    assert_eq!(update["detail"]["after"], json!({ "role": "supervisor", "posId": norte, "posName": "Norte" }));
    assert_eq!(entry(&entries, "user.passwordReset")["detail"], json!({ "username": "ana" }));
    let changed = entry(&entries, "user.passwordChange");
    assert_eq!((&changed["actor"], &changed["detail"]), (&json!("ana"), &json!({ "username": "ana" })));
    assert_eq!(entry(&entries, "user.delete")["detail"], json!({ "kind": "soft", "name": "ana" }));
    let reactivated = entry(&entries, "user.reactivate");
    assert_eq!(reactivated["detail"]["name"], "ana");
    assert_eq!(reactivated["detail"]["after"]["role"], "supervisor");
    // No password ever reaches the trail.
    assert!(!serde_json::to_string(&entries).unwrap().contains("clave"));
}

#[tokio::test]
async fn a_void_shows_the_supervisor_who_approved_it_and_expiration_runs_show_their_trigger() {
    let CajeroSale { app, shop, cajero, sale, .. } = cajero_sale("jefe").await;
    let approval = json!({ "supervisorUsername": "jefe", "supervisorPassword": STAFF_PASSWORD });
    assert_eq!(void_api(&app, &cajero, &sale, approval).await.status, StatusCode::OK);
    assert_eq!(app.post("/api/tasks/expire-points", &shop.admin, json!({})).await.status, StatusCode::OK);
    let prefix = loyalty::domain::Prefix::parse("acme").unwrap();
    assert!(run_daily(&app.state.pool, &prefix, Utc::now()).await.unwrap().is_some());

    let entries = trail(&app, &shop.admin, "").await;
    let void = entry(&entries, "transaction.void");
    assert_eq!((&void["actor"], &void["entity"], &void["entityId"]), (&json!("caja1"), &json!("transaction"), &sale));
    assert_eq!(void["detail"]["approvedBy"], "jefe");
    assert_eq!(void["detail"]["type"], "accreditation");
    assert_eq!(void["detail"]["points"], -100);
    let runs: Vec<&Value> = entries.iter().filter(|e| e["action"] == "points.expire").collect();
    assert_eq!(runs.len(), 2);
    assert_eq!((&runs[0]["actor"], &runs[0]["detail"]["trigger"]), (&json!("system"), &json!("daily")));
    assert_eq!((&runs[1]["actor"], &runs[1]["detail"]["trigger"]), (&json!("admin"), &json!("manual")));
    assert_eq!(runs[1]["detail"]["policy"], "none");
    assert_eq!(runs[1]["entity"], "expiration_run");
}

#[tokio::test]
async fn an_impersonation_shows_the_super_admin_entering_and_acting_and_a_locked_login_shows_the_login() {
    let app = crate::helpers::spawn_app().await;
    let (acme_id, admin) = app.create_company("acme").await;
    let answer = app.post("/api/super/impersonate", &app.super_token, json!({ "companyId": acme_id })).await;
    let token = answer.body["token"].as_str().unwrap().to_string();
    let pos = app.create_pos(&token, "Creado por soporte").await;
    let passwords: Vec<String> = (0..30).map(|i| format!("guess-{i}")).collect();
    let guesses = passwords.iter().map(|password| app.login("admin@acme", password));
    let (refused, _) = refused_and_throttled(&futures::future::join_all(guesses).await);
    assert!(refused >= 1);

    let entries = trail(&app, &admin, "").await;
    let entered = entry(&entries, "impersonation.start");
    assert_eq!((&entered["actor"], &entered["impersonatedBy"]), (&json!("admin"), &json!(SUPER_ADMIN)));
    let acted = entry(&entries, "pos.create");
    assert_eq!((&acted["impersonatedBy"], &acted["entityId"]), (&json!(SUPER_ADMIN), &json!(pos)));
    let locked = entry(&entries, "login.locked");
    assert_eq!(locked["detail"]["login"], "admin@acme");
    assert_eq!(locked["detail"]["via"], "login");
    // The super admin's name finds what was done under it.
    let by_root = trail(&app, &admin, &format!("actor={SUPER_ADMIN}")).await;
    assert_eq!(actions(&by_root), ["pos.create", "impersonation.start"]);
}

#[tokio::test]
async fn the_trail_filters_by_actor_action_and_days_in_the_company_time_zone_and_pages_newest_first() {
    let (app, shop) = acme().await;
    // 23:30 in Bogotá on 1 March is 04:30 UTC on 2 March.
    sql(
        &app,
        &shop,
        "insert into audit_log (at, actor, action, entity, entity_id) values \
         ('2025-03-01 23:30-05', 'ana', 'user.create', 'user', 1), \
         ('2025-03-02 00:30-05', 'ana', 'transaction.return', 'transaction', 7), \
         ('2025-03-02 10:00-05', 'beto', 'user.create', 'user', 2), \
         ('2025-03-03 08:00-05', 'beto', 'accreditation.override', 'transaction', 8)",
    )
    .await;
    let ids = |entries: Vec<Value>| entries.iter().map(|e| e["entityId"].as_i64().unwrap()).collect::<Vec<_>>();

    assert_eq!(ids(trail(&app, &shop.admin, "").await), [8, 2, 7, 1], "newest first");
    assert_eq!(ids(trail(&app, &shop.admin, "from=2025-03-02&to=2025-03-02").await), [2, 7]);
    assert_eq!(ids(trail(&app, &shop.admin, "to=2025-03-01").await), [1]);
    assert_eq!(ids(trail(&app, &shop.admin, "actor=ANA").await), [7, 1]);
    assert_eq!(ids(trail(&app, &shop.admin, "action=user.create").await), [2, 1]);
    assert_eq!(ids(trail(&app, &shop.admin, "actor=beto&action=user.create&from=2025-03-02").await), [2]);
    // In another time zone the same instants fall on other days.
    sql(&app, &shop, "update settings set time_zone = 'UTC'").await;
    assert_eq!(ids(trail(&app, &shop.admin, "from=2025-03-02&to=2025-03-02").await), [2, 7, 1]);

    let first = app.get("/api/audit?pageSize=10", &shop.admin).await.body;
    assert_eq!((first["total"].as_i64(), first["totalExact"].as_bool()), (Some(4), Some(true)));
    sql(
        &app,
        &shop,
        "insert into audit_log (at, actor, action) select now() - n * interval '1 minute', 'bot', 'user.update' \
         from generate_series(1, 30) n",
    )
    .await;
    let page = app.get("/api/audit?actor=bot&page=3&pageSize=10", &shop.admin).await.body;
    assert_eq!(
        (page["total"].as_i64(), page["page"].as_i64(), page["pageSize"].as_i64()),
        (Some(30), Some(3), Some(10))
    );
    let at: Vec<&str> = page["items"].as_array().unwrap().iter().map(|e| e["at"].as_str().unwrap()).collect();
    assert_eq!(at.len(), 10);
    assert!(at.windows(2).all(|w| w[0] > w[1]), "{at:?}");

    for (query, code) in [
        ("from=2025-13-01", "field.date"),
        ("to=yesterday", "field.date"),
        ("page=0", "field.page"),
        ("pageSize=1000", "field.pageSize"),
        ("actor=a%01b", "field.controlCharacters"),
    ] {
        let answer = app.get(&format!("/api/audit?{query}"), &shop.admin).await;
        assert_eq!((answer.status, answer.code()), (StatusCode::BAD_REQUEST, code), "{query}: {}", answer.body);
        assert!(!answer.message().is_empty());
    }
}

#[tokio::test]
async fn only_admins_read_the_trail_and_only_their_own_company_entries() {
    let (app, shop) = acme().await;
    let globex = shop_named(&app, "globex").await;
    app.create_pos(&shop.admin, "Acme centro").await;
    app.create_pos(&globex.admin, "Globex centro").await;
    let supervisor = add_staff(&app, &shop, "jefe", "supervisor").await;
    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    for token in [&supervisor, &cajero] {
        assert_eq!(app.get("/api/audit", token).await.status, StatusCode::FORBIDDEN);
    }
    // Not even when an admin grants every screen.
    let every = json!({ "supervisor": ["/main", "/reportes", "/settings/customers"], "cajero": ["/main"] });
    app.post("/api/settings", &shop.admin, json!({ "rolePermissions": every })).await;
    assert_eq!(app.get("/api/audit", &supervisor).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get("/api/audit", &app.super_token).await.status, StatusCode::FORBIDDEN);

    let names = |entries: Vec<Value>| {
        entries.iter().filter_map(|e| e["detail"]["name"].as_str().map(String::from)).collect::<Vec<_>>()
    };
    assert_eq!(names(trail(&app, &shop.admin, "action=pos.create").await), ["Acme centro"]);
    assert_eq!(names(trail(&app, &globex.admin, "action=pos.create").await), ["Globex centro"]);
}

async fn shop_named(app: &TestApp, prefix: &str) -> Shop {
    shop(app, prefix).await
}
