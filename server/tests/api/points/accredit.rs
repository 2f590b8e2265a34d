use chrono::{Datelike, Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::America::Bogota;
use reqwest::StatusCode;
use serde_json::json;

use super::support::*;
use crate::helpers::{spawn_app, spawn_app_with_pool};

#[tokio::test]
async fn points_follow_the_formula_with_campaign_first_purchase_and_birthday_bonuses() {
    let (app, shop, plain) = acme_with_customer().await;
    with_every_bonus(&app, &shop).await;
    let born_tomorrow = {
        let tomorrow = Utc::now().with_timezone(&Bogota).date_naive() + Duration::days(1);
        NaiveDate::from_ymd_opt(1992, tomorrow.month(), tomorrow.day()).unwrap()
    };
    let birthday = add_customer(&app, &shop, "200", Some(born_today())).await;
    let not_yet = add_customer(&app, &shop, "300", Some(born_tomorrow)).await;
    let rounding = add_customer(&app, &shop, "400", None).await;

    // (customer, invoice, expected points): 100,000 x 0.01 x 2 = 2,000 before bonuses.
    for (customer, amount, expected) in [
        (plain, 100_000, 3_000),    // first purchase x 1.5
        (plain, 100_000, 2_000),    // no bonus any more
        (birthday, 100_000, 6_000), // first purchase x 1.5 x birthday 2
        (birthday, 100_000, 4_000), // birthday only
        (not_yet, 100_000, 3_000),  // birthday tomorrow: first purchase only
        (rounding, 33_333, 999),    // 999.99 rounds down
        (rounding, 49, 0),          // 0.98 rounds down to nothing
    ] {
        let answer = accredit_api(&app, &shop.admin, customer, amount).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        assert_eq!(answer.body["newTransaction"]["points"], expected, "customer {customer}, invoice {amount}");
    }
    assert_eq!(balance(&app, &shop, plain).await, 5_000);
    assert_eq!(balance(&app, &shop, birthday).await, 10_000);
    assert_eq!(balance(&app, &shop, not_yet).await, 3_000);
    assert_eq!(balance(&app, &shop, rounding).await, 999);
    // A purchase too small to earn is still on record, with no batch.
    assert_eq!(
        number(&app, &shop, &format!("select count(*) from transactions where customer_id = {rounding}")).await,
        2
    );
    assert_eq!(batches(&app, &shop, rounding).await, [999]);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn concurrent_first_purchases_of_a_customer_earn_the_first_purchase_bonus_once() {
    let (app, shop, customer) = busy_acme_with_customer().await;
    with_first_purchase_doubled(&app, &shop).await;
    let answers =
        at_once(&app, &shop.admin, 20, |app, token| async move { accredit_api(&app, &token, customer, 10_000).await })
            .await;
    let mut earned = Vec::new();
    for answer in answers {
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        earned.push(answer.body["newTransaction"]["points"].as_i64().unwrap());
    }
    earned.sort();
    // 10,000 COP earn 100 points; only the first of them, whichever it was, earns double.
    assert_eq!(earned, [[100; 19].as_slice(), &[200]].concat());
    assert_eq!(balance(&app, &shop, customer).await, 2_100);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn sales_of_two_companies_on_one_connection_keep_their_own_statements_and_customers() {
    // One connection serves both companies, alternating.
    let app = spawn_app_with_pool(1).await;
    let acme = shop(&app, "acme").await;
    let globex = shop(&app, "globex").await;
    let acme_customer = add_customer(&app, &acme, "100", None).await;
    let globex_customer = add_customer(&app, &globex, "100", None).await;
    for _ in 0..5 {
        assert_eq!(accredit_api(&app, &acme.admin, acme_customer, 10_000).await.status, StatusCode::OK);
        assert_eq!(accredit_api(&app, &globex.admin, globex_customer, 20_000).await.status, StatusCode::OK);
        assert_eq!(redeem_api(&app, &acme.admin, acme_customer, 30).await.status, StatusCode::OK);
    }
    assert_eq!(balance(&app, &acme, acme_customer).await, 5 * (100 - 30));
    assert_eq!(balance(&app, &globex, globex_customer).await, 5 * 200);
    assert_ledger_consistent(&app, &acme).await;
    assert_ledger_consistent(&app, &globex).await;

    let conn = app.state.pool.get().await.unwrap();
    let mut prepared = Vec::new();
    for shop in [&acme, &globex] {
        let pattern = format!("/* {} */ %", shop.schema());
        let sql = "select count(*) from pg_prepared_statements where statement like $1";
        prepared.push(conn.query_one(sql, &[&pattern]).await.unwrap().get::<_, i64>(0));
    }
    assert!(prepared[0] >= 8 && prepared[1] >= 6, "each company's statements are its own: {prepared:?}");
    // The plans kept for a sale are kept for its transaction only.
    let mode: String = conn.query_one("show plan_cache_mode", &[]).await.unwrap().get(0);
    assert_eq!(mode, "force_custom_plan");
}

#[tokio::test]
async fn a_29_february_birthday_earns_the_bonus_on_28_february_in_non_leap_years() {
    let (app, shop) = acme().await;
    sql(&app, &shop, "update settings set enable_birthday_bonus = true, birthday_bonus_multiplier = 2").await;
    let leapling = add_customer(&app, &shop, "2902", Some(date("2000-02-29"))).await;
    let clock = Clock::new(&app, &shop).await;
    for (at, expected) in [
        (bogota(2023, 2, 27, 12, 0), 100),
        (bogota(2023, 2, 28, 12, 0), 200),
        // 03:00 UTC on 1 March is still 28 February in Bogotá.
        (Utc.with_ymd_and_hms(2023, 3, 1, 3, 0, 0).unwrap(), 200),
        (bogota(2023, 3, 1, 0, 30), 100),
        (bogota(2024, 2, 28, 12, 0), 100),
        (bogota(2024, 2, 29, 12, 0), 200),
    ] {
        let posting = clock.accredit(leapling, 10_000, at).await.unwrap();
        assert_eq!(posting.new_transaction.points, expected, "at {at}");
    }
}

#[tokio::test]
async fn voiding_the_first_purchase_lets_the_next_one_earn_the_first_purchase_bonus() {
    let (app, shop, customer) = acme_with_customer().await;
    with_first_purchase_doubled(&app, &shop).await;
    let clock = Clock::new(&app, &shop).await;
    let now = Utc::now();
    let first = clock.accredit(customer, 10_000, now).await.unwrap();
    assert_eq!(first.new_transaction.points, 200);
    clock.void(first.new_transaction.id, now).await.unwrap();
    assert_eq!(clock.accredit(customer, 10_000, now).await.unwrap().new_transaction.points, 200);
    assert_eq!(clock.accredit(customer, 10_000, now).await.unwrap().new_transaction.points, 100);
    assert_eq!(balance(&app, &shop, customer).await, 300);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn an_accreditation_answers_the_customer_and_a_transaction_by_the_cashier_at_its_point_of_sale() {
    let (app, shop) = acme().await;
    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    let customer = add_customer(&app, &shop, "1020304050", Some(date("1990-04-12"))).await;
    let answer = accredit_api(&app, &cajero, customer, 150_000).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);

    let updated = &answer.body["updatedCustomer"];
    assert_eq!(updated["id"], customer);
    assert_eq!(updated["document"], "1020304050");
    assert_eq!(updated["points"], 1_500);
    assert_eq!(updated["birthdate"], "1990-04-12");
    assert_eq!(updated["is_active"], true);

    let tx = &answer.body["newTransaction"];
    assert_eq!(tx["type"], "accreditation");
    assert_eq!(tx["points"], 1_500);
    assert_eq!(tx["customerId"], customer);
    assert_eq!(tx["customerName"], "Cliente 1020304050");
    assert_eq!(tx["customerDocument"], "1020304050");
    assert_eq!(tx["cashierUsername"], "caja1");
    assert_eq!(tx["posName"], "Caja caja1");
    assert!(tx["posId"].is_i64());
    assert_eq!(tx["invoiceAmount"], 150_000);
    assert!(tx["invoiceReference"].as_str().unwrap().starts_with("F-"), "{tx}");
    assert!(tx["redeemedValue"].is_null());
    assert!(tx["productId"].is_null());
    assert_eq!(tx["is_voided"], false);
    assert!(tx["voided_by"].is_null());
    assert!(tx["originalTransactionId"].is_null());
    let date = tx["date"].as_str().unwrap();
    assert!(chrono::DateTime::parse_from_rfc3339(date).is_ok(), "{date}");

    let active = number(
        &app,
        &shop,
        &format!("select count(*) from customers where id = {customer} and last_activity_at is not null"),
    )
    .await;
    assert_eq!(active, 1, "the accreditation is the customer's latest activity");
    // The amount may come as a string of digits, as the till's input keeps digits only.
    let answer = accredit_with(&app, &cajero, customer, json!({ "invoiceAmount": "20000" })).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["updatedCustomer"]["points"], 1_700);
    assert!(answer.body["newTransaction"]["invoiceReference"].is_null());
}

#[tokio::test]
async fn accreditations_and_redemptions_answer_their_ledger_rows_as_the_report_shows_them() {
    let (app, shop) = acme().await;
    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    let customer = add_customer(&app, &shop, "1020304050", None).await;
    let product = add_product(&app, &shop, "TAZ-1", 150, 15_000, true).await;
    let answers = [
        accredit_api(&app, &cajero, customer, 50_000).await,
        accredit_api(&app, &shop.admin, customer, 20_000).await,
        redeem_api(&app, &cajero, customer, 100).await,
        redeem_with(&app, &cajero, customer, json!({ "productId": product })).await,
    ];
    let report = app.get("/api/transactions", &shop.admin).await;
    assert_eq!(report.status, StatusCode::OK);
    for answer in answers {
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        let answered = &answer.body["newTransaction"];
        let stored = report.body.as_array().unwrap().iter().find(|t| t["id"] == answered["id"]).unwrap();
        assert_eq!(answered, stored);
    }
}

#[tokio::test]
async fn an_accreditation_refuses_bad_amounts_unknown_or_inactive_customers_and_roles_without_permission() {
    let (app, shop, customer) = acme_with_customer().await;
    let path = format!("/api/customers/{customer}/accredit");
    for (amount, message) in [
        (json!(0), "invoice amount must be positive"),
        (json!(-5000), "invoice amount must be positive"),
        (json!("12a"), "invoice amount must be positive"),
        (json!(null), "invoice amount must be positive"),
        (json!(10.5), "invoice amount must be a whole number of pesos"),
        (json!(2_000_000_000_000i64), "invoice amount is too large: the most is 1,000,000,000,000 pesos"),
        (json!(1e20), "invoice amount is too large: the most is 1,000,000,000,000 pesos"),
    ] {
        let answer = app.post(&path, &shop.admin, json!({ "invoiceAmount": amount })).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{amount}");
        assert_eq!(answer.message(), message, "{amount}");
    }
    let missing = app.post(&path, &shop.admin, json!({})).await;
    assert_eq!(missing.message(), "invoice amount must be positive");

    let unknown = accredit_api(&app, &shop.admin, 999_999, 1_000).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.message(), "customer not found");
    let inactive = add_customer(&app, &shop, "200", None).await;
    sql(&app, &shop, &format!("update customers set is_active = false where id = {inactive}")).await;
    let answer = accredit_api(&app, &shop.admin, inactive, 1_000).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.message(), "customer not found");

    // Another company's customer id is not found either.
    let other = super::support::shop(&app, "globex").await;
    let answer = accredit_api(&app, &other.admin, customer, 1_000).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);

    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    sql(&app, &shop, r#"update settings set role_permissions = '{"supervisor": [], "cajero": ["/reportes"]}'"#).await;
    assert_eq!(accredit_api(&app, &cajero, customer, 1_000).await.status, StatusCode::FORBIDDEN);
    sql(&app, &shop, r#"update settings set role_permissions = '{"supervisor": [], "cajero": ["/main"]}'"#).await;
    assert_eq!(accredit_api(&app, &cajero, customer, 1_000).await.status, StatusCode::OK);
    assert_eq!(number(&app, &shop, "select count(*) from transactions").await, 1);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn postings_and_balances_past_their_bounds_are_refused_and_the_dashboard_sums_never_overflow() {
    let (app, shop, customer) = acme_with_customer().await;
    // The largest earning settings the API accepts.
    let answer = app
        .post(
            "/api/settings",
            &shop.admin,
            json!({ "pointsPerPeso": 1000, "campaignMultiplier": 100, "enableFirstPurchaseBonus": true, "firstPurchaseBonusMultiplier": 100 }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);

    // 920,000,000,000 COP x 10^7 would post 9.2 x 10^18 points.
    let answer = accredit_api(&app, &shop.admin, customer, 920_000_000_000).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.body);
    assert_eq!(answer.code(), "points.postingTooLarge");
    assert_eq!(
        answer.message(),
        "this would post too many points: the most one posting may hold is 1,000,000,000,000,000 points"
    );
    // Exactly the most one posting may hold, which is also the most a balance may hold.
    let answer = accredit_api(&app, &shop.admin, customer, 100_000_000).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(balance(&app, &shop, customer).await, 1_000_000_000_000_000);
    // One peso more would take the balance past its bound.
    let answer = accredit_api(&app, &shop.admin, customer, 1).await;
    assert_eq!(answer.status, StatusCode::CONFLICT, "{}", answer.body);
    assert_eq!(answer.code(), "points.balanceTooLarge");
    assert_eq!(balance(&app, &shop, customer).await, 1_000_000_000_000_000);
    assert_ledger_consistent(&app, &shop).await;

    // Sums are exact whatever the balances and postings add up to (here set past any bound).
    let other = add_customer(&app, &shop, "200", None).await;
    sql(&app, &shop, &format!(
        "update customers set points = 9000000000000000000 where id in ({customer}, {other}); \
         insert into transactions (type, points, customer_id) values ('accreditation', 9000000000000000000, {customer}), \
             ('accreditation', 9000000000000000000, {other})"
    ))
    .await;
    let dashboard = app.get("/api/stats/dashboard", &shop.admin).await;
    assert_eq!(dashboard.status, StatusCode::OK, "{}", dashboard.body);
    assert_eq!(dashboard.body["pointsInCirculation"], json!(18_000_000_000_000_000_000u64));
    assert_eq!(dashboard.body["pointsAccreditedLast30Days"], json!(18_001_000_000_000_000_000u64));
    assert_eq!(dashboard.body["daily"][29]["accredited"], json!(18_001_000_000_000_000_000u64));
}

#[tokio::test]
async fn a_number_out_of_its_columns_range_is_the_inputs_fault() {
    let app = spawn_app().await;
    app.assert_refused_as_bad_request("select 9223372036854775807::bigint + $1", &[&1i64]).await;
}

#[tokio::test]
async fn a_new_company_refuses_to_accredit_or_redeem_until_an_admin_sets_the_rules() {
    let app = spawn_app().await;
    let (_, admin) = app.create_company("nueva").await;
    let shop = Shop { prefix: "nueva".into(), admin: admin.clone() };
    let customer = add_customer(&app, &shop, "100", None).await;
    let product = add_product(&app, &shop, "P-1", 10, 1_000, true).await;

    let refused = [
        accredit_api(&app, &admin, customer, 50_000).await,
        redeem_api(&app, &admin, customer, 1).await,
        redeem_with(&app, &admin, customer, json!({ "productId": product })).await,
    ];
    for answer in refused {
        assert_eq!(answer.status, StatusCode::CONFLICT, "{}", answer.body);
        assert_eq!(answer.code(), "points.rulesNotSet");
    }
    assert_eq!(number(&app, &shop, "select count(*) from transactions").await, 0, "nothing was recorded");
    // An unknown customer is still not found.
    assert_eq!(accredit_api(&app, &admin, 999_999, 50_000).await.status, StatusCode::NOT_FOUND);

    // Points per peso alone is not enough: the redemption rate is part of the rules.
    let saved = app.post("/api/settings", &admin, json!({ "pointsPerPeso": 0.01 })).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(accredit_api(&app, &admin, customer, 50_000).await.code(), "points.rulesNotSet");
    assert_eq!(app.post("/api/settings", &admin, json!({ "redemptionRate": 10 })).await.status, StatusCode::OK);
    let answer = accredit_api(&app, &admin, customer, 50_000).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["newTransaction"]["points"], 500);
    assert_eq!(redeem_api(&app, &admin, customer, 100).await.status, StatusCode::OK);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn an_invoice_is_credited_once_until_its_accreditation_is_voided() {
    let (app, shop, ana) = acme_with_customer().await;
    let beto = add_customer(&app, &shop, "200", None).await;
    let accredit = |customer: i64, reference: &'static str| {
        let app = &app;
        let token = shop.admin.clone();
        async move {
            accredit_with(app, &token, customer, json!({ "invoiceAmount": 10_000, "invoiceReference": reference }))
                .await
        }
    };
    let first = accredit(ana, "FV-77").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    let first_id = first.body["newTransaction"]["id"].as_i64().unwrap();

    // The same invoice, for the same customer or another, written in another case.
    for (customer, reference) in [(ana, "FV-77"), (beto, "fv-77")] {
        let again = accredit(customer, reference).await;
        assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
        assert_eq!(again.code(), "points.invoiceAlreadyCredited");
        assert_eq!(again.body["params"]["transactionId"], first_id.to_string());
        assert_eq!(again.body["params"]["reference"], reference);
        let date = again.body["params"]["date"].as_str().unwrap();
        assert!(chrono::NaiveDateTime::parse_from_str(date, "%Y-%m-%d %H:%M").is_ok(), "{date}");
    }
    assert_eq!(balance(&app, &shop, beto).await, 0);
    assert_eq!(number(&app, &shop, "select count(*) from transactions").await, 1);
    // Redemptions and accreditations without a reference are not invoices credited.
    assert_eq!(accredit_api(&app, &shop.admin, ana, 1_000).await.status, StatusCode::OK);
    let plain = accredit_with(&app, &shop.admin, ana, json!({ "invoiceAmount": 1_000 })).await;
    assert_eq!(plain.status, StatusCode::OK);
    let plain = accredit_with(&app, &shop.admin, ana, json!({ "invoiceAmount": 1_000 })).await;
    assert_eq!(plain.status, StatusCode::OK);
    let redeemed =
        redeem_with(&app, &shop.admin, ana, json!({ "pointsToRedeem": 1, "invoiceReference": "FV-77" })).await;
    assert_eq!(redeemed.status, StatusCode::OK, "{}", redeemed.body);

    // Voided, the invoice may be credited again (to the right customer).
    let voided = void_api(&app, &shop.admin, &redeemed.body["newTransaction"]["id"], json!({})).await;
    assert_eq!(voided.status, StatusCode::OK, "{}", voided.body);
    let voided = void_api(&app, &shop.admin, &json!(first_id), json!({})).await;
    assert_eq!(voided.status, StatusCode::OK, "{}", voided.body);
    let again = accredit(beto, "FV-77").await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn two_tills_crediting_one_invoice_at_once_credit_it_once() {
    let (app, shop) = busy_acme().await;
    let mut customers = Vec::new();
    for n in 0..8 {
        customers.push(add_customer(&app, &shop, &format!("10{n}"), None).await);
    }
    let answers = futures::future::join_all(customers.iter().map(|customer| {
        let app = app.clone();
        let token = shop.admin.clone();
        let customer = *customer;
        async move {
            accredit_with(&app, &token, customer, json!({ "invoiceAmount": 10_000, "invoiceReference": "FV-RACE" }))
                .await
        }
    }))
    .await;
    let ok = answers.iter().filter(|a| a.status == StatusCode::OK).count();
    let refused = answers
        .iter()
        .filter(|a| a.status == StatusCode::CONFLICT && a.code() == "points.invoiceAlreadyCredited")
        .count();
    assert_eq!((ok, refused), (1, 7), "{:?}", answers.iter().map(|a| &a.body).collect::<Vec<_>>());
    assert_eq!(number(&app, &shop, "select count(*) from transactions").await, 1);
    assert_ledger_consistent(&app, &shop).await;
}

#[tokio::test]
async fn the_preview_shows_what_the_accreditation_then_earns_with_its_bonuses() {
    let (app, shop) = acme().await;
    with_every_bonus(&app, &shop).await;
    let customer = add_customer(&app, &shop, "100", Some(born_today())).await;
    let preview = |amount: &'static str| {
        let app = &app;
        let token = shop.admin.clone();
        async move { app.get(&format!("/api/customers/{customer}/accredit-preview?invoiceAmount={amount}"), &token).await }
    };

    let first = preview("100000").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert_eq!(
        first.body,
        json!({ "points": 6_000, "firstPurchaseBonus": 1.5, "birthdayBonus": 2.0, "campaignMultiplier": 2.0 })
    );
    let posted = accredit_api(&app, &shop.admin, customer, 100_000).await;
    assert_eq!(posted.body["newTransaction"]["points"], first.body["points"]);

    let second = preview("100000").await;
    assert_eq!(
        second.body,
        json!({ "points": 4_000, "firstPurchaseBonus": null, "birthdayBonus": 2.0, "campaignMultiplier": 2.0 })
    );
    assert_eq!(accredit_api(&app, &shop.admin, customer, 100_000).await.body["newTransaction"]["points"], 4_000);
    assert_eq!(number(&app, &shop, "select count(*) from transactions").await, 2, "previews post nothing");

    assert_eq!(preview("0").await.code(), "points.invoiceAmountNotPositive");
    assert_eq!(preview("abc").await.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        app.get("/api/customers/999999/accredit-preview?invoiceAmount=1000", &shop.admin).await.status,
        StatusCode::NOT_FOUND
    );
    sql(&app, &shop, "update settings set points_per_peso = 0").await;
    assert_eq!(preview("100000").await.code(), "points.rulesNotSet");
}

#[tokio::test]
async fn every_posting_keeps_the_balance_before_and_after_it() {
    let (app, shop, customer) = acme_with_customer().await;
    with_fifo_after_30_days(&app, &shop).await;
    let clock = Clock::new(&app, &shop).await;
    let start = bogota(2025, 1, 10, 10, 0);

    let earned = clock.accredit(customer, 100_000, start).await.unwrap().new_transaction;
    assert_eq!((earned.balance_before, earned.balance_after), (Some(0), Some(1_000)));
    let spent = clock.redeem(customer, 300, start + Duration::hours(1)).await.unwrap().new_transaction;
    assert_eq!((spent.balance_before, spent.balance_after), (Some(1_000), Some(700)));
    let second = clock.earn(customer, 50_000, start + Duration::days(20)).await;
    let voided = clock.void(second, start + Duration::days(21)).await.unwrap();
    clock.expire(start + Duration::days(31)).await;

    // The report answers what each row kept: accreditation, redemption, accreditation,
    // its cancellation, and the expiration of the first batch's remaining 700.
    let report = app.get("/api/transactions/search?pageSize=10", &shop.admin).await;
    let mut rows: Vec<(i64, i64, i64)> = report.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tx| {
            (
                tx["points"].as_i64().unwrap(),
                tx["balanceBefore"].as_i64().unwrap(),
                tx["balanceAfter"].as_i64().unwrap(),
            )
        })
        .collect();
    rows.reverse();
    assert_eq!(rows, [(1_000, 0, 1_000), (-300, 1_000, 700), (500, 700, 1_200), (-500, 1_200, 700), (-700, 700, 0)]);
    assert!(voided.cancellation_id > second);
    assert_ledger_consistent(&app, &shop).await;
}
