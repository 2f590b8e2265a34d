use chrono::{Duration, Utc};
use chrono_tz::America::Bogota;
use loyalty::db::TenantTx;
use loyalty::domain::Prefix;
use loyalty::points::stats;
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::support::*;
use crate::helpers::{documented_operation, spawn_app, texts};

fn ids(page: &Value) -> Vec<i64> {
    page["items"].as_array().unwrap().iter().map(|t| t["id"].as_i64().unwrap()).collect()
}

#[tokio::test]
async fn the_transaction_list_is_newest_first_with_money_as_numbers() {
    let (app, shop, customer) = acme_with_customer().await;
    let accreditation = accredited(&app, &shop.admin, customer, 25_000).await;
    let redemption = redeem_api(&app, &shop.admin, customer, 100).await.body["newTransaction"]["id"].clone();
    let void = void_api(&app, &shop.admin, &redemption, json!({})).await;
    assert_eq!(void.status, StatusCode::OK);

    let answer = app.get("/api/transactions", &shop.admin).await;
    assert_eq!(answer.status, StatusCode::OK);
    let list = answer.body.as_array().unwrap();
    let types: Vec<&str> = list.iter().map(|t| t["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["cancellation", "redemption", "accreditation"]);
    assert_eq!(list[0]["originalTransactionId"], redemption);
    assert_eq!(list[0]["points"], 100);
    assert_eq!(list[1]["redeemedValue"], 100);
    assert_eq!(list[1]["is_voided"], true);
    assert_eq!(list[1]["voided_by"], "admin");
    assert_eq!(list[2]["id"], accreditation);
    assert_eq!(list[2]["invoiceAmount"], 25_000);
    assert!(list[2]["posId"].is_null(), "the admin has no point of sale");
}

#[tokio::test]
async fn the_paged_report_filters_by_customer_type_point_of_sale_cashier_and_local_days() {
    let (app, shop) = acme().await;
    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    let [ana, beto] = add_customers(&app, &shop, ["1020", "3040"]).await;
    sql(&app, &shop, &format!("update customers set name = 'Ana Gomez' where id = {ana}")).await;
    let clock = Clock::new(&app, &shop).await;
    let feb_28_late = clock.earn(ana, 10_000, bogota(2025, 2, 28, 23, 30)).await; // 1 March in UTC
    let mar_1_early = clock.earn(beto, 10_000, bogota(2025, 3, 1, 0, 30)).await;
    let mar_2 = clock.earn(ana, 10_000, bogota(2025, 3, 2, 12, 0)).await;
    let by_cajero = accredit_api(&app, &cajero, ana, 10_000).await.body["newTransaction"].clone();
    let redemption = redeem_api(&app, &cajero, ana, 10).await.body["newTransaction"]["id"].as_i64().unwrap();
    let by_cajero_id = by_cajero["id"].as_i64().unwrap();
    let pos = by_cajero["posId"].as_i64().unwrap();

    let search = |query: String| {
        let app = &app;
        let token = shop.admin.clone();
        async move { app.get(&format!("/api/transactions/search?{query}"), &token).await }
    };
    let all = search("text=&type=&posId=&cashier=&from=&to=&page=1&pageSize=10".into()).await;
    assert_eq!(all.status, StatusCode::OK, "{}", all.body);
    assert_eq!(ids(&all.body), [redemption, by_cajero_id, mar_2, mar_1_early, feb_28_late]);
    assert_eq!(
        (all.body["total"].as_i64(), all.body["page"].as_i64(), all.body["pageSize"].as_i64()),
        (Some(5), Some(1), Some(10))
    );

    for (query, expected) in [
        ("from=2025-02-28&to=2025-02-28", vec![feb_28_late]),
        ("from=2025-03-01&to=2025-03-01", vec![mar_1_early]),
        ("from=2025-02-28&to=2025-03-02", vec![mar_2, mar_1_early, feb_28_late]),
        ("from=2025-03-02", vec![redemption, by_cajero_id, mar_2]),
        ("to=2025-02-28", vec![feb_28_late]),
        ("text=ANA", vec![redemption, by_cajero_id, mar_2, feb_28_late]),
        ("text=304", vec![mar_1_early]),
        ("text=%25", vec![]),
        ("type=redemption", vec![redemption]),
        (&format!("posId={pos}"), vec![redemption, by_cajero_id]),
        ("cashier=caja1", vec![redemption, by_cajero_id]),
        ("cashier=Admin&text=ana", vec![mar_2, feb_28_late]),
        (&format!("customerId={beto}"), vec![mar_1_early]),
    ] {
        let answer = search(query.to_string()).await;
        assert_eq!(answer.status, StatusCode::OK, "{query}: {}", answer.body);
        assert_eq!(ids(&answer.body), expected, "{query}");
        assert_eq!(answer.body["total"].as_i64().unwrap(), expected.len() as i64, "{query}");
    }

    for (query, message) in [
        ("pageSize=7", "pageSize must be 10, 25 or 50"),
        ("page=0", "page must be a whole number from 1"),
        ("type=refund", "type must be accreditation, redemption, expiration, cancellation, return, forfeit or opening"),
        ("from=2025-13-01", "start date must be a date as YYYY-MM-DD"),
        ("posId=north", "point of sale must be a positive whole number"),
    ] {
        let answer = search(query.to_string()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(answer.message(), message, "{query}");
    }

    // Pages of 10, newest first; a page past the end is empty but still counts the total.
    for n in 0..20 {
        clock.earn(beto, 1_000, bogota(2025, 4, 1, 12, n)).await;
    }
    let first = search("pageSize=10&page=1".into()).await.body;
    let second = search("pageSize=10&page=2".into()).await.body;
    let third = search("pageSize=10&page=3".into()).await.body;
    let fourth = search("pageSize=10&page=4".into()).await.body;
    assert_eq!((ids(&first).len(), ids(&second).len(), ids(&third).len(), ids(&fourth).len()), (10, 10, 5, 0));
    assert_eq!(fourth["total"], 25);
    assert_eq!(ids(&first)[0], redemption);
    assert_eq!(ids(&third).last(), Some(&feb_28_late));
    assert_eq!(search("pageSize=25".into()).await.body["items"].as_array().unwrap().len(), 25);

    sql(&app, &shop, r#"update settings set role_permissions = '{"supervisor": [], "cajero": ["/main"]}'"#).await;
    assert_eq!(app.get("/api/transactions/search", &cajero).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get("/api/transactions", &cajero).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_dashboard_sums_the_last_30_local_days_and_values_the_outstanding_points() {
    let (app, shop) = acme().await;
    sql(&app, &shop, "update settings set redemption_rate = 2").await;
    let [ana, beto, carla] = add_customers(&app, &shop, ["1", "2", "3"]).await;
    let clock = Clock::new(&app, &shop).await;
    let now = bogota(2025, 6, 30, 12, 0); // the window is 1 to 30 June, Bogotá time
    clock.earn(ana, 50_000, bogota(2025, 5, 31, 23, 50)).await; // before the window: 500
    clock.earn(ana, 20_000, bogota(2025, 6, 1, 0, 10)).await; //   first day: 200
    let voided = clock.earn(beto, 30_000, bogota(2025, 6, 15, 12, 0)).await;
    clock.void(voided, bogota(2025, 6, 15, 13, 0)).await.unwrap(); // left out
    clock.earn(ana, 10_000, bogota(2025, 6, 30, 8, 0)).await; //   today: 100
    clock.spend(ana, 50, bogota(2025, 6, 30, 9, 0)).await; //      today: 50 redeemed
    clock.earn(carla, 4_000, bogota(2025, 5, 1, 12, 0)).await;
    sql(&app, &shop, &format!("update customers set is_active = false where id = {carla}")).await;

    let tx = TenantTx::begin(&app.state.pool, &Prefix::parse("acme").unwrap()).await.unwrap();
    let dashboard = stats::dashboard(&tx, now).await.unwrap();
    drop(tx);
    assert_eq!(dashboard.total_customers, 2, "active customers only");
    assert_eq!(dashboard.points_in_circulation, 750);
    assert_eq!(dashboard.transactions_last30_days, 3);
    assert_eq!(dashboard.points_accredited_last30_days, 300);
    assert_eq!(dashboard.daily.len(), 30);
    let first = &dashboard.daily[0];
    let last = &dashboard.daily[29];
    assert_eq!((first.date, first.accredited, first.redeemed), (date("2025-06-01"), 200, 0));
    assert_eq!((last.date, last.accredited, last.redeemed), (date("2025-06-30"), 100, 50));
    assert!(dashboard.daily[1..29].iter().all(|d| d.accredited == 0 && d.redeemed == 0));
    assert_eq!((dashboard.liability.outstanding_points, dashboard.liability.value), (750, 375));

    let answer = app.get("/api/stats/dashboard", &shop.admin).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let body = &answer.body;
    for field in ["totalCustomers", "pointsInCirculation", "transactionsLast30Days", "pointsAccreditedLast30Days"] {
        assert!(body[field].is_i64(), "{field}: {body}");
    }
    assert_eq!(body["liability"]["outstandingPoints"], 750);
    assert_eq!(body["liability"]["value"], 375);
    let daily = body["daily"].as_array().unwrap();
    assert_eq!(daily.len(), 30);
    let today = Utc::now().with_timezone(&Bogota).date_naive().to_string();
    assert_eq!(daily[29]["date"], today.as_str());
    assert!(daily[0]["accredited"].is_i64() && daily[0]["redeemed"].is_i64());

    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    assert_eq!(app.get("/api/stats/dashboard", &cajero).await.status, StatusCode::OK);
    sql(&app, &shop, r#"update settings set role_permissions = '{"supervisor": [], "cajero": ["/accreditar"]}'"#).await;
    assert_eq!(app.get("/api/stats/dashboard", &cajero).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_openapi_document_lists_the_points_operations() {
    let app = spawn_app().await;
    let doc = app.openapi().await;
    for (path, method) in [
        ("/api/customers/{id}/accredit", "post"),
        ("/api/customers/{id}/redeem", "post"),
        ("/api/transactions/{id}/void", "post"),
        ("/api/tasks/expire-points", "post"),
        ("/api/transactions", "get"),
        ("/api/transactions/search", "get"),
        ("/api/stats/dashboard", "get"),
    ] {
        let operation = documented_operation(&doc, path, method);
        assert!(operation["security"].is_array(), "{method} {path} needs a bearer token");
    }
    for path in ["/api/customers/{id}/accredit", "/api/customers/{id}/redeem", "/api/transactions/{id}/void"] {
        let params = doc["paths"][path]["post"]["parameters"].as_array().unwrap();
        let key = params.iter().find(|p| p["name"] == "Idempotency-Key").expect("Idempotency-Key documented");
        assert_eq!((key["in"].as_str(), key["required"].as_bool()), (Some("header"), Some(false)), "{path}");
    }
}

/// The dashboard as it answers at `now`, keeping what it caches.
async fn dashboard_at(app: &crate::helpers::TestApp, now: chrono::DateTime<Utc>) -> stats::Dashboard {
    let tx = TenantTx::begin(&app.state.pool, &Prefix::parse("acme").unwrap()).await.unwrap();
    let dashboard = stats::dashboard(&tx, now).await.unwrap();
    tx.commit().await.unwrap();
    dashboard
}

fn accredited_on(dashboard: &stats::Dashboard, day: &str) -> i128 {
    dashboard.daily.iter().find(|d| d.date == date(day)).map(|d| d.accredited).unwrap()
}

#[tokio::test]
async fn the_dashboard_keeps_closed_days_and_forgets_a_day_whose_ledger_changes() {
    let (app, shop) = acme().await;
    let ana = add_customer(&app, &shop, "1", None).await;
    let clock = Clock::new(&app, &shop).await;
    let now = bogota(2025, 6, 30, 12, 0);
    clock.earn(ana, 20_000, bogota(2025, 6, 10, 9, 0)).await; // 200
    let later_voided = clock.earn(ana, 10_000, bogota(2025, 6, 20, 23, 30)).await; // 100, late local evening
    clock.earn(ana, 5_000, bogota(2025, 6, 30, 8, 0)).await; // today: 50

    let first = dashboard_at(&app, now).await;
    assert_eq!((accredited_on(&first, "2025-06-10"), accredited_on(&first, "2025-06-20")), (200, 100));
    assert_eq!(accredited_on(&first, "2025-06-30"), 50);
    assert_eq!(number(&app, &shop, "select count(*) from daily_figures").await, 29, "1 to 29 June are closed");

    // Answers from the cache match the ledger.
    let again = dashboard_at(&app, now).await;
    assert_eq!(serde_json::to_value(&again.daily).unwrap(), serde_json::to_value(&first.daily).unwrap());
    assert_eq!(again.points_accredited_last30_days, 350);

    // A void of a closed day's row, and a row written for a closed day, change that day.
    clock.void(later_voided, bogota(2025, 6, 30, 10, 0)).await.unwrap();
    clock.earn(ana, 7_000, bogota(2025, 6, 12, 15, 0)).await;
    let changed = dashboard_at(&app, now).await;
    assert_eq!(accredited_on(&changed, "2025-06-20"), 0, "the voided row is left out");
    assert_eq!(accredited_on(&changed, "2025-06-12"), 70);
    assert_eq!(accredited_on(&changed, "2025-06-10"), 200);
    assert_eq!(changed.points_accredited_last30_days, 320);
    assert_eq!(changed.transactions_last30_days, 3);

    // Another time zone moves the day boundaries: 23:30 in Bogotá on the 24th is the 25th in UTC.
    clock.earn(ana, 9_000, bogota(2025, 6, 24, 23, 30)).await;
    let in_bogota = dashboard_at(&app, now).await;
    assert_eq!((accredited_on(&in_bogota, "2025-06-24"), accredited_on(&in_bogota, "2025-06-25")), (90, 0));
    sql(&app, &shop, "update settings set time_zone = 'UTC'").await;
    let in_utc = dashboard_at(&app, now).await;
    assert_eq!((accredited_on(&in_utc, "2025-06-24"), accredited_on(&in_utc, "2025-06-25")), (0, 90));
}

#[tokio::test]
async fn a_long_report_counts_exactly_up_to_ten_thousand_matches_past_the_page() {
    let (app, shop) = acme().await;
    let [ana, beto] = add_customers(&app, &shop, ["1", "2"]).await;
    sql(
        &app,
        &shop,
        &format!(
            "insert into transactions (created_at, type, points, customer_id, cashier_username)
             select now() - g * interval '1 minute', 'accreditation', 1, {ana}, 'admin' from generate_series(1, 10100) g;
             insert into transactions (created_at, type, points, customer_id, cashier_username)
             select now() - g * interval '1 minute', 'redemption', -1, {beto}, 'admin' from generate_series(1, 30) g;"
        ),
    )
    .await;
    let everything = app.get("/api/transactions/search?pageSize=10", &shop.admin).await;
    assert_eq!(everything.status, StatusCode::OK, "{}", everything.body);
    assert_eq!(
        (everything.body["total"].as_i64(), everything.body["totalExact"].as_bool()),
        (Some(10_010), Some(false))
    );
    assert_eq!(ids(&everything.body).len(), 10);

    let far = app.get("/api/transactions/search?pageSize=50&page=3", &shop.admin).await;
    assert_eq!(
        (far.body["total"].as_i64(), far.body["totalExact"].as_bool()),
        (Some(10_130), Some(true)),
        "counted up to 10,150"
    );

    let redemptions = app.get("/api/transactions/search?pageSize=10&type=redemption", &shop.admin).await;
    assert_eq!((redemptions.body["total"].as_i64(), redemptions.body["totalExact"].as_bool()), (Some(30), Some(true)));
    let by_name = app.get("/api/transactions/search?pageSize=10&text=cliente%202", &shop.admin).await;
    assert_eq!((by_name.body["total"].as_i64(), by_name.body["totalExact"].as_bool()), (Some(30), Some(true)));
    assert!(by_name.body["items"].as_array().unwrap().iter().all(|t| t["customerId"].as_i64() == Some(beto)));
}

#[tokio::test]
async fn a_name_that_many_customers_share_finds_their_transactions_as_a_rarer_one_does() {
    let (app, shop) = acme().await;
    // 1,200 customers 'Zed 1' to 'Zed 1200': more than the report collects before it reads their
    // transactions, so 'zed' is matched inside the statements and 'zed 5' (111 customers) is not.
    sql(
        &app,
        &shop,
        "insert into customers (document, name) select 'D' || g, 'Zed ' || g from generate_series(1, 1200) g;
         insert into customers (document, name) values ('A1', 'Ana');
         insert into transactions (created_at, type, points, customer_id, cashier_username)
         select now() - g * interval '1 minute' - case when c.name = 'Zed 5' then interval '30 seconds' else '0' end,
                case when g % 3 = 0 then 'redemption' else 'accreditation' end,
                1, c.id, 'admin'
         from customers c, generate_series(1, 6) g where c.name in ('Zed 5', 'Zed 1100', 'Ana');
         insert into transactions (created_at, type, points, customer_id, cashier_username)
         select now() - interval '1 hour' - g * interval '1 minute', 'accreditation', 1, c.id, 'admin'
         from customers c, generate_series(1, 6) g where c.name = 'Zed 1100';",
    )
    .await;
    let report = |query: &'static str| {
        let (app, shop) = (&app, &shop);
        async move {
            let answer = app.get(&format!("/api/transactions/search?{query}"), &shop.admin).await;
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
            let names = texts(&answer.body, "customerName");
            (answer.body["total"].as_i64().unwrap(), answer.body["totalExact"].as_bool().unwrap(), names)
        }
    };

    let (total, exact, first) = report("text=ZED&pageSize=10").await;
    assert_eq!((total, exact), (18, true));
    assert_eq!(first, ["Zed 1100", "Zed 5"].repeat(5), "newest first, Ana's left out");
    let (_, _, second) = report("text=zed&pageSize=10&page=2").await;
    assert_eq!(second[..3], ["Zed 1100", "Zed 5", "Zed 1100"]);
    assert_eq!(second.len(), 8);
    let (total, _, redemptions) = report("text=zed&type=redemption&pageSize=10").await;
    assert_eq!(
        (total, redemptions),
        (4, vec!["Zed 1100".to_string(), "Zed 5".to_string(), "Zed 1100".to_string(), "Zed 5".to_string()])
    );

    let (total, _, few) = report("text=zed%205&pageSize=10").await;
    assert_eq!((total, few), (6, vec!["Zed 5".to_string(); 6]));
    let (total, _, by_document) = report("text=d1100&pageSize=10").await;
    assert_eq!((total, by_document.len()), (12, 10));
    let (total, _, none) = report("text=zed%201201&pageSize=10").await;
    assert_eq!((total, none.len()), (0, 0));
}

#[tokio::test]
async fn the_ledger_stores_what_happened_and_no_sentence_in_any_language() {
    let (app, shop, customer) = acme_with_customer().await;
    with_fifo_after_30_days(&app, &shop).await;
    let clock = Clock::new(&app, &shop).await;
    let start = bogota(2025, 1, 10, 10, 0);
    clock.earn(customer, 100_000, start).await;
    let spent = clock.spend(customer, 100, start + Duration::hours(1)).await;
    clock.void(spent, start + Duration::hours(2)).await.unwrap();
    let noted =
        redeem_with(&app, &shop.admin, customer, json!({ "pointsToRedeem": 1, "description": "Bono navideño" })).await;
    assert_eq!(noted.status, StatusCode::OK, "{}", noted.body);
    clock.expire(start + Duration::days(31)).await;

    let kinds = number(&app, &shop, "select count(distinct type) from transactions where description is null").await;
    assert_eq!(kinds, 4, "accreditation, redemption, cancellation and expiration keep no sentence");
    // What a cashier writes stays, as written.
    assert_eq!(number(&app, &shop, "select count(*) from transactions where description = 'Bono navideño'").await, 1);
}

#[tokio::test]
async fn the_report_totals_every_filtered_row_not_only_the_page_and_leaves_voided_ones_out() {
    let (app, shop, ana) = acme_with_customer().await;
    let beto = add_customer(&app, &shop, "200", None).await;
    for _ in 0..12 {
        assert_eq!(accredit_api(&app, &shop.admin, ana, 10_000).await.status, StatusCode::OK);
    }
    accredit_api(&app, &shop.admin, beto, 50_000).await;
    let spent = redeem_api(&app, &shop.admin, ana, 300).await;
    assert_eq!(spent.status, StatusCode::OK, "{}", spent.body);
    redeem_api(&app, &shop.admin, beto, 100).await;
    let voided = redeem_api(&app, &shop.admin, beto, 50).await;
    void_api(&app, &shop.admin, &voided.body["newTransaction"]["id"], json!({})).await;

    let all = app.get("/api/transactions/totals", &shop.admin).await;
    assert_eq!(all.status, StatusCode::OK, "{}", all.body);
    // 12 x 100 + 500 accredited; 300 + 100 redeemed at a rate of 1 (the voided 50 and its
    // cancellation count for nothing).
    assert_eq!(
        all.body,
        json!({ "pointsAccredited": 1_700, "pointsRedeemed": 400, "invoiceAmount": 170_000, "redeemedValue": 400,
                "pointsReturned": 0, "returnedAmount": 0 })
    );
    let ana_only = app.get(&format!("/api/transactions/totals?customerId={ana}&pageSize=10&page=1"), &shop.admin).await;
    assert_eq!(
        ana_only.body,
        json!({ "pointsAccredited": 1_200, "pointsRedeemed": 300, "invoiceAmount": 120_000, "redeemedValue": 300,
                "pointsReturned": 0, "returnedAmount": 0 })
    );
    let by_text = app.get("/api/transactions/totals?text=200&type=redemption", &shop.admin).await;
    assert_eq!(
        by_text.body,
        json!({ "pointsAccredited": 0, "pointsRedeemed": 100, "invoiceAmount": 0, "redeemedValue": 100,
                "pointsReturned": 0, "returnedAmount": 0 })
    );
    assert_eq!(app.get("/api/transactions/totals?type=nope", &shop.admin).await.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_report_totals_count_a_partial_return_as_its_own_figure_and_leave_out_those_of_a_voided_sale() {
    let (app, shop, ana) = acme_with_customer().await;
    let kept = accredited(&app, &shop.admin, ana, 10_000).await; // 100 points
    let answer = return_api(&app, &shop.admin, &kept, json!({ "returnedAmount": 2_500 })).await;
    assert_eq!(answer.body["newTransaction"]["points"], -25, "{}", answer.body);
    let voided = accredited(&app, &shop.admin, ana, 20_000).await; // 200 points
    let answer = return_api(&app, &shop.admin, &voided, json!({ "returnedAmount": 5_000 })).await;
    assert_eq!(answer.body["newTransaction"]["points"], -50, "{}", answer.body);
    assert_eq!(void_api(&app, &shop.admin, &voided, json!({})).await.status, StatusCode::OK);

    let totals = |query: &'static str| {
        let app = &app;
        let token = shop.admin.clone();
        async move {
            let answer = app.get(&format!("/api/transactions/totals?{query}"), &token).await;
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
            answer.body
        }
    };
    // The voided sale, its return and its cancellation count for nothing; the kept sale's return
    // is its own figure, so accredited - redeemed - returned is the balance.
    assert_eq!(
        totals("").await,
        json!({ "pointsAccredited": 100, "pointsRedeemed": 0, "invoiceAmount": 10_000, "redeemedValue": 0,
                "pointsReturned": 25, "returnedAmount": 2_500 })
    );
    assert_eq!(balance(&app, &shop, ana).await, 100 - 25);
    assert_eq!(
        totals("type=return").await,
        json!({ "pointsAccredited": 0, "pointsRedeemed": 0, "invoiceAmount": 0, "redeemedValue": 0,
                "pointsReturned": 25, "returnedAmount": 2_500 })
    );
    assert_eq!(
        totals("type=accreditation").await,
        json!({ "pointsAccredited": 100, "pointsRedeemed": 0, "invoiceAmount": 10_000, "redeemedValue": 0,
                "pointsReturned": 0, "returnedAmount": 0 })
    );
}

fn returned_on(dashboard: &stats::Dashboard, day: &str) -> i128 {
    dashboard.daily.iter().find(|d| d.date == date(day)).map(|d| d.returned).unwrap()
}

#[tokio::test]
async fn the_dashboard_shows_returned_points_as_their_own_figure_and_its_numbers_add_up_to_the_balance() {
    let (app, shop) = acme().await;
    let ana = add_customer(&app, &shop, "1", None).await;
    let clock = Clock::new(&app, &shop).await;
    let now = bogota(2025, 6, 30, 12, 0);
    let first_sale = clock.earn(ana, 20_000, bogota(2025, 6, 10, 9, 0)).await; // 200
    clock.give_back(first_sale, 5_000, bogota(2025, 6, 12, 10, 0)).await; // 50 of 200
    let later_voided = clock.earn(ana, 10_000, bogota(2025, 6, 20, 9, 0)).await; // 100
    clock.give_back(later_voided, 3_333, bogota(2025, 6, 21, 23, 30)).await; // 33, late local evening
    let today = clock.earn(ana, 10_000, bogota(2025, 6, 30, 8, 0)).await; // 100
    clock.spend(ana, 30, bogota(2025, 6, 30, 9, 0)).await;
    clock.give_back(today, 1_000, bogota(2025, 6, 30, 9, 30)).await; // 10

    let first = dashboard_at(&app, now).await;
    assert_eq!(
        (returned_on(&first, "2025-06-12"), returned_on(&first, "2025-06-21"), returned_on(&first, "2025-06-30")),
        (50, 33, 10)
    );
    assert_eq!(returned_on(&first, "2025-06-22"), 0, "the return's local day, not UTC's");
    assert_eq!(first.points_accredited_last30_days, 400);
    assert_eq!(first.points_redeemed_last30_days, 30);
    assert_eq!(first.points_returned_last30_days, 93);
    assert_eq!(first.transactions_last30_days, 4, "accreditations and redemptions");
    assert_eq!(first.points_in_circulation, 400 - 30 - 93);
    assert_eq!(number(&app, &shop, "select sum(returned)::bigint from daily_figures").await, 83, "closed days cached");

    // From the cache, the same.
    let again = dashboard_at(&app, now).await;
    assert_eq!(serde_json::to_value(&again.daily).unwrap(), serde_json::to_value(&first.daily).unwrap());

    // Voiding a partly returned sale leaves it and its return out: the cancellation took the 67 left.
    clock.void(later_voided, bogota(2025, 6, 30, 10, 0)).await.unwrap();
    let changed = dashboard_at(&app, now).await;
    assert_eq!((accredited_on(&changed, "2025-06-20"), returned_on(&changed, "2025-06-21")), (0, 0));
    assert_eq!(changed.points_accredited_last30_days, 300);
    assert_eq!(changed.points_returned_last30_days, 60);
    assert_eq!(changed.points_in_circulation, 300 - 30 - 60);
    assert_eq!(balance(&app, &shop, ana).await, 210);

    let answer = app.get("/api/stats/dashboard", &shop.admin).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert!(answer.body["pointsReturnedLast30Days"].is_i64(), "{}", answer.body);
    assert!(answer.body["pointsRedeemedLast30Days"].is_i64(), "{}", answer.body);
    assert!(answer.body["daily"][0]["returned"].is_i64(), "{}", answer.body);
}

#[tokio::test]
async fn the_report_names_who_approved_a_cajeros_void_and_return() {
    let CajeroSale { app, shop, cajero, customer, sale, supervisor } = cajero_sale("super1").await;
    let approval = |extra: Value| {
        let mut body = json!({ "supervisorUsername": "super1", "supervisorPassword": STAFF_PASSWORD });
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    let answer = return_api(&app, &cajero, &sale, approval(json!({ "returnedAmount": 1_000 }))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["newTransaction"]["approvedBy"], "super1");
    let returned = answer.body["newTransaction"]["id"].clone();
    let second = accredited(&app, &cajero, customer, 10_000).await;
    assert_eq!(void_api(&app, &cajero, &second, approval(json!({}))).await.status, StatusCode::OK);
    let third = accredited(&app, &cajero, customer, 10_000).await;
    assert_eq!(void_api(&app, &supervisor, &third, json!({})).await.status, StatusCode::OK);

    let page = app.get("/api/transactions/search?pageSize=50", &shop.admin).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let items = page.body["items"].as_array().unwrap();
    let row = |f: &dyn Fn(&Value) -> bool| items.iter().find(|t| f(t)).cloned().unwrap();
    assert_eq!(row(&|t| t["id"] == returned)["approvedBy"], "super1");
    assert_eq!(row(&|t| t["originalTransactionId"] == second && t["type"] == "cancellation")["approvedBy"], "super1");
    assert!(
        row(&|t| t["originalTransactionId"] == third && t["type"] == "cancellation")["approvedBy"].is_null(),
        "a supervisor's own void needs no approval"
    );
    assert!(row(&|t| t["id"] == sale)["approvedBy"].is_null());
}

#[tokio::test]
async fn the_report_filters_by_an_invoice_reference_without_case() {
    let (app, shop, ana) = acme_with_customer().await;
    let sale =
        accredit_with(&app, &shop.admin, ana, json!({ "invoiceAmount": 10_000, "invoiceReference": "Fac-9" })).await;
    assert_eq!(sale.status, StatusCode::OK, "{}", sale.body);
    let sale = sale.body["newTransaction"]["id"].as_i64().unwrap();
    let other =
        accredit_with(&app, &shop.admin, ana, json!({ "invoiceAmount": 10_000, "invoiceReference": "FAC-90" })).await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.body);
    let answer = return_api(&app, &shop.admin, &json!(sale), json!({ "returnedAmount": 1_000 })).await;
    let returned = answer.body["newTransaction"]["id"].as_i64().unwrap();

    let page = app.get("/api/transactions/search?invoiceReference=fac-9", &shop.admin).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert_eq!(ids(&page.body), [returned, sale], "the return keeps the sale's reference");
    let totals = app.get("/api/transactions/totals?invoiceReference=FAC-9", &shop.admin).await;
    assert_eq!(
        (totals.body["pointsAccredited"].as_i64(), totals.body["pointsReturned"].as_i64()),
        (Some(100), Some(10))
    );
    let too_long =
        app.get(&format!("/api/transactions/search?invoiceReference={}", "x".repeat(101)), &shop.admin).await;
    assert_eq!(too_long.status, StatusCode::BAD_REQUEST);
}
