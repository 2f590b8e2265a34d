//! The start-up warm-up: a company's sale statements prepared and planned on its connection
//! before the server takes requests, and a sale of the company's rehearsed there and rolled
//! back, so that its first sale after a restart finds them and the foreign keys' checks planned.

use std::time::Duration;

use loyalty::domain::Prefix;
use loyalty::points::warm::{rehearse_sale, sale_statements, warm_company, warm_up};
use reqwest::StatusCode;
use serde_json::json;

use super::support::*;
use crate::helpers::{spawn_app_with_pool, TestApp};

/// The company's statements prepared on the pool's one connection, how many keep a plan, and
/// how many were planned at some execution of their own.
async fn prepared(app: &TestApp, shop: &Shop) -> (i64, i64, i64) {
    let pooled = app.state.pool.get().await.unwrap();
    let tag = format!("/* {} */ %", shop.schema());
    let row = pooled
        .query_one(
            "select count(*), count(*) filter (where generic_plans > 0), \
                    count(*) filter (where custom_plans > 0) \
             from pg_prepared_statements where statement like $1",
            &[&tag],
        )
        .await
        .unwrap();
    (row.get(0), row.get(1), row.get(2))
}

#[tokio::test]
async fn a_warmed_company_sells_without_preparing_or_planning_a_statement_more() {
    let app = spawn_app_with_pool(1).await;
    let acme = shop(&app, "acme").await;
    let customer = add_customer(&app, &acme, "100", None).await;
    let product = add_product(&app, &acme, "TAZ-1", 150, 15_000, true).await;
    assert_eq!(prepared(&app, &acme).await, (0, 0, 0));

    warm_company(&app.state.pool, &Prefix::parse("acme").unwrap()).await.unwrap();
    let statements = sale_statements().len() as i64;
    assert_eq!(prepared(&app, &acme).await, (statements, statements, 0), "each prepared and planned once");
    let nothing_written = number(&app, &acme, "select count(*) from transactions").await
        + number(&app, &acme, "select count(*) from idempotency_keys").await;
    assert_eq!(nothing_written, 0, "the warm-up runs no statement");

    // The sales of a till, each under an Idempotency-Key, as `make bench` sends them.
    let accredit = format!("/api/customers/{customer}/accredit");
    let (status, _, _) = post_with_key(&app, &accredit, &acme.admin, "k-1", json!({ "invoiceAmount": 50_000 })).await;
    assert_eq!(status, StatusCode::OK);
    let redeem = format!("/api/customers/{customer}/redeem");
    let (status, _, _) = post_with_key(&app, &redeem, &acme.admin, "k-2", json!({ "pointsToRedeem": 100 })).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body, _) = post_with_key(&app, &redeem, &acme.admin, "k-3", json!({ "productId": product })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(balance(&app, &acme, customer).await, 250);
    assert_eq!(
        prepared(&app, &acme).await,
        (statements, statements, 0),
        "a sale prepared a statement the warm-up does not (points::warm::sale_statements), \
         or planned one at its execution instead of keeping its plan"
    );
}

/// The company's statements prepared on the pool's one connection whose text has `pattern`.
async fn prepared_like(app: &TestApp, shop: &Shop, pattern: &str) -> i64 {
    let pooled = app.state.pool.get().await.unwrap();
    let like = format!("/* {} */ %{pattern}%", shop.schema());
    pooled
        .query_one("select count(*) from pg_prepared_statements where statement like $1", &[&like])
        .await
        .unwrap()
        .get(0)
}

#[tokio::test]
async fn a_sale_of_a_company_without_webhooks_writes_to_no_outbox_and_drops_no_kept_day() {
    let app = spawn_app_with_pool(1).await;
    let acme = shop(&app, "acme").await;
    let customer = add_customer(&app, &acme, "100", None).await;
    // Yesterday's figures kept, as the dashboard keeps a closed day.
    sql(
        &app,
        &acme,
        "insert into daily_figures (day, time_zone, accredited, redeemed, returned, transactions) \
         values (current_date - 1, 'America/Bogota', 7, 0, 0, 1)",
    )
    .await;
    let accredit = format!("/api/customers/{customer}/accredit");
    let redeem = format!("/api/customers/{customer}/redeem");
    let (status, _, _) = post_with_key(&app, &accredit, &acme.admin, "k-1", json!({ "invoiceAmount": 50_000 })).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, _) = post_with_key(&app, &redeem, &acme.admin, "k-2", json!({ "pointsToRedeem": 10 })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(balance(&app, &acme, customer).await, 490);
    // Each statement a sale prepares is one its company's connection keeps (docs/performance.md,
    // "A sale of fewer statements"): none for an outbox without endpoints, none for a kept day a
    // sale dated now cannot fall on.
    assert_eq!(
        prepared_like(&app, &acme, "insert into webhook_deliveries").await,
        0,
        "an outbox statement was prepared"
    );
    assert_eq!(prepared_like(&app, &acme, "delete from daily_figures").await, 0, "a kept days' statement was prepared");
    assert_eq!(number(&app, &acme, "select count(*) from daily_figures").await, 1, "yesterday's figures are kept");

    // With an endpoint, the same sale writes its event to the outbox, in the same transaction.
    let answer = app
        .post(
            "/api/webhooks",
            &acme.admin,
            json!({ "url": "https://hooks.example.com/points", "events": ["points.accredited"] }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    let (status, _, _) = post_with_key(&app, &accredit, &acme.admin, "k-3", json!({ "invoiceAmount": 20_000 })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(number(&app, &acme, "select count(*) from webhook_deliveries").await, 1, "the accreditation's event");
}

#[tokio::test]
async fn a_cashiers_sale_names_its_point_of_sale_and_product_without_a_statement_to_read_them() {
    let app = spawn_app_with_pool(1).await;
    let acme = shop(&app, "acme").await;
    let cajero = add_staff(&app, &acme, "caja1", "cajero").await;
    let customer = add_customer(&app, &acme, "100", None).await;
    let product = add_product(&app, &acme, "TAZ-1", 100, 10_000, true).await;
    let accredit = format!("/api/customers/{customer}/accredit");
    let redeem = format!("/api/customers/{customer}/redeem");
    let (status, answer, _) = post_with_key(&app, &accredit, &cajero, "k-1", json!({ "invoiceAmount": 50_000 })).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["newTransaction"]["posName"], "Caja caja1");
    let (status, answer, _) =
        post_with_key(&app, &redeem, &cajero, "k-2", json!({ "pointsToRedeem": 100, "productId": product })).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["newTransaction"]["posName"], "Caja caja1");
    assert_eq!(answer["newTransaction"]["productName"], "Producto TAZ-1");
    // The names came with the sale's first statements (the user's row, the product): the ledger
    // row's statement joins nothing, and none was prepared to read them after it.
    assert_eq!(prepared_like(&app, &acme, "insert into transactions%join").await, 0, "the ledger row joined its names");
    assert_eq!(prepared_like(&app, &acme, "select (select name from").await, 0, "the names were read after the row");

    // Renamed, the point of sale is named as it is now on the next receipt.
    sql(&app, &acme, "update points_of_sale set name = 'Caja Norte'").await;
    let (status, answer, _) = post_with_key(&app, &accredit, &cajero, "k-3", json!({ "invoiceAmount": 20_000 })).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["newTransaction"]["posName"], "Caja Norte");
}

/// The foreign keys' checks of the company's tables that the pool's one connection keeps planned,
/// read from the connection's own memory contexts (through a function of the superuser's: the
/// server's role may not read them).
async fn planned_checks(app: &TestApp, shop: &Shop) -> i64 {
    app.db()
        .await
        .batch_execute(
            "create or replace function public.planned_statements(pattern text) returns bigint \
             language sql security definer set search_path = pg_catalog as \
             $$ select count(*) from pg_backend_memory_contexts \
                where name = 'CachedPlanSource' and ident like pattern $$",
        )
        .await
        .unwrap();
    let pooled = app.state.pool.get().await.unwrap();
    let checked = format!("%\"{}\".%FOR KEY SHARE OF x%", shop.schema());
    pooled.query_one("select public.planned_statements($1)", &[&checked]).await.unwrap().get(0)
}

/// What a sale would leave in the company's schema and the platform's outbox.
async fn written(app: &TestApp, shop: &Shop, customer: i64) -> Vec<i64> {
    let mut figures = vec![balance(app, shop, customer).await];
    for table in ["transactions", "point_batches", "batch_movements", "idempotency_keys", "webhook_deliveries"] {
        figures.push(number(app, shop, &format!("select count(*) from {table}")).await);
    }
    figures.push(number(app, shop, "select count(*) from platform.webhook_pending").await);
    // The next receipt's number.
    figures.push(number(app, shop, "select last_value + is_called::int from transactions_id_seq").await);
    figures
        .push(number(app, shop, &format!("select count(last_activity_at) from customers where id = {customer}")).await);
    figures
}

#[tokio::test]
async fn a_rehearsed_sale_plans_the_foreign_keys_checks_and_leaves_nothing_behind() {
    let app = spawn_app_with_pool(1).await;
    let acme = shop(&app, "acme").await;
    let customer = add_customer(&app, &acme, "100", None).await;
    sql(
        &app,
        &acme,
        "insert into webhook_endpoints (url, events, secret, created_by) \
         values ('http://127.0.0.1:9/hook', '{points.accredited,points.redeemed}', 'whsec_dGVzdA==', 'admin')",
    )
    .await;
    let before = written(&app, &acme, customer).await;
    assert_eq!(before[..7], [0, 0, 0, 0, 0, 0, 0], "no sale yet");
    assert_eq!(planned_checks(&app, &acme).await, 0);

    let prefix = Prefix::parse("acme").unwrap();
    warm_company(&app.state.pool, &prefix).await.unwrap();
    assert_eq!(planned_checks(&app, &acme).await, 0, "planning the statements runs no check");
    assert!(rehearse_sale(&app.state.pool, &prefix).await.unwrap(), "the company has a customer and a user");
    assert!(
        planned_checks(&app, &acme).await >= 4,
        "the ledger's, the batches' and their movements' checks are planned on the connection"
    );
    assert_eq!(written(&app, &acme, customer).await, before, "the rehearsal kept nothing, nor took a receipt's number");
    let rehearsed = prepared(&app, &acme).await;
    assert_eq!(rehearsed.2, 0, "every statement kept its plan");

    // The till's first sale afterwards is the customer's first, by the company's rules, and
    // finds everything it runs prepared and planned.
    let accredit = format!("/api/customers/{customer}/accredit");
    let (status, body, _) =
        post_with_key(&app, &accredit, &acme.admin, "k-1", json!({ "invoiceAmount": 50_000 })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(balance(&app, &acme, customer).await, 500);
    assert_eq!(prepared(&app, &acme).await, rehearsed);
}

#[tokio::test]
async fn a_company_without_an_active_customer_is_warmed_with_nothing_to_rehearse() {
    let app = spawn_app_with_pool(1).await;
    let acme = shop(&app, "acme").await;
    let prefix = Prefix::parse("acme").unwrap();
    assert!(!rehearse_sale(&app.state.pool, &prefix).await.unwrap());
    let customer = add_customer(&app, &acme, "100", None).await;
    sql(&app, &acme, &format!("update customers set is_active = false where id = {customer}")).await;
    assert!(!rehearse_sale(&app.state.pool, &prefix).await.unwrap(), "nor with an inactive one");
    add_customer(&app, &acme, "101", None).await;
    let warmed = warm_up(&app.state, Duration::from_secs(30)).await.unwrap();
    assert_eq!((warmed.warmed, warmed.rehearsed, warmed.failed), (1, 1, 0));
    assert_eq!(number(&app, &acme, "select count(*) from transactions").await, 0);
}

#[tokio::test]
async fn the_warm_up_covers_every_active_company_within_its_time_and_none_without_any() {
    let app = spawn_app_with_pool(2).await;
    shop(&app, "acme").await;
    shop(&app, "globex").await;
    app.sql("update platform.companies set state = 'deleting' where prefix = 'globex'").await;
    shop(&app, "initech").await;

    let none = warm_up(&app.state, Duration::ZERO).await.unwrap();
    assert_eq!((none.companies, none.warmed, none.failed), (2, 0, 0));
    let all = warm_up(&app.state, Duration::from_secs(30)).await.unwrap();
    assert_eq!((all.companies, all.warmed, all.failed), (2, 2, 0), "the active companies");
    assert_eq!(all.rehearsed, 0, "neither has a customer to sell to");
}
