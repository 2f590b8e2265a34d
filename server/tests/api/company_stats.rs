//! The operator's view: figures per company read from one platform table, refreshed on demand,
//! after provisioning and by the daily job; super admins only; no customer's personal data.

use std::time::Instant;

use chrono::{Duration, Utc};
use loyalty::platform::store::SCHEMA_SIZE_SQL;
use loyalty::points::expiration::run_daily_for_all;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{documented_operation, spawn_app, texts, TestApp};

const VIEW: &str = "/api/super/company-stats";
const REFRESH: &str = "/api/super/company-stats/refresh";

/// Adds customers to a company's schema (`inactive` of them deactivated) and ledger entries at
/// the given ages in days, each by the first customer.
async fn fill(app: &TestApp, prefix: &str, customers: usize, inactive: usize, ages_in_days: &[i64]) {
    let db = app.db().await;
    db.batch_execute(&format!("set search_path to tenant_{prefix}")).await.unwrap();
    for n in 0..customers {
        db.execute(
            "insert into customers (document, name, email, phone, is_active) values ($1, $2, $3, $4, $5)",
            &[
                &format!("{prefix}{n}00"),
                &format!("Persona Secreta {prefix} {n}"),
                &format!("secreta{n}@{prefix}.example.com"),
                &format!("300555{n:04}"),
                &(n >= inactive),
            ],
        )
        .await
        .unwrap();
    }
    for age in ages_in_days {
        db.execute(
            "insert into transactions (type, points, customer_id, created_at) \
             select 'accreditation', 10, min(id), now() - make_interval(days => $1::int) from customers",
            &[&(*age as i32)],
        )
        .await
        .unwrap();
    }
}

fn row<'a>(page: &'a Value, prefix: &str) -> &'a Value {
    page["items"].as_array().unwrap().iter().find(|r| r["prefix"] == prefix).unwrap_or_else(|| panic!("{page}"))
}

#[tokio::test]
async fn the_operator_sees_each_companys_figures_and_the_platforms_totals_after_a_refresh() {
    let app = spawn_app().await;
    app.create_company("uno").await;
    app.create_company("dos").await;
    fill(&app, "uno", 3, 1, &[0, 2, 29, 45]).await;
    fill(&app, "dos", 1, 0, &[100]).await;

    // Figures are those of the last computation until the next one.
    let before = app.get(VIEW, &app.super_token).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.body);
    assert_eq!(row(&before.body, "uno")["customers"], 0);

    let refreshed = app.post(REFRESH, &app.super_token, json!({})).await;
    assert_eq!(refreshed.status, StatusCode::OK, "{}", refreshed.body);
    assert_eq!(refreshed.body, json!({ "companies": 2, "refreshed": 2, "failed": 0 }));

    let page = app.get(VIEW, &app.super_token).await;
    let uno = row(&page.body, "uno");
    assert_eq!(uno["name"], "Company uno");
    assert_eq!(uno["customers"], 2, "active customers only");
    assert_eq!(uno["transactions30d"], 3);
    assert_eq!(uno["schemaVersion"], loyalty::migrate::latest_tenant_version());
    let size = uno["sizeBytes"].as_i64().unwrap();
    assert!(size > 100_000, "tables, indexes and TOAST of the schema: {size}");
    let on_disk = app
        .count(
            "select sum(pg_total_relation_size(c.oid))::bigint from pg_class c join pg_namespace n \
             on n.oid = c.relnamespace where n.nspname = 'tenant_uno' and c.relkind = 'r'",
        )
        .await;
    assert_eq!(size, on_disk);
    let last =
        app.count("select floor(extract(epoch from max(created_at)))::bigint from tenant_uno.transactions").await;
    let shown = chrono::DateTime::parse_from_rfc3339(uno["lastActivityAt"].as_str().unwrap()).unwrap();
    assert_eq!(shown.timestamp(), last);
    assert!(uno["computedAt"].is_string());
    let dos = row(&page.body, "dos");
    assert_eq!((dos["customers"].as_i64(), dos["transactions30d"].as_i64()), (Some(1), Some(0)));

    let totals = &page.body["totals"];
    assert_eq!(totals["companies"], 2);
    assert_eq!(totals["customers"], 3);
    assert_eq!(totals["transactions30d"], 3);
    assert_eq!(totals["sizeBytes"], size + dos["sizeBytes"].as_i64().unwrap());
    assert!(totals["computedAt"].is_string());
    assert_eq!(
        (page.body["total"].as_i64(), page.body["page"].as_i64(), page.body["pageSize"].as_i64()),
        (Some(2), Some(1), Some(10))
    );
}

#[tokio::test]
async fn no_customer_personal_data_appears_in_the_view() {
    let app = spawn_app().await;
    app.create_company("uno").await;
    fill(&app, "uno", 2, 0, &[1]).await;
    app.post(REFRESH, &app.super_token, json!({})).await;
    let page = app.get(VIEW, &app.super_token).await;
    let text = page.body.to_string();
    for secret in ["Persona Secreta", "secreta", "uno000", "uno100", "300555"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    let fields: Vec<&String> = page.body["items"][0].as_object().unwrap().keys().collect();
    assert_eq!(
        fields,
        [
            "companyId",
            "computedAt",
            "customers",
            "lastActivityAt",
            "name",
            "prefix",
            "schemaVersion",
            "sizeBytes",
            "transactions30d"
        ]
    );
    // The platform's table holds figures only.
    let columns = app
        .db()
        .await
        .query(
            "select column_name::text from information_schema.columns \
             where table_schema = 'platform' and table_name = 'company_stats' order by ordinal_position",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<_, String>(0))
        .collect::<Vec<_>>();
    assert_eq!(
        columns,
        [
            "company_id",
            "schema_version",
            "size_bytes",
            "customers",
            "transactions_30d",
            "last_activity_at",
            "computed_at"
        ]
    );
}

#[tokio::test]
async fn a_new_company_has_its_figures_once_provisioned_and_loses_them_when_deleted() {
    let app = spawn_app().await;
    let (id, _) = app.create_company("uno").await;
    let page = app.get(VIEW, &app.super_token).await;
    let uno = row(&page.body, "uno");
    assert_eq!(uno["companyId"], id);
    assert_eq!(uno["customers"], 0);
    assert!(uno["computedAt"].is_string(), "{uno}");
    assert!(uno["lastActivityAt"].is_null());

    assert_eq!(app.delete(&format!("/api/super/companies/{id}"), &app.super_token).await.status, StatusCode::OK);
    assert_eq!(app.count("select count(*) from platform.company_stats").await, 0);
    assert_eq!(app.get(VIEW, &app.super_token).await.body["totals"]["companies"], 0);
}

#[tokio::test]
async fn a_companys_size_is_found_through_indexes_not_by_reading_the_whole_catalog() {
    let app = spawn_app().await;
    app.create_company("uno").await;
    let db = app.db().await;
    let sql = SCHEMA_SIZE_SQL.replace("$2", "'tenant_uno'");
    // What reading every relation of the database finds, the way the figure was first computed.
    let everything: i64 = db
        .query_one(
            "select coalesce(sum(pg_total_relation_size(t.oid)), 0)::bigint from pg_class t \
             where t.relnamespace = 'tenant_uno'::regnamespace and t.relkind in ('r', 'p', 'm')",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    let size: i64 = db.query_one(&sql, &[]).await.unwrap().get(0);
    assert!(size > 0);
    assert_eq!(size, everything);
    // With 10,000 companies `pg_class` holds over a million rows: the figure reads only the
    // schema's own rows of it, whatever the plan.
    let plan: Value =
        db.query_one(&format!("explain (analyze, format json) {sql}"), &[]).await.unwrap().get::<_, Value>(0);
    let read = rows_read_from(&plan[0]["Plan"], "pg_class");
    let all: i64 = db.query_one("select count(*) from pg_class", &[]).await.unwrap().get(0);
    assert!(all > 400, "{all}");
    assert!(read < 60.0, "read {read} of the {all} rows of pg_class: {plan}");
    let unknown: i64 = db.query_one(&SCHEMA_SIZE_SQL.replace("$2", "'tenant_nadie'"), &[]).await.unwrap().get(0);
    assert_eq!(unknown, 0);
}

/// The rows a plan's nodes on `relation` looked at (kept and filtered out), over all loops.
fn rows_read_from(node: &Value, relation: &str) -> f64 {
    let own = if node["Relation Name"] == relation {
        let rows = node["Actual Rows"].as_f64().unwrap_or(0.0) + node["Rows Removed by Filter"].as_f64().unwrap_or(0.0);
        rows * node["Actual Loops"].as_f64().unwrap_or(1.0)
    } else {
        0.0
    };
    let children =
        node["Plans"].as_array().map(|plans| plans.iter().map(|p| rows_read_from(p, relation)).sum()).unwrap_or(0.0);
    own + children
}

#[tokio::test]
async fn the_daily_job_computes_again_the_figures_a_day_old_and_only_those() {
    let app = spawn_app().await;
    app.create_company("uno").await;
    app.create_company("dos").await;
    fill(&app, "uno", 2, 0, &[]).await;
    fill(&app, "dos", 2, 0, &[]).await;
    app.sql(
        "update platform.company_stats set computed_at = now() - interval '2 days' \
             where company_id = (select id from platform.companies where prefix = 'uno')",
    )
    .await;

    let summary = run_daily_for_all(&app.state, Utc::now()).await.unwrap();
    assert_eq!(summary.stats_refreshed, 1, "{summary:?}");
    let page = app.get(VIEW, &app.super_token).await;
    assert_eq!(row(&page.body, "uno")["customers"], 2, "a day old: computed again");
    assert_eq!(row(&page.body, "dos")["customers"], 0, "computed at provisioning: kept");

    // A day later every company is due.
    let later = run_daily_for_all(&app.state, Utc::now() + Duration::days(1)).await.unwrap();
    assert_eq!(later.stats_refreshed, 2);
}

/// Adds `n` companies with figures straight into the platform's tables (no schema: the view
/// reads only the platform), company `i` having `i` customers and `n - i` ledger entries.
async fn generated_companies(app: &TestApp, n: i64) {
    app.sql_with(
        "with c as (insert into platform.companies (name, tax_id, prefix, state, schema_version, schema_name) \
           select 'Gen ' || lpad(i::text, 5, '0'), '900' || i, 'gen' || i, 'active', 18, 'tenant_gen' || i \
           from generate_series(1, $1::bigint) i returning id, prefix) \
         insert into platform.company_stats \
           (company_id, schema_version, size_bytes, customers, transactions_30d, last_activity_at, computed_at) \
         select id, 18, 1000000 + (substr(prefix, 4)::bigint % 7) * 1000, substr(prefix, 4)::bigint, \
           $1::bigint - substr(prefix, 4)::bigint, \
           now() - make_interval(mins => substr(prefix, 4)::int), now() from c",
        &[&n],
    )
    .await;
}

#[tokio::test]
async fn the_view_sorts_by_each_figure_and_pages() {
    let app = spawn_app().await;
    generated_companies(&app, 27).await;
    app.sql(
        "insert into platform.companies (name, tax_id, prefix, state, schema_name) \
           values ('Aaa nueva', '1', 'nueva', 'active', 'tenant_nueva'), \
             ('Gen borrandose', '1', 'borrandose', 'deleting', 'tenant_borrandose')",
    )
    .await;

    let by_customers = app.get(&format!("{VIEW}?sort=customers&order=desc&pageSize=10"), &app.super_token).await;
    assert_eq!(by_customers.status, StatusCode::OK, "{}", by_customers.body);
    assert_eq!(by_customers.body["total"], 28, "active companies only");
    assert_eq!(texts(&by_customers.body, "prefix")[..3], ["gen27", "gen26", "gen25"]);
    assert_eq!(by_customers.body["totals"]["customers"], (1..=27).sum::<i64>());
    assert_eq!(by_customers.body["totals"]["companies"], 28);

    // Companies without figures come last in both directions.
    let last_page = app.get(&format!("{VIEW}?sort=customers&order=desc&page=3&pageSize=10"), &app.super_token).await;
    assert_eq!(texts(&last_page.body, "prefix")[5..], ["gen2", "gen1", "nueva"]);
    let ascending = app.get(&format!("{VIEW}?sort=customers&order=asc&page=3"), &app.super_token).await;
    assert_eq!(texts(&ascending.body, "prefix")[5..], ["gen26", "gen27", "nueva"]);

    let by_transactions = app.get(&format!("{VIEW}?sort=transactions30d&order=desc"), &app.super_token).await;
    assert_eq!(texts(&by_transactions.body, "prefix")[0], "gen1");
    let by_activity = app.get(&format!("{VIEW}?sort=lastActivityAt&order=desc"), &app.super_token).await;
    assert_eq!(texts(&by_activity.body, "prefix")[0], "gen1");
    let by_name = app.get(&format!("{VIEW}?pageSize=25"), &app.super_token).await;
    assert_eq!(texts(&by_name.body, "name")[..2], ["Aaa nueva", "Gen 00001"]);
    assert_eq!(by_name.body["items"].as_array().unwrap().len(), 25);
    let by_size = app.get(&format!("{VIEW}?sort=sizeBytes&order=desc&pageSize=50"), &app.super_token).await;
    let sizes: Vec<i64> =
        by_size.body["items"].as_array().unwrap().iter().filter_map(|r| r["sizeBytes"].as_i64()).collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
    for sort in ["prefix", "schemaVersion", "computedAt"] {
        let answer = app.get(&format!("{VIEW}?sort={sort}&order=desc"), &app.super_token).await;
        assert_eq!(answer.status, StatusCode::OK, "{sort}: {}", answer.body);
        assert_eq!(answer.body["items"].as_array().unwrap().len(), 10);
    }

    // The search narrows the rows, never the totals.
    let searched = app.get(&format!("{VIEW}?q=GEN%202"), &app.super_token).await;
    assert_eq!(searched.body["total"], 0);
    let searched = app.get(&format!("{VIEW}?q=gen2"), &app.super_token).await;
    assert_eq!(searched.body["total"], 9, "gen2 and gen20 to gen27");
    assert_eq!(searched.body["totals"]["companies"], 28);
}

#[tokio::test]
async fn bad_sort_order_and_page_values_are_refused_in_the_users_language() {
    let app = spawn_app().await;
    let cases = [
        ("sort=email", "companyStats.sort"),
        ("sort=name;drop", "companyStats.sort"),
        ("order=up", "companyStats.order"),
        ("page=0", "field.page"),
        ("page=x", "field.page"),
        ("pageSize=7", "field.pageSize"),
    ];
    for (query, code) in cases {
        let answer = app.get(&format!("{VIEW}?{query}"), &app.super_token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{query}: {}", answer.body);
        assert_eq!(answer.code(), code, "{query}");
    }
    let in_language = |query: &'static str, language: &'static str| {
        let request = app.http.get(format!("{}{VIEW}?{query}", app.address)).bearer_auth(&app.super_token);
        async move { request.header("Accept-Language", language).send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let spanish = in_language("sort=email", "es").await;
    assert_eq!(
        spanish["message"],
        "El orden debe ser uno de: name, prefix, schemaVersion, sizeBytes, customers, transactions30d, \
         lastActivityAt, computedAt."
    );
    let english = in_language("order=up", "en").await;
    assert_eq!(english["message"], "order must be asc or desc");
}

#[tokio::test]
async fn only_a_super_admin_reads_or_refreshes_the_figures() {
    let app = spawn_app().await;
    let (_, admin) = app.create_company("uno").await;
    assert_eq!(app.get(VIEW, &admin).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.post(REFRESH, &admin, json!({})).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get(VIEW, "not-a-token").await.status, StatusCode::UNAUTHORIZED);
    let doc = app.openapi().await;
    documented_operation(&doc, VIEW, "get");
    documented_operation(&doc, REFRESH, "post");
}

/// The list's time over 10,000 companies' figures, and the refresh's time per company
/// (docs/performance.md, "The operator's view"). Run by hand:
/// `cargo test --test api company_stats::measure -- --ignored --nocapture`.
#[tokio::test]
#[ignore]
async fn measure_the_view_at_ten_thousand_companies() {
    let app = spawn_app().await;
    for prefix in ["uno", "dos", "tres", "cuatro", "cinco"] {
        app.create_company(prefix).await;
        fill(&app, prefix, 50, 0, &[1, 2, 3]).await;
    }
    let started = Instant::now();
    let refreshed = app.post(REFRESH, &app.super_token, json!({})).await;
    println!("refresh of 5 companies: {:?} ({})", started.elapsed(), refreshed.body);
    generated_companies(&app, 10_000).await;
    app.sql("analyze platform.companies; analyze platform.company_stats").await;
    for query in
        ["", "?sort=customers&order=desc", "?sort=lastActivityAt&order=desc&page=500", "?sort=sizeBytes&q=gen99"]
    {
        let mut times = Vec::new();
        for _ in 0..11 {
            let started = Instant::now();
            let answer = app.get(&format!("{VIEW}{query}"), &app.super_token).await;
            assert_eq!(answer.status, StatusCode::OK);
            times.push(started.elapsed());
        }
        times.sort();
        println!("GET {VIEW}{query}: p50 {:?}, max {:?}", times[5], times[10]);
    }
}
