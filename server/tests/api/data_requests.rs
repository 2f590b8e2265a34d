//! Data holders' requests under Ley 1581 de 2012 (arts. 14-15): filing, the legal clock in
//! Colombian business days, the one extension, incomplete reclamos, answers, the "reclamo en
//! trámite" mark, the dashboard's due list, permissions, audit and tenancy.

use chrono::{NaiveDate, Utc};
use loyalty::calendar::{add_business_days, business_days_between};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_acme, spawn_app, texts, Staffed, TestApp};

/// Today in Bogotá, the companies' default time zone.
fn today() -> NaiveDate {
    Utc::now().with_timezone(&chrono_tz::America::Bogota).date_naive()
}

fn date(value: &Value) -> NaiveDate {
    value.as_str().unwrap().parse().unwrap()
}

async fn file(app: &TestApp, token: &str, body: Value) -> Value {
    let answer = app.post("/api/data-requests", token, body).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    answer.body
}

async fn act(app: &TestApp, token: &str, id: &Value, body: Value) -> crate::helpers::Answer {
    app.put(&format!("/api/data-requests/{id}"), token, body).await
}

#[tokio::test]
async fn a_consulta_is_due_ten_business_days_after_filing_and_a_reclamo_fifteen() {
    let (app, admin) = spawn_acme().await;
    let customer = app.create("/api/customers", &admin, json!({ "name": "Ana Ruiz", "document": "1020" })).await;

    let consulta = file(
        &app,
        &admin,
        json!({ "document": "1.020", "kind": "consulta", "subject": "¿Qué datos tienen?", "details": "Quiero saberlo." }),
    )
    .await;
    assert_eq!(consulta["customerId"], customer, "linked by its document");
    assert_eq!(consulta["customerName"], "Ana Ruiz");
    assert_eq!(consulta["status"], "open");
    assert_eq!(date(&consulta["filedOn"]), today());
    assert_eq!(date(&consulta["dueOn"]), add_business_days(today(), 10));
    assert_eq!(consulta["daysLeft"], 10);
    assert_eq!(consulta["extended"], false);
    assert_eq!(consulta["filedBy"], "admin");

    let reclamo = file(
        &app,
        &admin,
        json!({ "customerId": customer, "document": "1020", "kind": "reclamo", "subject": "Corregir correo", "details": "Está mal." }),
    )
    .await;
    assert_eq!(date(&reclamo["dueOn"]), add_business_days(today(), 15));
    assert_eq!(reclamo["daysLeft"], 15);

    // A holder who is not a customer can file too.
    let stranger =
        file(&app, &admin, json!({ "document": "999", "kind": "consulta", "subject": "S", "details": "D" })).await;
    assert!(stranger["customerId"].is_null());
}

#[tokio::test]
async fn an_open_reclamo_marks_the_customer_reclamo_en_tramite_until_it_is_answered() {
    let (app, admin) = spawn_acme().await;
    let customer = app.create("/api/customers", &admin, json!({ "name": "Ana Ruiz", "document": "1020" })).await;
    let shown = |body: &Value| body["claimInProgress"].as_bool().unwrap();
    assert!(!shown(&app.get("/api/customers/by-document/1020", &admin).await.body));

    // A consulta does not mark the customer.
    file(&app, &admin, json!({ "document": "1020", "kind": "consulta", "subject": "S", "details": "D" })).await;
    assert!(!shown(&app.get("/api/customers/by-document/1020", &admin).await.body));

    let reclamo = file(
        &app,
        &admin,
        json!({ "customerId": customer, "document": "1020", "kind": "reclamo", "subject": "S", "details": "D" }),
    )
    .await;
    assert!(shown(&app.get("/api/customers/by-document/1020", &admin).await.body));
    let page = app.get("/api/customers/search?text=ana", &admin).await;
    assert!(shown(&page.body["items"][0]));
    assert!(shown(&app.get("/api/customers", &admin).await.body[0]));

    // Incomplete, it stays marked and its clock stops.
    let incomplete =
        act(&app, &admin, &reclamo["id"], json!({ "action": "incomplete", "reason": "Falta la copia" })).await;
    assert_eq!(incomplete.status, StatusCode::OK, "{}", incomplete.body);
    assert_eq!(incomplete.body["status"], "incomplete");
    assert_eq!(incomplete.body["incompleteReason"], "Falta la copia");
    assert!(incomplete.body["daysLeft"].is_null());
    assert!(shown(&app.get("/api/customers/by-document/1020", &admin).await.body));

    // Completed, its 15 business days start over from the day after.
    let completed = act(&app, &admin, &reclamo["id"], json!({ "action": "complete" })).await;
    assert_eq!(completed.body["status"], "open");
    assert_eq!(date(&completed.body["dueOn"]), add_business_days(today(), 15));

    let answered = act(&app, &admin, &reclamo["id"], json!({ "action": "answer", "answer": "Corregido." })).await;
    assert_eq!(answered.status, StatusCode::OK, "{}", answered.body);
    assert_eq!(answered.body["status"], "answered");
    assert_eq!(answered.body["answer"], "Corregido.");
    assert_eq!(answered.body["answeredBy"], "admin");
    assert!(!shown(&app.get("/api/customers/by-document/1020", &admin).await.body));

    let closed = act(&app, &admin, &reclamo["id"], json!({ "action": "close" })).await;
    assert_eq!(closed.body["status"], "closed");
    assert!(closed.body["closedAt"].is_string());
    act(&app, &admin, &reclamo["id"], json!({ "action": "close" }))
        .await
        .assert_error(StatusCode::CONFLICT, "the request is 'closed' and does not allow this action");
    act(&app, &admin, &reclamo["id"], json!({ "action": "answer", "answer": "Otra" }))
        .await
        .assert_error(StatusCode::CONFLICT, "the request is 'closed' and does not allow this action");
}

#[tokio::test]
async fn a_request_is_extended_once_with_a_reason_by_five_or_eight_business_days() {
    let (app, admin) = spawn_acme().await;
    let consulta =
        file(&app, &admin, json!({ "document": "1020", "kind": "consulta", "subject": "S", "details": "D" })).await;
    let reclamo =
        file(&app, &admin, json!({ "document": "1020", "kind": "reclamo", "subject": "S", "details": "D" })).await;

    act(&app, &admin, &consulta["id"], json!({ "action": "extend" }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "reason is required");
    let extended =
        act(&app, &admin, &consulta["id"], json!({ "action": "extend", "reason": "Volumen de datos" })).await;
    assert_eq!(extended.status, StatusCode::OK, "{}", extended.body);
    assert_eq!(extended.body["extended"], true);
    assert_eq!(extended.body["extensionReason"], "Volumen de datos");
    assert_eq!(date(&extended.body["dueOn"]), add_business_days(today(), 15));
    assert_eq!(extended.body["daysLeft"], 15);
    act(&app, &admin, &consulta["id"], json!({ "action": "extend", "reason": "Otra vez" })).await.assert_error(
        StatusCode::CONFLICT,
        "this request's term was already extended once; the law allows no second extension",
    );

    let extended = act(&app, &admin, &reclamo["id"], json!({ "action": "extend", "reason": "Revisión" })).await;
    assert_eq!(date(&extended.body["dueOn"]), add_business_days(add_business_days(today(), 15), 8));

    act(&app, &admin, &consulta["id"], json!({ "action": "incomplete", "reason": "x" }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "only a reclamo can be marked incomplete");
    act(&app, &admin, &consulta["id"], json!({ "action": "reopen" })).await.assert_error(
        StatusCode::BAD_REQUEST,
        "action must be 'extend', 'incomplete', 'complete', 'answer' or 'close'",
    );
    act(&app, &admin, &json!(999999), json!({ "action": "close" }))
        .await
        .assert_error(StatusCode::NOT_FOUND, "request not found");

    // Every change is in the audit trail, with who made it.
    let actions = app
        .texts("select action || ' by ' || actor from tenant_acme.audit_log where entity = 'dataRequest' order by id")
        .await;
    assert_eq!(
        actions,
        [
            "dataRequest.create by admin",
            "dataRequest.create by admin",
            "dataRequest.extend by admin",
            "dataRequest.extend by admin"
        ]
    );
}

#[tokio::test]
async fn bad_requests_are_refused_with_a_clear_message_and_file_nothing() {
    let (app, admin) = spawn_acme().await;
    let customer = app.create("/api/customers", &admin, json!({ "name": "Ana", "document": "1020" })).await;
    let ok = json!({ "document": "1020", "kind": "consulta", "subject": "S", "details": "D" });
    let with = |key: &str, value: Value| {
        let mut body = ok.clone();
        body[key] = value;
        body
    };
    app.assert_bad_requests(
        "/api/data-requests",
        &admin,
        [
            (with("kind", json!("queja")), "kind must be 'consulta' or 'reclamo'"),
            (with("subject", json!(" ")), "subject is required"),
            (with("details", json!(null)), "details is required"),
            (with("details", json!("x".repeat(4001))), "details must be at most 4000 characters"),
            (with("document", json!("1/2")), "document must be 3 to 20 letters, digits or '-'"),
            (
                json!({ "customerId": customer, "document": "777", "kind": "reclamo", "subject": "S", "details": "D" }),
                "the document is not the chosen customer's",
            ),
        ],
    )
    .await;
    app.post("/api/data-requests", &admin, with("customerId", json!(999999)))
        .await
        .assert_error(StatusCode::NOT_FOUND, "customer not found");
    assert_eq!(app.count("select count(*) from tenant_acme.data_requests").await, 0);
    app.get("/api/data-requests?status=pending", &admin)
        .await
        .assert_error(StatusCode::BAD_REQUEST, "status must be 'open', 'incomplete', 'answered' or 'closed'");
}

#[tokio::test]
async fn the_list_is_paged_and_filtered_by_status_and_kind_open_ones_first_by_due_date() {
    let (app, admin) = spawn_acme().await;
    let mut ids = Vec::new();
    for (kind, subject) in [("reclamo", "R1"), ("consulta", "C1"), ("consulta", "C2"), ("reclamo", "R2")] {
        let r =
            file(&app, &admin, json!({ "document": "1020", "kind": kind, "subject": subject, "details": "D" })).await;
        ids.push(r["id"].clone());
    }
    act(&app, &admin, &ids[2], json!({ "action": "answer", "answer": "Listo" })).await;

    let all = app.get("/api/data-requests", &admin).await;
    assert_eq!(all.status, StatusCode::OK, "{}", all.body);
    assert_eq!(all.body["total"], 4);
    // Open ones by due date (consultas are due first), then the answered one.
    assert_eq!(texts(&all.body, "subject"), ["C1", "R1", "R2", "C2"]);

    let open = app.get("/api/data-requests?status=open&kind=reclamo", &admin).await;
    assert_eq!(texts(&open.body, "subject"), ["R1", "R2"]);
    let answered = app.get("/api/data-requests?status=answered", &admin).await;
    assert_eq!(texts(&answered.body, "subject"), ["C2"]);

    for n in 0..8 {
        file(
            &app,
            &admin,
            json!({ "document": "1020", "kind": "consulta", "subject": format!("X{n}"), "details": "D" }),
        )
        .await;
    }
    let second = app.get("/api/data-requests?page=2&pageSize=10", &admin).await;
    assert_eq!(second.body["total"], 12);
    assert_eq!(second.body["items"].as_array().unwrap().len(), 2);
    app.get("/api/data-requests?pageSize=7", &admin)
        .await
        .assert_error(StatusCode::BAD_REQUEST, "pageSize must be 10, 25 or 50");
}

#[tokio::test]
async fn the_due_list_holds_open_requests_due_within_two_business_days_and_overdue_ones() {
    let (app, admin) = spawn_acme().await;
    let mut ids = Vec::new();
    for subject in ["overdue", "today", "in two", "in three", "answered late"] {
        let r =
            file(&app, &admin, json!({ "document": "1020", "kind": "consulta", "subject": subject, "details": "D" }))
                .await;
        ids.push(r["id"].as_i64().unwrap());
    }
    let due = [
        add_business_days(today(), 0) - chrono::Days::new(20),
        today(),
        add_business_days(today(), 2),
        add_business_days(today(), 3),
        today() - chrono::Days::new(20),
    ];
    for (id, due_on) in ids.iter().zip(due) {
        app.sql_with("update tenant_acme.data_requests set due_on = $2 where id = $1", &[id, &due_on]).await;
    }
    app.sql_with("update tenant_acme.data_requests set status = 'answered' where id = $1", &[&ids[4]]).await;

    let list = app.get("/api/data-requests/due", &admin).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.body);
    assert_eq!(texts(&list.body, "subject"), ["overdue", "today", "in two"]);
    assert_eq!(list.body[0]["daysLeft"], business_days_between(today(), due[0]));
    assert!(list.body[0]["daysLeft"].as_i64().unwrap() < 0);
    assert_eq!(list.body[1]["daysLeft"], 0);
    assert_eq!(list.body[2]["daysLeft"], 2);
}

#[tokio::test]
async fn only_admins_and_roles_granted_the_requests_screen_see_and_act_on_requests() {
    let app = spawn_app().await;
    let Staffed { admin, pos, token: supervisor, .. } =
        app.staffed_company("acme", "Centro", "sup", "supervisor").await;
    let (_, cajero) = app.create_user(&admin, "acme", "caj", "cajero", Some(pos)).await;
    let body = json!({ "document": "1020", "kind": "reclamo", "subject": "S", "details": "D" });
    let id = file(&app, &admin, body.clone()).await["id"].clone();

    // A new company grants the screen to nobody: personal data is the admin's to share.
    for token in [&supervisor, &cajero] {
        assert_eq!(app.get("/api/data-requests", token).await.status, StatusCode::FORBIDDEN);
        assert_eq!(app.get("/api/data-requests/due", token).await.status, StatusCode::FORBIDDEN);
        assert_eq!(app.post("/api/data-requests", token, body.clone()).await.status, StatusCode::FORBIDDEN);
        assert_eq!(act(&app, token, &id, json!({ "action": "close" })).await.status, StatusCode::FORBIDDEN);
    }
    assert_eq!(app.count("select count(*) from tenant_acme.data_requests").await, 1);

    let granted = app
        .post(
            "/api/settings",
            &admin,
            json!({ "rolePermissions": { "supervisor": ["/main"], "cajero": ["/main", "/solicitudes-datos"] } }),
        )
        .await;
    assert_eq!(granted.status, StatusCode::OK, "{}", granted.body);
    assert_eq!(app.get("/api/data-requests", &supervisor).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get("/api/data-requests", &cajero).await.body["total"], 1);
    let answered = act(&app, &cajero, &id, json!({ "action": "answer", "answer": "Hecho" })).await;
    assert_eq!(answered.status, StatusCode::OK, "{}", answered.body);
    assert_eq!(answered.body["answeredBy"], "caj");
    let audited = app
        .count("select count(*) from tenant_acme.audit_log where action = 'dataRequest.answer' and actor = 'caj'")
        .await;
    assert_eq!(audited, 1);
}

#[tokio::test]
async fn a_company_never_sees_or_changes_another_companys_requests() {
    let app = spawn_app().await;
    let (_, acme) = app.create_company("acme").await;
    let (_, beta) = app.create_company("beta").await;
    let customer = app.create("/api/customers", &acme, json!({ "name": "Ana", "document": "1020" })).await;
    let id = file(&app, &acme, json!({ "document": "1020", "kind": "reclamo", "subject": "S", "details": "D" })).await
        ["id"]
        .clone();

    assert_eq!(app.get("/api/data-requests", &beta).await.body["total"], 0);
    assert_eq!(app.get("/api/data-requests/due", &beta).await.body, json!([]));
    act(&app, &beta, &id, json!({ "action": "close" })).await.assert_error(StatusCode::NOT_FOUND, "request not found");
    // Another company's customer id is not found either.
    app.post(
        "/api/data-requests",
        &beta,
        json!({ "customerId": customer, "document": "1020", "kind": "consulta", "subject": "S", "details": "D" }),
    )
    .await
    .assert_error(StatusCode::NOT_FOUND, "customer not found");
    // The same document at beta is beta's own holder: no link to acme's customer.
    let theirs =
        file(&app, &beta, json!({ "document": "1020", "kind": "consulta", "subject": "S", "details": "D" })).await;
    assert!(theirs["customerId"].is_null());
    assert_eq!(app.get("/api/data-requests", &acme).await.body["items"][0]["status"], "open");
}
