use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{spawn_acme, spawn_app, texts, Staffed};

#[tokio::test]
async fn users_are_created_with_a_pos_unless_admin_and_listed_by_username() {
    let (app, admin) = spawn_acme().await;
    let pos = app.create_pos(&admin, "Centro").await;
    let user = |username: &str, role: &str| json!({ "username": username, "password": "pass-word-1", "role": role, "posId": pos });
    let cajero = app.post("/api/users", &admin, user("Zara", "cajero")).await;
    assert_eq!(cajero.status, StatusCode::CREATED, "{}", cajero.body);
    assert_eq!(cajero.body["username"], "zara");
    assert_eq!(cajero.body["posName"], "Centro");
    let boss = app.post("/api/users", &admin, user("boss", "admin")).await;
    assert_eq!(boss.status, StatusCode::CREATED);
    assert!(boss.body["posId"].is_null(), "an admin has no point of sale");
    let list = app.get("/api/users", &admin).await;
    assert_eq!(texts(&list.body, "username"), ["admin", "boss", "zara"]);
    let login = app.login("zara@acme", "pass-word-1").await;
    assert_eq!(login.body["user"]["posName"], "Centro");
}

#[tokio::test]
async fn user_validation_errors_and_duplicates() {
    let (app, admin) = spawn_acme().await;
    let pos = app.create_pos(&admin, "Centro").await;
    app.assert_bad_requests(
        "/api/users",
        &admin,
        [
            (
                json!({ "password": "pass-word-1", "role": "cajero", "posId": pos }),
                "username, password and role are required",
            ),
            (json!({ "username": "ana", "role": "cajero", "posId": pos }), "username, password and role are required"),
            (json!({ "username": "ana", "password": "pass-word-1" }), "username, password and role are required"),
            (
                json!({ "username": "ana", "password": "pass-word-1", "role": "cajero" }),
                "point of sale is required for this role",
            ),
            (
                json!({ "username": "ana", "password": "pass-word-1", "role": "boss", "posId": pos }),
                "role must be one of admin, supervisor, cajero",
            ),
            (
                json!({ "username": "ana", "password": "pass-word-1", "role": "cajero", "posId": 999 }),
                "point of sale not found",
            ),
            (
                json!({ "username": "ana@x", "password": "pass-word-1", "role": "admin" }),
                "username must be at most 50 letters, digits, '.', '_' or '-'",
            ),
            (
                json!({ "username": "ana", "password": "short", "role": "admin" }),
                "password must be 8 to 128 characters long",
            ),
        ],
    )
    .await;
    let duplicate = app
        .post("/api/users", &admin, json!({ "username": "ADMIN", "password": "pass-word-1", "role": "admin" }))
        .await;
    duplicate.assert_error(StatusCode::CONFLICT, "user already exists");
    assert_eq!(app.count("select count(*) from tenant_acme.users").await, 1);
}

#[tokio::test]
async fn editing_a_user_changes_only_role_and_pos_with_the_admin_rule() {
    let (app, admin) = spawn_acme().await;
    let centro = app.create_pos(&admin, "Centro").await;
    let norte = app.create_pos(&admin, "Norte").await;
    let (id, _) = app.create_user(&admin, "acme", "ana", "cajero", Some(centro)).await;
    let moved = app
        .put(&format!("/api/users/{id}"), &admin, json!({ "role": "supervisor", "posId": norte, "username": "hacked" }))
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.body);
    assert_eq!(moved.body["role"], "supervisor");
    assert_eq!(moved.body["posName"], "Norte");
    assert_eq!(moved.body["username"], "ana");
    let promoted = app.put(&format!("/api/users/{id}"), &admin, json!({ "role": "admin", "posId": norte })).await;
    assert!(promoted.body["posId"].is_null(), "changing the role to admin clears the point of sale");
    let demoted = app.put(&format!("/api/users/{id}"), &admin, json!({ "role": "cajero" })).await;
    demoted.assert_error(StatusCode::BAD_REQUEST, "point of sale is required for this role");
}

#[tokio::test]
async fn users_cannot_delete_themselves_and_the_last_admin_stays() {
    let (app, admin) = spawn_acme().await;
    let admin_id = app.login("admin@acme", "admin-pass-1").await.body["user"]["id"].as_i64().unwrap();
    let own = app.delete(&format!("/api/users/{admin_id}"), &admin).await;
    own.assert_error(StatusCode::BAD_REQUEST, "you cannot delete yourself");
    let pos = app.create_pos(&admin, "Centro").await;
    let demote = app.put(&format!("/api/users/{admin_id}"), &admin, json!({ "role": "cajero", "posId": pos })).await;
    demote.assert_error(StatusCode::CONFLICT, "the company must keep at least one admin");
}

#[tokio::test]
async fn a_deleted_user_with_transactions_is_deactivated_and_cannot_log_in() {
    let app = spawn_app().await;
    let Staffed { admin, pos, user: busy, token: busy_token, .. } =
        app.staffed_company("acme", "Centro", "busy", "cajero").await;
    let (idle, _) = app.create_user(&admin, "acme", "idle", "cajero", Some(pos)).await;
    let db = app.db().await;
    db.execute(
        "with c as (insert into tenant_acme.customers (document, name) values ('123', 'C') returning id)
         insert into tenant_acme.transactions (type, points, customer_id, cashier_id, cashier_username, pos_id)
         select 'accreditation', 0, c.id, $1, 'busy', $2 from c",
        &[&busy, &pos],
    )
    .await
    .unwrap();
    assert_eq!(app.get(&format!("/api/users/{busy}/usage"), &admin).await.body["transactions"], 1);
    assert_eq!(app.delete(&format!("/api/users/{busy}"), &admin).await.body["deleted"], "soft");
    assert_eq!(app.delete(&format!("/api/users/{idle}"), &admin).await.body["deleted"], "hard");
    assert_eq!(app.login("busy@acme", "user-pass-1").await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.get("/api/pos", &busy_token).await.status, StatusCode::UNAUTHORIZED);
    // A point of sale with users (even inactive ones) or transactions is only deactivated.
    assert_eq!(app.get(&format!("/api/pos/{pos}/usage"), &admin).await.body["users"], 1);
    let soft = app.delete(&format!("/api/pos/{pos}"), &admin).await;
    assert_eq!(soft.body["deleted"], "soft");
    assert_eq!(soft.body["message"], "point of sale has users or transactions: it was deactivated");
    let empty = app.create_pos(&admin, "Vacío").await;
    assert_eq!(app.delete(&format!("/api/pos/{empty}"), &admin).await.body["deleted"], "hard");
    assert!(app.get("/api/pos", &admin).await.body.as_array().unwrap().is_empty());
    // Each delete is audited with what it did.
    let audited = "select count(*) from tenant_acme.audit_log where (action, entity, detail ->> 'kind') in \
                   (('user.delete', 'user', 'soft'), ('user.delete', 'user', 'hard'), \
                    ('pos.delete', 'pos', 'soft'), ('pos.delete', 'pos', 'hard'))";
    assert_eq!(app.count(audited).await, 4);
}

#[tokio::test]
async fn products_are_validated_and_carry_their_category_name() {
    let (app, admin) = spawn_acme().await;
    let category = app.create("/api/categories", &admin, json!({ "name": "Bebidas", "icon": "Beaker" })).await;
    let created = app
        .post(
            "/api/products",
            &admin,
            json!({ "code": "CAF-1", "name": "Café", "description": "500 g", "price": "28000", "pointsValue": 2800,
                    "imageUrl": "https://example.com/c.png", "categoryId": category.to_string() }),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["price"], 28000);
    assert_eq!(created.body["categoryName"], "Bebidas");
    assert_eq!(created.body["is_active"], true);
    let id = created.body["id"].as_i64().unwrap();
    app.assert_bad_requests(
        "/api/products",
        &admin,
        [
            (json!({ "name": "X" }), "code and name are required"),
            (json!({ "code": "X" }), "code and name are required"),
            (json!({ "code": "X", "name": "X", "price": -5 }), "price must be a whole number of 0 or more"),
            (
                json!({ "code": "X", "name": "X", "pointsValue": 1.5 }),
                "points value must be a whole number of 0 or more",
            ),
            (json!({ "code": "X", "name": "X", "price": "12abc" }), "price must be a whole number of 0 or more"),
            (json!({ "code": "X", "name": "X", "pointsValue": 1, "categoryId": 999 }), "category not found"),
        ],
    )
    .await;
    let duplicate =
        app.post("/api/products", &admin, json!({ "code": "CAF-1", "name": "Otro", "pointsValue": 1 })).await;
    duplicate.assert_error(StatusCode::CONFLICT, "product already exists");

    let hidden = app
        .put(
            &format!("/api/products/{id}"),
            &admin,
            json!({ "code": "CAF-1", "name": "Café", "price": 28000, "pointsValue": 2800, "is_active": false }),
        )
        .await;
    assert_eq!(hidden.status, StatusCode::OK);
    assert!(hidden.body["categoryId"].is_null());
    assert!(
        app.get("/api/products", &admin).await.body.as_array().unwrap().is_empty(),
        "inactive products are not offered"
    );
    assert_eq!(app.get("/api/products/all", &admin).await.body.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn products_and_categories_in_use_are_only_deactivated() {
    let (app, admin) = spawn_acme().await;
    let used_category = app.create("/api/categories", &admin, json!({ "name": "Hogar", "icon": "HomeModern" })).await;
    let free_category = app.create("/api/categories", &admin, json!({ "name": "Libre", "icon": "Tag" })).await;
    let in_category = json!({ "code": "A", "name": "A", "pointsValue": 1, "categoryId": used_category });
    let sold = app.create("/api/products", &admin, in_category).await;
    let unsold = app.create("/api/products", &admin, json!({ "code": "B", "name": "B", "pointsValue": 1 })).await;
    app.sql_with(
        "with c as (insert into tenant_acme.customers (document, name) values ('123', 'C') returning id)
         insert into tenant_acme.transactions (type, points, customer_id, product_id) select 'accreditation', 0, c.id, $1 from c",
        &[&sold],
    )
    .await;
    assert_eq!(app.get(&format!("/api/products/{sold}/usage"), &admin).await.body["transactions"], 1);
    assert_eq!(app.get(&format!("/api/categories/{used_category}/usage"), &admin).await.body["products"], 1);
    assert_eq!(app.delete(&format!("/api/products/{sold}"), &admin).await.body["deleted"], "soft");
    // A product's state is one of its fields: an inactive product can still be deleted.
    assert_eq!(app.delete(&format!("/api/products/{sold}"), &admin).await.body["deleted"], "soft");
    assert_eq!(app.delete(&format!("/api/products/{unsold}"), &admin).await.body["deleted"], "hard");
    assert_eq!(app.delete(&format!("/api/categories/{used_category}"), &admin).await.body["deleted"], "soft");
    assert_eq!(app.delete(&format!("/api/categories/{free_category}"), &admin).await.body["deleted"], "hard");
    assert!(app.get("/api/categories", &admin).await.body.as_array().unwrap().is_empty());
    let all = app.get("/api/products/all", &admin).await;
    assert_eq!(all.body[0]["is_active"], false);
    assert_eq!(all.body[0]["categoryName"], "Hogar", "the product keeps its category's name");
}

#[tokio::test]
async fn categories_need_a_known_icon_and_a_unique_name() {
    let (app, admin) = spawn_acme().await;
    let missing = app.post("/api/categories", &admin, json!({ "name": "Sin icono" })).await;
    missing.assert_error(StatusCode::BAD_REQUEST, "name and icon are required");
    let unknown = app.post("/api/categories", &admin, json!({ "name": "Raro", "icon": "Rocket" })).await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    assert!(unknown.message().starts_with("icon must be one of: Tag, Star"));
    let (first, again) = (json!({ "name": "Regalos", "icon": "Gift" }), json!({ "name": "REGALOS", "icon": "Gift" }));
    app.assert_duplicate("/api/categories", &admin, first, again, "category already exists").await;
    // An icon stored before the set changed reads as the fallback.
    app.sql("update tenant_acme.categories set icon = 'Rocket'").await;
    assert_eq!(app.get("/api/categories", &admin).await.body[0]["icon"], "Star");
}

#[tokio::test]
async fn settings_have_defaults_and_enforce_their_bounds() {
    let (app, admin) = spawn_acme().await;
    let defaults = app.get("/api/settings", &admin).await.body;
    assert_eq!(defaults["pointsPerPeso"], 0.0);
    assert_eq!(defaults["redemptionRate"], 0.0);
    assert_eq!(defaults["campaignMultiplier"], 1.0);
    assert_eq!(defaults["expirationPolicy"], "none");
    assert_eq!(defaults["pointsExpirationDays"], 365);
    assert_eq!(defaults["inactivityDays"], 180);
    assert_eq!(defaults["enableFirstPurchaseBonus"], false);
    assert_eq!(defaults["timeZone"], "America/Bogota");

    let saved = app
        .post(
            "/api/settings",
            &admin,
            json!({ "pointsPerPeso": 0.001, "redemptionRate": 100, "campaignMultiplier": 2.5, "expirationPolicy": "fifo",
                    "pointsExpirationDays": 90, "enableBirthdayBonus": true, "birthdayBonusMultiplier": 1.3,
                    "rolePermissions": { "supervisor": ["/main", "/reportes", "/main"], "cajero": [] } }),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(saved.body["pointsPerPeso"], 0.001);
    assert_eq!(saved.body["campaignMultiplier"], 2.5);
    assert_eq!(saved.body["birthdayBonusMultiplier"], 1.3);
    assert_eq!(saved.body["rolePermissions"]["supervisor"], json!(["/main", "/reportes"]));
    assert_eq!(saved.body["inactivityDays"], 180, "absent fields keep their value");

    for (body, field) in [
        (json!({ "pointsPerPeso": 0 }), "pointsPerPeso"),
        (json!({ "pointsPerPeso": 0.0005 }), "pointsPerPeso"),
        (json!({ "redemptionRate": 0 }), "redemptionRate"),
        (json!({ "redemptionRate": 1.5 }), "redemptionRate"),
        (json!({ "campaignMultiplier": 1.25 }), "campaignMultiplier"),
        (json!({ "campaignMultiplier": 0.5 }), "campaignMultiplier"),
        (json!({ "pointsExpirationDays": 0 }), "pointsExpirationDays"),
        (json!({ "inactivityDays": -3 }), "inactivityDays"),
        (json!({ "firstPurchaseBonusMultiplier": 1.05 }), "firstPurchaseBonusMultiplier"),
        (json!({ "birthdayBonusMultiplier": 0.9 }), "birthdayBonusMultiplier"),
    ] {
        let answer = app.post("/api/settings", &admin, body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(answer.body["params"]["field"], field, "{body}: {}", answer.body);
        assert!(!answer.message().is_empty());
    }
    for (body, code) in [
        (json!({ "expirationPolicy": "weekly" }), "settings.expirationPolicy"),
        (json!({ "rolePermissions": { "supervisor": ["/settings/users"], "cajero": [] } }), "settings.permissions"),
        (json!({ "timeZone": "Mars/Olympus" }), "settings.timeZone"),
    ] {
        let answer = app.post("/api/settings", &admin, body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(answer.code(), code, "{body}: {}", answer.body);
    }
    let wrong_type = app.post("/api/settings", &admin, json!({ "pointsPerPeso": "a lot" })).await;
    assert_eq!(wrong_type.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.get("/api/settings", &admin).await.body["pointsPerPeso"], 0.001, "refused updates change nothing");
    assert_eq!(app.count("select count(*) from tenant_acme.audit_log where action = 'permissions.update'").await, 1);
}

#[tokio::test]
async fn a_new_company_saves_back_the_settings_it_was_given() {
    let (app, admin) = spawn_acme().await;
    let mut defaults = app.get("/api/settings", &admin).await.body;
    assert_eq!(defaults["pointsPerPeso"], 0.0);
    defaults["rolePermissions"]["cajero"] = json!(["/main", "/accreditar"]);
    let saved = app.post("/api/settings", &admin, defaults.clone()).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(saved.body, defaults, "the permissions changed and nothing else");
    // A rule set once cannot go back to 0.
    assert_eq!(app.post("/api/settings", &admin, json!({ "pointsPerPeso": 0.02 })).await.status, StatusCode::OK);
    let unset = app.post("/api/settings", &admin, json!({ "pointsPerPeso": 0 })).await;
    assert_eq!(unset.status, StatusCode::BAD_REQUEST, "{}", unset.body);
    assert_eq!(unset.body["params"]["field"], "pointsPerPeso");
}

#[tokio::test]
async fn the_admin_sees_what_the_company_still_has_to_set_up() {
    let (app, admin) = spawn_acme().await;
    let setup = app.get("/api/settings/setup", &admin).await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.body);
    assert_eq!(setup.body, json!({ "rules": false, "pointsOfSale": 0, "users": 0, "products": 0 }));

    app.post("/api/settings", &admin, json!({ "pointsPerPeso": 0.01, "redemptionRate": 10 })).await;
    let pos = app.create_pos(&admin, "Centro").await;
    let (_, cajero) = app.create_user(&admin, "acme", "ana", "cajero", Some(pos)).await;
    let product = json!({ "code": "P-1", "name": "Taza", "price": 5000, "pointsValue": 50 });
    assert_eq!(app.post("/api/products", &admin, product).await.status, StatusCode::CREATED);
    let setup = app.get("/api/settings/setup", &admin).await;
    assert_eq!(setup.body, json!({ "rules": true, "pointsOfSale": 1, "users": 1, "products": 1 }));
    assert_eq!(app.get("/api/settings/setup", &cajero).await.status, StatusCode::FORBIDDEN);
}
