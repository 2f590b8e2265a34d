use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{documented_operation, spawn_acme, spawn_app, spawn_app_with_pool, texts};

#[tokio::test]
async fn one_companys_data_is_invisible_to_another() {
    let (app, acme) = spawn_acme().await;
    let (_, globex) = app.create_company("globex").await;
    let created = app.post("/api/pos", &acme, json!({ "name": "Acme Centro" })).await;
    assert_eq!(created.status, StatusCode::CREATED);
    let acme_pos = created.body["id"].as_i64().unwrap();

    assert_eq!(texts(&app.get("/api/pos", &acme).await.body, "name"), ["Acme Centro"]);
    assert!(texts(&app.get("/api/pos", &globex).await.body, "name").is_empty());

    // Globex's token with Acme's ids: not found, and nothing changes.
    let update = app.put(&format!("/api/pos/{acme_pos}"), &globex, json!({ "name": "Hijacked" })).await;
    assert_eq!(update.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/api/pos/{acme_pos}/usage"), &globex).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.delete(&format!("/api/pos/{acme_pos}"), &globex).await.status, StatusCode::NOT_FOUND);
    assert_eq!(texts(&app.get("/api/pos", &acme).await.body, "name"), ["Acme Centro"]);
}

#[tokio::test]
async fn a_pooled_connection_never_carries_one_tenants_path_into_the_next_request() {
    // One connection serves every request, alternating between tenants.
    let app = spawn_app_with_pool(1).await;
    let (_, acme) = app.create_company("acme").await;
    let (_, globex) = app.create_company("globex").await;
    assert_eq!(app.post("/api/pos", &acme, json!({ "name": "Only Acme" })).await.status, StatusCode::CREATED);
    assert_eq!(app.post("/api/pos", &globex, json!({ "name": "Only Globex" })).await.status, StatusCode::CREATED);
    for _ in 0..20 {
        assert_eq!(texts(&app.get("/api/pos", &acme).await.body, "name"), ["Only Acme"]);
        assert_eq!(texts(&app.get("/api/pos", &globex).await.body, "name"), ["Only Globex"]);
        // A failed request in between must not leave its transaction or path behind either.
        assert_eq!(app.post("/api/pos", &acme, json!({ "name": "Only Acme" })).await.status, StatusCode::CONFLICT);
    }
    // And a platform query on the same connection sees no tenant at all.
    let conn = app.state.pool.get().await.unwrap();
    let path: String = conn.query_one("show search_path", &[]).await.unwrap().get(0);
    assert_eq!(path, loyalty::db::NO_TENANT_SCHEMA);
    let unscoped = conn.query("select * from points_of_sale", &[]).await;
    assert!(unscoped.is_err(), "an unscoped query must fail loudly");
}

#[tokio::test]
async fn points_of_sale_are_validated_unique_and_admin_only() {
    let (app, acme) = spawn_acme().await;
    let missing = app.post("/api/pos", &acme, json!({ "name": "  " })).await;
    missing.assert_error(StatusCode::BAD_REQUEST, "point of sale name is required");
    app.assert_duplicate(
        "/api/pos",
        &acme,
        json!({ "name": "Norte" }),
        json!({ "name": "norte" }),
        "point of sale already exists",
    )
    .await;
    assert_eq!(texts(&app.get("/api/pos", &acme).await.body, "name"), ["Norte"]);
}

#[tokio::test]
async fn the_openapi_document_lists_every_operation() {
    let app = spawn_app().await;
    let doc = app.openapi().await;
    for (path, method) in [
        ("/api/login", "post"),
        ("/api/super/companies", "get"),
        ("/api/super/companies", "post"),
        ("/api/super/companies/{id}", "put"),
        ("/api/super/companies/{id}", "delete"),
        ("/api/super/impersonate", "post"),
        ("/api/pos", "get"),
        ("/api/pos/{id}", "delete"),
        ("/api/settings", "get"),
    ] {
        documented_operation(&doc, path, method);
    }
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
}

#[tokio::test]
async fn unknown_api_paths_answer_json_404s() {
    let app = spawn_app().await;
    let answer = app.request(reqwest::Method::GET, "/api/nope", None, None).await;
    answer.assert_error(StatusCode::NOT_FOUND, "no such API endpoint");
}

/// The kind of record a path's `{id}` names, from the path's first segment.
fn kind_of(path: &str) -> &str {
    path.trim_start_matches("/api/").split('/').next().unwrap_or_default()
}

/// One record of each kind a path's `{id}` can name, in Acme (token `acme`), with `customer` as
/// the customer's details.
struct AcmeRecords {
    pos: i64,
    user: i64,
    customer: i64,
    category: i64,
    product: i64,
    transaction: i64,
    alert: i64,
    data_request: i64,
    api_key: i64,
    webhook: i64,
}

impl AcmeRecords {
    async fn create(app: &crate::helpers::TestApp, acme: &str, customer: &serde_json::Value) -> AcmeRecords {
        let pos = app.create_pos(acme, "Acme Centro").await;
        let (user, _) = app.create_user(acme, "acme", "ana", "cajero", Some(pos)).await;
        let created = app.post("/api/customers", acme, customer.clone()).await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
        let customer = created.body["id"].as_i64().unwrap();
        let category = app.post("/api/categories", acme, json!({ "name": "Acme cat", "icon": "Tag" })).await.body["id"]
            .as_i64()
            .unwrap();
        let product = app
            .post(
                "/api/products",
                acme,
                json!({ "code": "P1", "name": "Acme product", "pointsValue": 1, "categoryId": category }),
            )
            .await
            .body["id"]
            .as_i64()
            .unwrap();
        let transaction: i64 = app
            .db()
            .await
            .query_one(
                "insert into tenant_acme.transactions (type, points, customer_id, cashier_username) values ('accreditation', 0, $1, 'ana') returning id",
                &[&customer],
            )
            .await
            .unwrap()
            .get(0);
        let alert: i64 = app
            .db()
            .await
            .query_one(
                "insert into tenant_acme.alerts (kind, day, subject, customer_id, occurrences, transaction_ids) \
                 values ('customerOperations', current_date, 'customer', $1, 9, array[$2::bigint]) returning id",
                &[&customer, &transaction],
            )
            .await
            .unwrap()
            .get(0);
        let document = created.body["document"].as_str().unwrap().to_string();
        let request = app
            .post(
                "/api/data-requests",
                acme,
                json!({ "customerId": customer, "document": document, "kind": "consulta", "subject": "Datos", "details": "Qué datos tienen" }),
            )
            .await;
        assert_eq!(request.status, StatusCode::CREATED, "{}", request.body);
        let data_request = request.body["id"].as_i64().unwrap();
        let key = app.post("/api/api-keys", acme, json!({ "name": "Acme POS", "posId": pos })).await;
        assert_eq!(key.status, StatusCode::CREATED, "{}", key.body);
        let api_key = key.body["id"].as_i64().unwrap();
        let webhook = app
            .create(
                "/api/webhooks",
                acme,
                json!({ "url": "https://hooks.example.com/acme", "events": ["points.accredited"] }),
            )
            .await;
        AcmeRecords { pos, user, customer, category, product, transaction, alert, data_request, api_key, webhook }
    }

    /// The id of the record a path's `{id}` names, by the path's kind (`kind_of`).
    fn id_of(&self, kind: &str) -> Option<i64> {
        match kind {
            "pos" => Some(self.pos),
            "users" => Some(self.user),
            "customers" => Some(self.customer),
            "categories" => Some(self.category),
            "products" => Some(self.product),
            "transactions" => Some(self.transaction),
            "alerts" => Some(self.alert),
            "data-requests" => Some(self.data_request),
            "api-keys" => Some(self.api_key),
            "webhooks" => Some(self.webhook),
            _ => None,
        }
    }
}

#[tokio::test]
async fn every_endpoint_that_takes_an_id_answers_404_for_another_companys_records() {
    let (app, acme) = spawn_acme().await;
    let (_, globex) = app.create_company("globex").await;
    // Acme's ids are far from anything Globex has, so a 404 means "not yours", not "no such id".
    app.sql(
        "select setval(s, 5000) from unnest(array['tenant_acme.record_ids', 'tenant_acme.customers_id_seq',
               'tenant_acme.transactions_id_seq']::regclass[]) s",
    )
    .await;
    let records = AcmeRecords::create(&app, &acme, &json!({ "name": "Cliente Acme", "document": "123456" })).await;
    let id_of = |kind: &str| records.id_of(kind);
    let before = app.count("select count(*) + coalesce(sum(points), 0)::bigint from tenant_acme.customers").await;

    let doc = app.openapi().await;
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.contains("{id}") || path.starts_with("/api/super/") {
            continue;
        }
        let id = id_of(kind_of(path)).unwrap_or_else(|| panic!("{path}: teach this test which record its id names"));
        for method in item.as_object().unwrap().keys() {
            let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let body = (method == reqwest::Method::POST || method == reqwest::Method::PUT).then(|| {
                json!({ "name": "Hijacked", "document": "999", "code": "X", "pointsValue": 1, "icon": "Tag", "role": "admin",
                        "invoiceAmount": 1000, "pointsToRedeem": 1, "supervisorUsername": "admin", "supervisorPassword": "admin-pass-1",
                        "password": "hijacked-pass-1", "status": "reviewed", "action": "close", "answer": "x", "returnedAmount": 1 })
            });
            let path = path.replace("{id}", &id.to_string()).replace("{deliveryId}", "1");
            let answer = app.request(method.clone(), &path, Some(&globex), body).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{method} {path}: {}", answer.body);
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} operations checked");
    // Acme's records are all still there, unchanged.
    assert_eq!(
        app.count("select count(*) + coalesce(sum(points), 0)::bigint from tenant_acme.customers").await,
        before
    );
    assert_eq!(texts(&app.get("/api/pos", &acme).await.body, "name"), ["Acme Centro"]);
    assert_eq!(app.get("/api/categories", &acme).await.body[0]["name"], "Acme cat");
    assert_eq!(app.get("/api/products/all", &acme).await.body[0]["name"], "Acme product");
    assert_eq!(app.count("select count(*) from tenant_acme.users where is_active").await, 2);
}

/// Objects of `schema` (tables, and the defaults, rules, constraints of its tables) that depend
/// on a relation, function or type in another schema (pg_catalog aside).
const REACHING_OUT: &str = "
    with owned as (
        select d.refclassid, d.refobjid, d.classid, d.objid,
               case d.classid
                 when 'pg_class'::regclass then (select relnamespace from pg_class where oid = d.objid)
                 when 'pg_attrdef'::regclass then
                   (select c.relnamespace from pg_attrdef a join pg_class c on c.oid = a.adrelid where a.oid = d.objid)
                 when 'pg_rewrite'::regclass then
                   (select c.relnamespace from pg_rewrite r join pg_class c on c.oid = r.ev_class where r.oid = d.objid)
                 when 'pg_constraint'::regclass then
                   (select c.relnamespace from pg_constraint k join pg_class c on c.oid = k.conrelid where k.oid = d.objid)
                 when 'pg_trigger'::regclass then
                   (select c.relnamespace from pg_trigger g join pg_class c on c.oid = g.tgrelid where g.oid = d.objid)
               end as ns
        from pg_depend d
    ),
    targets as (
        select 'pg_class'::regclass as classid, oid, relnamespace as ns from pg_class
        union all select 'pg_proc'::regclass, oid, pronamespace from pg_proc
        union all select 'pg_type'::regclass, oid, typnamespace from pg_type
    )
    select pg_describe_object(o.classid, o.objid, 0) || ' -> ' || pg_describe_object(o.refclassid, o.refobjid, 0)
    from owned o join targets t on t.classid = o.refclassid and t.oid = o.refobjid
    where o.ns = $1::text::regnamespace and t.ns not in ($1::text::regnamespace, 'pg_catalog'::regnamespace)";

#[tokio::test]
async fn no_tenant_table_has_a_foreign_key_view_or_default_reaching_outside_its_schema() {
    let (app, _) = spawn_acme().await;
    let db = app.db().await;
    let outside: Vec<String> =
        db.query(REACHING_OUT, &[&"tenant_acme"]).await.unwrap().iter().map(|r| r.get(0)).collect();
    assert!(outside.is_empty(), "tenant_acme reaches outside itself: {outside:?}");
    assert!(app.count("select count(*) from pg_class where relnamespace = 'tenant_acme'::regnamespace").await > 10);

    // The check sees each kind of reach when it is there.
    db.batch_execute(
        "create table tenant_acme.bad_fk (company bigint references platform.companies (id));
         create view tenant_acme.bad_view as select id from platform.companies;
         create sequence public.bad_seq;
         create table tenant_acme.bad_default (n bigint default nextval('public.bad_seq'));",
    )
    .await
    .unwrap();
    let outside: Vec<String> =
        db.query(REACHING_OUT, &[&"tenant_acme"]).await.unwrap().iter().map(|r| r.get(0)).collect();
    for needle in ["bad_fk", "bad_view", "bad_default"] {
        assert!(outside.iter().any(|o| o.contains(needle)), "{needle} not caught: {outside:?}");
    }
}

/// Names of the component schemas an OpenAPI fragment refers to, followed through the components.
fn schemas_reached(
    doc: &serde_json::Value,
    fragment: &serde_json::Value,
    seen: &mut std::collections::BTreeSet<String>,
) {
    match fragment {
        serde_json::Value::Object(map) => {
            if let Some(name) =
                map.get("$ref").and_then(|r| r.as_str()).and_then(|r| r.strip_prefix("#/components/schemas/"))
            {
                if seen.insert(name.to_string()) {
                    schemas_reached(doc, &doc["components"]["schemas"][name], seen);
                }
            }
            map.values().for_each(|v| schemas_reached(doc, v, seen));
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| schemas_reached(doc, v, seen)),
        _ => {}
    }
}

#[tokio::test]
async fn a_super_admin_sees_no_customer_data_unless_impersonating_and_the_impersonation_is_audited() {
    let app = spawn_app().await;
    let (acme_id, acme) = app.create_company("acme").await;
    let (spare_id, _) = app.create_company("spare").await;
    let customer = json!({ "name": "Valentina Quintero", "document": "52987654", "email": "valentina@example.com",
                           "phone": "3157778899", "address": "Carrera 7 # 72-41", "birthdate": "1991-04-17" });
    let records = AcmeRecords::create(&app, &acme, &customer).await;
    let id_of =
        |kind: &str| records.id_of(kind).unwrap_or_else(|| panic!("teach this test which record a {kind} id names"));
    // What would give a customer away: their values, and the fields only customer records have.
    let personal: Vec<&str> =
        ["name", "document", "email", "phone", "address"].iter().map(|k| customer[k].as_str().unwrap()).collect();
    let customer_keys = ["document", "email", "birthdate", "points", "customerId", "customerName", "customerDocument"];
    let leaks = |body: &serde_json::Value| -> Vec<String> {
        let text = body.to_string();
        let mut found: Vec<String> = personal.iter().filter(|v| text.contains(*v)).map(|v| v.to_string()).collect();
        found.extend(customer_keys.iter().filter(|k| text.contains(&format!("\"{k}\":"))).map(|k| k.to_string()));
        found
    };
    let doc = app.openapi().await;
    let audit_rows = "select (select count(*) from platform.audit_log where action = 'impersonation.start') \
                      + (select count(*) from tenant_acme.audit_log where action = 'impersonation.start')";
    assert_eq!(app.count(audit_rows).await, 0);

    // Every company endpoint refuses the super admin's own token, and says nothing about customers.
    let mut company_ops = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        // The public pages (a company's privacy notice) are everyone's to read.
        if path.starts_with("/api/super/") || path.starts_with("/api/public/") || path == "/api/login" {
            continue;
        }
        let mut url = path.replace("{document}", "52987654");
        if url.contains("{id}") {
            url = url.replace("{id}", &id_of(kind_of(path)).to_string());
        }
        for method in item.as_object().unwrap().keys() {
            let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let body = (method == reqwest::Method::POST || method == reqwest::Method::PUT).then(|| {
                json!({ "name": "Changed", "document": "999", "code": "X", "icon": "Tag", "role": "admin",
                        "invoiceAmount": 1000, "pointsToRedeem": 1, "supervisorUsername": "admin", "supervisorPassword": "admin-pass-1" })
            });
            let answer = app.request(method.clone(), &url, Some(&app.super_token), body).await;
            assert!(
                answer.status == StatusCode::UNAUTHORIZED || answer.status == StatusCode::FORBIDDEN,
                "{method} {url} answered the super admin {}: {}",
                answer.status,
                answer.body
            );
            assert!(leaks(&answer.body).is_empty(), "{method} {url}: {}", answer.body);
            company_ops += 1;
        }
    }
    assert!(company_ops >= 35, "only {company_ops} company operations swept");

    // No super-admin endpoint describes or returns a customer field.
    let mut super_ops = 0;
    for (path, item) in doc["paths"].as_object().unwrap().iter().filter(|(p, _)| p.starts_with("/api/super/")) {
        for (method, op) in item.as_object().unwrap() {
            let mut reached = std::collections::BTreeSet::new();
            schemas_reached(&doc, &op["responses"], &mut reached);
            assert!(
                !reached.iter().any(|s| s.contains("Customer") || s.contains("Transaction")),
                "{method} {path} documents {reached:?}"
            );
            super_ops += 1;
        }
    }
    assert_eq!(super_ops, 7, "the super-admin operations changed: check them here");
    let answers = [
        app.get("/api/super/companies", &app.super_token).await,
        app.post(
            "/api/super/companies",
            &app.super_token,
            json!({ "name": "Other", "prefix": "other", "taxId": "1", "adminPassword": "admin-pass-1" }),
        )
        .await,
        app.put(
            &format!("/api/super/companies/{acme_id}"),
            &app.super_token,
            json!({ "name": "Company acme", "taxId": "900100200-1" }),
        )
        .await,
        app.delete(&format!("/api/super/companies/{spare_id}"), &app.super_token).await,
        app.post("/api/super/impersonate", &app.super_token, json!({ "companyId": acme_id })).await,
        app.post("/api/super/company-stats/refresh", &app.super_token, json!({})).await,
        app.get("/api/super/company-stats", &app.super_token).await,
    ];
    for answer in &answers {
        assert!(answer.status.is_success(), "{}: {}", answer.status, answer.body);
        assert!(leaks(&answer.body).is_empty(), "a super-admin answer carries customer data: {}", answer.body);
    }

    // Impersonating reaches the customers, and it is in both audit trails.
    let impersonation = answers[4].body["token"].as_str().unwrap();
    let customers = app.get("/api/customers", impersonation).await;
    assert_eq!(customers.status, StatusCode::OK);
    assert_eq!(customers.body[0]["document"], "52987654");
    assert_eq!(leaks(&customers.body).len(), personal.len() + 4, "the leak check sees a customer where there is one");
    let platform_row = app
        .db()
        .await
        .query_one(
            "select actor, company_id, company_prefix from platform.audit_log where action = 'impersonation.start'",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(platform_row.get::<_, String>("actor"), crate::helpers::SUPER_ADMIN);
    assert_eq!(platform_row.get::<_, Option<i64>>("company_id"), Some(acme_id));
    assert_eq!(platform_row.get::<_, Option<String>>("company_prefix").as_deref(), Some("acme"));
    let tenant_row = app
        .db()
        .await
        .query_one("select actor, impersonated_by from tenant_acme.audit_log where action = 'impersonation.start'", &[])
        .await
        .unwrap();
    assert_eq!(tenant_row.get::<_, String>("actor"), "admin");
    assert_eq!(tenant_row.get::<_, Option<String>>("impersonated_by").as_deref(), Some(crate::helpers::SUPER_ADMIN));
}
