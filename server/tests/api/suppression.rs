//! A customer's rights over their data under Ley 1581 de 2012 (docs/privacy.md): the access export
//! (contents, audit, tenancy), suppression (deleted without history, anonymised with it, figures
//! unchanged, points forfeited, nothing personal left anywhere in the schema, the document free
//! to enrol again) and the retention rule of the daily job.

use chrono::{Duration, Utc};
use loyalty::domain::Prefix;
use loyalty::points::expiration::run_daily;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::points::support::*;

/// The customer of these tests, with every personal field.
fn valentina() -> Value {
    json!({ "name": "Valentina Quintero", "document": "52987654", "email": "valentina@example.com",
            "phone": "3157778899", "address": "Carrera 7 # 72-41", "birthdate": "1991-04-17" })
}

/// The values that identify her, as stored.
const PERSONAL: [&str; 5] =
    ["Valentina Quintero", "52987654", "valentina@example.com", "3157778899", "Carrera 7 # 72-41"];

async fn enrol(app: &TestApp, shop: &Shop, customer: Value) -> i64 {
    app.create("/api/customers", &shop.admin, customer).await
}

/// Valentina with history: two accreditations (one under an idempotency key), a redemption whose
/// note names her, and a reclamo that quotes her data; she keeps 300 points.
async fn valentina_with_history(app: &TestApp, shop: &Shop) -> i64 {
    let id = enrol(app, shop, valentina()).await;
    let body = json!({ "invoiceAmount": 30_000, "invoiceReference": "V-1" });
    let (status, _, _) = post_with_key(app, &format!("/api/customers/{id}/accredit"), &shop.admin, "k-1", body).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(accredit_api(app, &shop.admin, id, 20_000).await.status, StatusCode::OK);
    let note = json!({ "pointsToRedeem": 200, "description": "Bono para Valentina Quintero" });
    assert_eq!(redeem_with(app, &shop.admin, id, note).await.status, StatusCode::OK);
    let reclamo = json!({ "customerId": id, "document": "52987654", "kind": "reclamo", "subject": "Suprimir mis datos",
        "details": "Soy Valentina Quintero (valentina@example.com, 3157778899, Carrera 7 # 72-41): borren todo." });
    assert_eq!(app.post("/api/data-requests", &shop.admin, reclamo).await.status, StatusCode::CREATED);
    assert_eq!(balance(app, shop, id).await, 300);
    id
}

/// Every text, JSON and array column of every table of the company's schema that holds one of
/// `values`, as `table.column: value`.
async fn personal_data_left(app: &TestApp, shop: &Shop, values: &[&str]) -> Vec<String> {
    let db = app.db().await;
    let columns = db
        .query(
            "select table_name::text, column_name::text from information_schema.columns c \
             where table_schema = $1 and data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY') \
             and exists (select 1 from information_schema.tables t where t.table_schema = c.table_schema \
                         and t.table_name = c.table_name and t.table_type = 'BASE TABLE')",
            &[&shop.schema()],
        )
        .await
        .unwrap();
    assert!(columns.len() > 20, "the search sees the schema's columns");
    let mut found = Vec::new();
    for row in columns {
        let (table, column): (String, String) = (row.get(0), row.get(1));
        for value in values {
            let query = format!(
                "select count(*) from \"{}\".\"{table}\" where \"{column}\"::text ilike '%' || $1 || '%'",
                shop.schema()
            );
            let hits: i64 = db.query_one(&query, &[value]).await.unwrap().get(0);
            if hits > 0 {
                found.push(format!("{table}.{column}: {value}"));
            }
        }
    }
    found
}

#[tokio::test]
async fn the_access_export_holds_the_customer_the_ledger_and_the_requests_and_is_audited() {
    let (app, shop) = acme().await;
    let id = valentina_with_history(&app, &shop).await;

    let answer = app.get(&format!("/api/customers/{id}/data"), &shop.admin).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let data = &answer.body;
    for (field, value) in valentina().as_object().unwrap() {
        assert_eq!(&data["customer"][field], value, "{field}");
    }
    assert_eq!(data["customer"]["points"], 300);
    assert!(data["enrolledAt"].is_string() && data["lastActivityAt"].is_string() && data["exportedAt"].is_string());
    assert!(data["suppressedAt"].is_null());
    let kinds: Vec<&str> =
        data["transactions"].as_array().unwrap().iter().map(|t| t["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["accreditation", "accreditation", "redemption"], "the ledger, oldest first");
    let requests = data["dataRequests"].as_array().unwrap();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0]["kind"], "reclamo");

    // Each export is in the audit trail, with who and which customer.
    let trail = app.get("/api/audit?action=customer.data_export", &shop.admin).await.body;
    let items = trail["items"].as_array().unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!((&items[0]["actor"], &items[0]["entityId"]), (&json!("admin"), &json!(id)));
    app.get(&format!("/api/customers/{id}/data"), &shop.admin).await;
    let trail = app.get("/api/audit?action=customer.data_export", &shop.admin).await.body;
    assert_eq!(trail["items"].as_array().unwrap().len(), 2, "every export is recorded");
}

#[tokio::test]
async fn the_access_export_and_suppression_are_for_admins_of_the_customers_company_only() {
    let (app, acme) = acme().await;
    let globex = shop(&app, "globex").await;
    let id = enrol(&app, &acme, valentina()).await;
    enrol(&app, &globex, json!({ "name": "Primera", "document": "776" })).await;
    let theirs = enrol(&app, &globex, json!({ "name": "Otra", "document": "777" })).await;
    assert_ne!(theirs, id, "an id that Acme does not have");

    // Another company's id is not found, and nothing is recorded.
    let answer = app.get(&format!("/api/customers/{theirs}/data"), &acme.admin).await;
    answer.assert_error(StatusCode::NOT_FOUND, "customer not found");
    let answer = app.get("/api/customers/999999/data", &acme.admin).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    let answer = app.post(&format!("/api/customers/{theirs}/suppress"), &acme.admin, json!({})).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(
        number(
            &app,
            &acme,
            "select count(*) from audit_log where action like 'customer.%' and action <> 'customer.create'"
        )
        .await,
        0
    );
    assert_eq!(number(&app, &globex, "select count(*) from customers where document = '777'").await, 1);

    // A supervisor with the customers screen may neither export nor suppress.
    let supervisor = add_staff(&app, &acme, "jefe", "supervisor").await;
    assert_eq!(app.get(&format!("/api/customers/{id}/data"), &supervisor).await.status, StatusCode::FORBIDDEN);
    let answer = app.post(&format!("/api/customers/{id}/suppress"), &supervisor, json!({})).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);

    // The platform operator sees no customer data without impersonating.
    let answer = app.get(&format!("/api/customers/{id}/data"), &app.super_token).await;
    assert!(matches!(answer.status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN), "{}", answer.status);
    assert!(!answer.body.to_string().contains("Valentina"));
    let answer = app.post(&format!("/api/customers/{id}/suppress"), &app.super_token, json!({})).await;
    assert!(matches!(answer.status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN), "{}", answer.status);
    assert_eq!(number(&app, &acme, "select count(*) from customers where suppressed_at is null").await, 1);
}

#[tokio::test]
async fn a_customer_without_history_is_deleted_and_the_document_can_enrol_again() {
    let (app, shop) = acme().await;
    let id = enrol(&app, &shop, valentina()).await;

    let answer = app.post(&format!("/api/customers/{id}/suppress"), &shop.admin, json!({})).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["outcome"], "deleted");
    assert_eq!(answer.body["forfeitedPoints"], 0);
    assert_eq!(answer.body["message"], "the customer had no history: it was deleted");
    assert_eq!(number(&app, &shop, &format!("select count(*) from customers where id = {id}")).await, 0);
    assert_eq!(personal_data_left(&app, &shop, &PERSONAL).await, Vec::<String>::new());

    let again = enrol(&app, &shop, valentina()).await;
    assert_ne!(again, id);
    let entry = &app.get("/api/audit?action=customer.suppress", &shop.admin).await.body["items"][0];
    assert_eq!((&entry["entityId"], &entry["detail"]["outcome"]), (&json!(id), &json!("deleted")));
}

#[tokio::test]
async fn a_customer_with_history_is_anonymised_the_figures_stay_and_no_personal_data_is_left() {
    let (app, shop) = acme().await;
    let id = valentina_with_history(&app, &shop).await;
    let other = add_customer(&app, &shop, "100", None).await;
    assert_eq!(accredit_api(&app, &shop.admin, other, 10_000).await.status, StatusCode::OK);
    assert!(!personal_data_left(&app, &shop, &PERSONAL).await.is_empty(), "the search finds her before");
    let totals = app.get("/api/transactions/totals", &shop.admin).await.body;
    let dashboard = app.get("/api/stats/dashboard", &shop.admin).await.body;

    let answer = app.post(&format!("/api/customers/{id}/suppress"), &shop.admin, json!({})).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["outcome"], "anonymised");
    assert_eq!(answer.body["forfeitedPoints"], 300);

    // Nothing that identifies her is left in any column of any table of the company.
    assert_eq!(personal_data_left(&app, &shop, &PERSONAL).await, Vec::<String>::new());

    // The record stays, anonymous and inactive, holding no points; the ledger keeps its figures.
    let data = app.get(&format!("/api/customers/{id}/data"), &shop.admin).await.body;
    let customer = &data["customer"];
    assert_eq!(
        (&customer["name"], &customer["document"]),
        (&json!(format!("anon-{id}")), &json!(format!("anon-{id}")))
    );
    for field in ["email", "phone", "address", "birthdate"] {
        assert!(customer[field].is_null(), "{field}");
    }
    assert_eq!((&customer["points"], &customer["is_active"]), (&json!(0), &json!(false)));
    assert!(data["suppressedAt"].is_string());
    let rows = data["transactions"].as_array().unwrap();
    let kinds: Vec<&str> = rows.iter().map(|t| t["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["accreditation", "accreditation", "redemption", "forfeit"]);
    assert_eq!(rows[3]["points"], -300);
    assert_eq!(rows[3]["cashierUsername"], "admin");
    assert_eq!(rows[2]["description"], "Bono para ***");
    assert_eq!(data["dataRequests"][0]["document"], json!(format!("anon-{id}")));
    assert_eq!(data["dataRequests"][0]["subject"], "Suprimir mis datos", "the request stays as proof");
    assert_ledger_consistent(&app, &shop).await;

    // Reports and the dashboard add up as before; the forfeited points left circulation.
    assert_eq!(app.get("/api/transactions/totals", &shop.admin).await.body, totals);
    let after = app.get("/api/stats/dashboard", &shop.admin).await.body;
    for figure in ["transactionsLast30Days", "pointsAccreditedLast30Days", "daily"] {
        assert_eq!(after[figure], dashboard[figure], "{figure}");
    }
    assert_eq!(
        after["pointsInCirculation"].as_i64().unwrap(),
        dashboard["pointsInCirculation"].as_i64().unwrap() - 300
    );
    let forfeits = app.get("/api/transactions/search?type=forfeit", &shop.admin).await.body;
    assert_eq!(forfeits["items"].as_array().unwrap().len(), 1);

    // Irreversible: no second suppression, no reactivation, no edit, not in the inactive list.
    let again = app.post(&format!("/api/customers/{id}/suppress"), &shop.admin, json!({})).await;
    again.assert_error(StatusCode::CONFLICT, "this customer's data was already suppressed");
    let reactivate = app.post(&format!("/api/customers/{id}/reactivate"), &shop.admin, json!({})).await;
    reactivate.assert_error(StatusCode::CONFLICT, "this customer's data was suppressed: it cannot be reactivated");
    let edit = app.put(&format!("/api/customers/{id}"), &shop.admin, json!({ "name": "Valentina" })).await;
    assert_eq!(edit.status, StatusCode::NOT_FOUND);
    let inactive = app.get("/api/customers/search?status=inactive", &shop.admin).await.body;
    assert_eq!(inactive["total"], 0);
    let void = void_api(&app, &shop.admin, &rows[3]["id"], json!({})).await;
    assert_eq!(void.status, StatusCode::CONFLICT, "a forfeit cannot be voided");

    // The document enrols again as a new customer, with nothing of the old one.
    let again = enrol(&app, &shop, valentina()).await;
    let fresh = app.get("/api/customers/by-document/52987654", &shop.admin).await.body;
    assert_eq!((&fresh["id"], &fresh["points"]), (&json!(again), &json!(0)));

    let entry = &app.get("/api/audit?action=customer.suppress", &shop.admin).await.body["items"][0];
    assert_eq!((&entry["actor"], &entry["entityId"]), (&json!("admin"), &json!(id)));
    assert_eq!((&entry["detail"]["outcome"], &entry["detail"]["forfeitedPoints"]), (&json!("anonymised"), &json!(300)));
}

#[tokio::test]
async fn the_retention_rule_is_off_by_default_and_anonymises_only_customers_idle_longer_than_its_years() {
    let (app, shop) = acme().await;
    let prefix = Prefix::parse("acme").unwrap();
    let now = Utc::now();
    let settings = app.get("/api/settings", &shop.admin).await.body;
    assert_eq!(settings["retentionYears"], 0, "off by default");

    let idle = add_customer(&app, &shop, "1001", None).await;
    let recent = add_customer(&app, &shop, "1002", None).await;
    let never_bought = add_customer(&app, &shop, "1003", None).await;
    let disputing = add_customer(&app, &shop, "1004", None).await;
    for id in [idle, recent, disputing] {
        assert_eq!(accredit_api(&app, &shop.admin, id, 10_000).await.status, StatusCode::OK);
    }
    let reclamo =
        json!({ "customerId": disputing, "document": "1004", "kind": "reclamo", "subject": "S", "details": "D" });
    assert_eq!(app.post("/api/data-requests", &shop.admin, reclamo).await.status, StatusCode::CREATED);
    sql(
        &app,
        &shop,
        &format!(
            "update customers set created_at = now() - interval '4 years', last_activity_at = now() - interval '3 years' \
             where id in ({idle}, {disputing}); \
             update customers set created_at = now() - interval '4 years', last_activity_at = now() - interval '1 year' \
             where id = {recent}; \
             update customers set created_at = now() - interval '3 years' where id = {never_bought};"
        ),
    )
    .await;

    // Off: the daily job anonymises no one.
    assert!(run_daily(&app.state.pool, &prefix, now).await.unwrap().is_some());
    assert_eq!(number(&app, &shop, "select count(*) from customers where suppressed_at is null").await, 4);
    assert_eq!(number(&app, &shop, "select count(*) from audit_log where action = 'customers.retention'").await, 0);

    let bad = app.post("/api/settings", &shop.admin, json!({ "retentionYears": 101 })).await;
    bad.assert_error(StatusCode::BAD_REQUEST, "years without activity before anonymising must be between 0 and 100");
    let saved = app.post("/api/settings", &shop.admin, json!({ "retentionYears": 2 })).await;
    assert_eq!(saved.body["retentionYears"], 2, "{}", saved.body);

    // On: the next day's run anonymises the one idle customer with history, deletes the idle one
    // without, and leaves the recent one and the one with a reclamo in progress.
    assert!(run_daily(&app.state.pool, &prefix, now + Duration::days(1)).await.unwrap().is_some());
    let suppressed = number(
        &app,
        &shop,
        &format!("select count(*) from customers where id = {idle} and suppressed_at is not null and points = 0"),
    )
    .await;
    assert_eq!(suppressed, 1);
    assert_eq!(number(&app, &shop, &format!("select count(*) from customers where id = {never_bought}")).await, 0);
    let untouched = number(
        &app,
        &shop,
        &format!("select count(*) from customers where id in ({recent}, {disputing}) and suppressed_at is null"),
    )
    .await;
    assert_eq!(untouched, 2);
    assert_eq!(
        number(&app, &shop, "select count(*) from transactions where type = 'forfeit' and cashier_username = 'system'")
            .await,
        1
    );
    let run = number(
        &app,
        &shop,
        "select (detail ->> 'customers')::bigint from audit_log where action = 'customers.retention'",
    )
    .await;
    assert_eq!(run, 2, "the run's count is recorded");
    let each =
        number(&app, &shop, "select count(*) from audit_log where action = 'customer.suppress' and actor = 'system'")
            .await;
    assert_eq!(each, 2);
    assert_ledger_consistent(&app, &shop).await;
}
