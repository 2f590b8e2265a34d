//! Test data for the points engine (inserted with SQL until the customers and products API
//! lands), the engine's operations with a clock of the test's own, and the ledger's invariants.

use std::future::Future;
use std::sync::Arc;

use chrono::{DateTime, Datelike, NaiveDate, TimeZone, Utc};
use chrono_tz::America::Bogota;
use loyalty::db::TenantTx;
use loyalty::domain::{Prefix, Role};
use loyalty::points::accredit::{self, Accreditation};
use loyalty::points::expiration::{self, Expired, Trigger};
use loyalty::points::redeem::{self, Redemption, Reward};
use loyalty::points::returns::{self, Return, ReturnRequest};
use loyalty::points::rules::{InvoiceAmount, Points};
use loyalty::points::void::{self, Voided};
use loyalty::points::{store, Posting};
use loyalty::session::CurrentUser;
use loyalty::AppResult;
use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_with_pool, Answer, TestApp};

pub const STAFF_PASSWORD: &str = "staff-pass-1";

/// A company with its admin's token.
pub struct Shop {
    pub prefix: String,
    pub admin: String,
}

impl Shop {
    pub fn schema(&self) -> String {
        format!("tenant_{}", self.prefix)
    }
}

/// Creates a company earning 1 point per 100 COP (`pointsPerPeso` 0.01) and valuing a point
/// at 1 COP (`redemptionRate` 1).
pub async fn shop(app: &TestApp, prefix: &str) -> Shop {
    let (_, admin) = app.create_company(prefix).await;
    let shop = Shop { prefix: prefix.to_string(), admin };
    sql(app, &shop, "update settings set points_per_peso = 0.01, redemption_rate = 1").await;
    shop
}

/// A server of its own with the company `acme` (see [`shop`]).
pub async fn acme() -> (TestApp, Shop) {
    acme_on(spawn_app().await).await
}

/// The company `acme` (see [`shop`]) on `app`.
async fn acme_on(app: TestApp) -> (TestApp, Shop) {
    let shop = shop(&app, "acme").await;
    (app, shop)
}

/// A server of its own with the company `acme` (see [`shop`]) and one customer, document `100`.
pub async fn acme_with_customer() -> (TestApp, Shop, i64) {
    let (app, shop) = acme().await;
    let customer = add_customer(&app, &shop, "100", None).await;
    (app, shop, customer)
}

/// [`acme`] on a server with room for concurrent requests (12 connections), to share among the
/// tasks that send them.
pub async fn busy_acme() -> (Arc<TestApp>, Shop) {
    let (app, shop) = acme_on(spawn_app_with_pool(12).await).await;
    (Arc::new(app), shop)
}

/// [`acme_with_customer`] on a server with room for concurrent requests (see [`busy_acme`]).
pub async fn busy_acme_with_customer() -> (Arc<TestApp>, Shop, i64) {
    let (app, shop) = busy_acme().await;
    let customer = add_customer(&app, &shop, "100", None).await;
    (app, shop, customer)
}

/// Sends `times` requests at once, each from a task of its own with the server and `token`;
/// answers what each request answered.
pub async fn at_once<T, F, Fut>(app: &Arc<TestApp>, token: &str, times: usize, request: F) -> Vec<T>
where
    F: Fn(Arc<TestApp>, String) -> Fut,
    Fut: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let tasks = (0..times).map(|_| tokio::spawn(request(app.clone(), token.to_string())));
    futures::future::join_all(tasks).await.into_iter().map(Result::unwrap).collect()
}

/// The sale a cajero asks to void: the company `acme` with a supervisor, the cajero `caja1` and
/// a customer the cajero credited 10,000 COP (100 points).
pub struct CajeroSale {
    pub app: TestApp,
    pub shop: Shop,
    /// The supervisor's token.
    pub supervisor: String,
    /// The cajero's token.
    pub cajero: String,
    pub customer: i64,
    /// The accreditation's id.
    pub sale: Value,
}

/// A [`CajeroSale`] whose supervisor is `supervisor`.
pub async fn cajero_sale(supervisor: &str) -> CajeroSale {
    let (app, shop, customer) = acme_with_customer().await;
    let supervisor = add_staff(&app, &shop, supervisor, "supervisor").await;
    let cajero = add_staff(&app, &shop, "caja1", "cajero").await;
    let sale = accredited(&app, &cajero, customer, 10_000).await;
    CajeroSale { app, shop, supervisor, cajero, customer, sale }
}

/// Earning with every bonus: 0.01 points per peso, a campaign x2, first purchase x1.5 and
/// birthday x2.
pub async fn with_every_bonus(app: &TestApp, shop: &Shop) {
    sql(
        app,
        shop,
        "update settings set points_per_peso = 0.01, campaign_multiplier = 2, \
         enable_first_purchase_bonus = true, first_purchase_bonus_multiplier = 1.5, \
         enable_birthday_bonus = true, birthday_bonus_multiplier = 2",
    )
    .await;
}

/// A first purchase earns double.
pub async fn with_first_purchase_doubled(app: &TestApp, shop: &Shop) {
    sql(app, shop, "update settings set enable_first_purchase_bonus = true, first_purchase_bonus_multiplier = 2").await;
}

/// Points expire 30 days after they were earned (`fifo`).
pub async fn with_fifo_after_30_days(app: &TestApp, shop: &Shop) {
    sql(app, shop, "update settings set expiration_policy = 'fifo', points_expiration_days = 30").await;
}

/// A birthdate whose birthday is today in Bogotá (in 1992, a leap year, so any day of the year
/// is one of its dates).
pub fn born_today() -> NaiveDate {
    let today = Utc::now().with_timezone(&Bogota).date_naive();
    NaiveDate::from_ymd_opt(1992, today.month(), today.day()).unwrap()
}

/// Runs statements inside the company's schema.
pub async fn sql(app: &TestApp, shop: &Shop, statements: &str) {
    let db = app.db().await;
    db.batch_execute(&format!("set search_path to {}; {statements}", shop.schema())).await.expect(statements);
}

/// One number from a query inside the company's schema.
pub async fn number(app: &TestApp, shop: &Shop, query: &str) -> i64 {
    let db = app.db().await;
    db.batch_execute(&format!("set search_path to {}", shop.schema())).await.unwrap();
    db.query_one(query, &[]).await.expect(query).get(0)
}

pub async fn add_customer(app: &TestApp, shop: &Shop, document: &str, birthdate: Option<NaiveDate>) -> i64 {
    let db = app.db().await;
    db.batch_execute(&format!("set search_path to {}", shop.schema())).await.unwrap();
    db.query_one(
        "insert into customers (document, name, email, birthdate) values ($1, $2, $3, $4) returning id",
        &[&document, &format!("Cliente {document}"), &format!("c{document}@example.com"), &birthdate],
    )
    .await
    .unwrap()
    .get(0)
}

/// Adds a customer without birthdate for each document; answers their ids in the same order.
pub async fn add_customers<const N: usize>(app: &TestApp, shop: &Shop, documents: [&str; N]) -> [i64; N] {
    let mut ids = [0; N];
    for (id, document) in ids.iter_mut().zip(documents) {
        *id = add_customer(app, shop, document, None).await;
    }
    ids
}

pub async fn add_product(app: &TestApp, shop: &Shop, code: &str, points: i64, price: i64, active: bool) -> i64 {
    let db = app.db().await;
    db.batch_execute(&format!("set search_path to {}", shop.schema())).await.unwrap();
    db.query_one(
        "insert into products (code, name, points_value, price, is_active) values ($1, $2, $3, $4, $5) returning id",
        &[&code, &format!("Producto {code}"), &points, &price, &active],
    )
    .await
    .unwrap()
    .get(0)
}

/// Adds a supervisor or cajero (at a point of sale of its own name) and answers its token.
pub async fn add_staff(app: &TestApp, shop: &Shop, username: &str, role: &str) -> String {
    let hash = loyalty::session::hash_password(STAFF_PASSWORD.into()).await.unwrap();
    let db = app.db().await;
    db.batch_execute(&format!("set search_path to {}", shop.schema())).await.unwrap();
    db.execute(
        "with pos as (insert into points_of_sale (name) values ($4) returning id) \
         insert into users (username, password_hash, role, pos_id) select $1, $2, $3, id from pos",
        &[&username, &hash, &role, &format!("Caja {username}")],
    )
    .await
    .unwrap();
    app.login_ok(&format!("{username}@{}", shop.prefix), STAFF_PASSWORD).await
}

pub async fn balance(app: &TestApp, shop: &Shop, customer: i64) -> i64 {
    number(app, shop, &format!("select points from customers where id = {customer}")).await
}

/// Remaining points of a customer's batches, oldest first.
pub async fn batches(app: &TestApp, shop: &Shop, customer: i64) -> Vec<i64> {
    let db = app.db().await;
    db.batch_execute(&format!("set search_path to {}", shop.schema())).await.unwrap();
    db.query("select remaining from point_batches where customer_id = $1 order by earned_at, id", &[&customer])
        .await
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect()
}

/// Accredits through the API with the request's body as given.
pub async fn accredit_with(app: &TestApp, token: &str, customer: i64, body: Value) -> Answer {
    app.post(&format!("/api/customers/{customer}/accredit"), token, body).await
}

/// Accredits through the API, with an invoice reference no other accreditation of the test has.
pub async fn accredit_api(app: &TestApp, token: &str, customer: i64, amount: i64) -> Answer {
    static INVOICES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let reference = format!("F-{}", INVOICES.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    accredit_with(app, token, customer, json!({ "invoiceAmount": amount, "invoiceReference": reference })).await
}

/// Accredits through the API (as [`accredit_api`]) and answers the new transaction's id as the
/// answer holds it.
pub async fn accredited(app: &TestApp, token: &str, customer: i64, amount: i64) -> Value {
    accredit_api(app, token, customer, amount).await.body["newTransaction"]["id"].clone()
}

/// Redeems through the API with the request's body as given.
pub async fn redeem_with(app: &TestApp, token: &str, customer: i64, body: Value) -> Answer {
    app.post(&format!("/api/customers/{customer}/redeem"), token, body).await
}

pub async fn redeem_api(app: &TestApp, token: &str, customer: i64, points: i64) -> Answer {
    redeem_with(
        app,
        token,
        customer,
        json!({ "pointsToRedeem": points, "description": "", "invoiceReference": "", "productId": null }),
    )
    .await
}

/// Returns part of an accreditation's invoice through the API.
pub async fn return_api(app: &TestApp, token: &str, transaction: &Value, body: Value) -> Answer {
    app.post(&format!("/api/transactions/{transaction}/return"), token, body).await
}

/// Voids a transaction through the API.
pub async fn void_api(app: &TestApp, token: &str, transaction: &Value, body: Value) -> Answer {
    app.post(&format!("/api/transactions/{transaction}/void"), token, body).await
}

/// A POST with an `Idempotency-Key` header.
pub async fn post_with_key(
    app: &TestApp,
    path: &str,
    token: &str,
    key: &str,
    body: serde_json::Value,
) -> (reqwest::StatusCode, serde_json::Value, bool) {
    let res = app
        .http
        .post(format!("{}{path}", app.address))
        .bearer_auth(token)
        .header("Idempotency-Key", key)
        .json(&body)
        .send()
        .await
        .expect("request");
    let status = res.status();
    let replayed = res.headers().get("idempotent-replayed").is_some();
    let body = res.json().await.unwrap_or(serde_json::Value::Null);
    (status, body, replayed)
}

/// A moment in Bogotá.
pub fn bogota(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
    Bogota.with_ymd_and_hms(y, m, d, h, min, 0).unwrap().with_timezone(&Utc)
}

pub fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

/// The engine's operations called directly, each in its own committed transaction, at a time
/// the test chooses.
pub struct Clock<'a> {
    pub app: &'a TestApp,
    pub prefix: Prefix,
    pub user: CurrentUser,
}

impl<'a> Clock<'a> {
    /// Acting as the company's admin.
    pub async fn new(app: &'a TestApp, shop: &Shop) -> Clock<'a> {
        let id = number(app, shop, "select id from users where username = 'admin'").await;
        let user = CurrentUser {
            id,
            username: "admin".into(),
            role: Role::Admin,
            pos_id: None,
            pos_name: None,
            impersonated_by: None,
            api_key_id: None,
        };
        Clock { app, prefix: Prefix::parse(&shop.prefix).unwrap(), user }
    }

    async fn begin(&self) -> TenantTx {
        TenantTx::begin(&self.app.state.pool, &self.prefix).await.unwrap()
    }

    pub async fn accredit(&self, customer: i64, amount: i64, at: DateTime<Utc>) -> AppResult<Posting> {
        let tx = self.begin().await;
        let input = Accreditation { amount: InvoiceAmount::parse(Some(&json!(amount)))?, invoice_reference: None };
        let posting = accredit::accredit(&tx, &self.user, customer, &input, at).await?;
        tx.commit().await?;
        Ok(posting)
    }

    /// Accredits and answers the new transaction's id.
    pub async fn earn(&self, customer: i64, amount: i64, at: DateTime<Utc>) -> i64 {
        self.accredit(customer, amount, at).await.expect("accredit").new_transaction.id
    }

    pub async fn redeem(&self, customer: i64, points: i64, at: DateTime<Utc>) -> AppResult<Posting> {
        let tx = self.begin().await;
        let input = Redemption {
            reward: Reward::Points(Points::new(points).expect("points >= 1")),
            description: None,
            invoice_reference: None,
        };
        let posting = redeem::redeem(&tx, &self.user, customer, &input, at).await?;
        tx.commit().await?;
        Ok(posting)
    }

    /// Redeems and answers the new transaction's id.
    pub async fn spend(&self, customer: i64, points: i64, at: DateTime<Utc>) -> i64 {
        self.redeem(customer, points, at).await.expect("redeem").new_transaction.id
    }

    pub async fn void(&self, transaction: i64, at: DateTime<Utc>) -> AppResult<Voided> {
        let tx = self.begin().await;
        let voided = void::void(&tx, &self.user, transaction, None, at).await?;
        tx.commit().await?;
        Ok(voided)
    }

    /// Returns `amount` pesos of accreditation `transaction` at `at`; answers the return's id.
    pub async fn give_back(&self, transaction: i64, amount: i64, at: DateTime<Utc>) -> i64 {
        let tx = self.begin().await;
        let request = ReturnRequest {
            returned_amount: Some(json!(amount)),
            invoice_reference: None,
            supervisor_username: None,
            supervisor_password: None,
        };
        let input = Return::parse(&request).expect("a valid return");
        let returned = returns::give_back(&tx, &self.user, transaction, &input, None, at).await.expect("return");
        tx.commit().await.unwrap();
        returned.posting.new_transaction.id
    }

    /// Runs the company's policy as the admin's button does, at `at`.
    pub async fn expire(&self, at: DateTime<Utc>) -> Expired {
        let tx = self.begin().await;
        store::lock_expiration(&tx, true).await.unwrap();
        let settings = loyalty::tenant::settings::load(&tx).await.unwrap();
        let expired = expiration::run(&tx, &settings, Trigger::Manual, "admin", at).await.expect("expire");
        tx.commit().await.unwrap();
        expired
    }
}

/// Every customer's balance equals the sum of its ledger and of its batches' remaining points;
/// every batch holds its points less what non-voided transactions took from it; nothing is
/// negative; every voided transaction has exactly one cancellation of the opposite points.
pub async fn assert_ledger_consistent(app: &TestApp, shop: &Shop) {
    assert_ledger_consistent_in(&app.db().await, &shop.schema()).await;
}

/// [`assert_ledger_consistent`] for one company's schema, through any superuser connection.
pub async fn assert_ledger_consistent_in(db: &tokio_postgres::Client, schema: &str) {
    db.batch_execute(&format!("set search_path to {schema}")).await.unwrap();
    let customers = db
        .query(
            "select c.id, c.points, \
               (select coalesce(sum(t.points), 0) from transactions t where t.customer_id = c.id)::bigint as ledger, \
               (select coalesce(sum(b.remaining), 0) from point_batches b where b.customer_id = c.id)::bigint as batches \
             from customers c order by c.id",
            &[],
        )
        .await
        .unwrap();
    // A balance goes below zero only by a return of spent points under the rule `negative`;
    // the batches then hold nothing.
    let negative_allowed: bool =
        db.query_one("select return_of_spent_points = 'negative' from settings", &[]).await.unwrap().get(0);
    for row in &customers {
        let (id, points, ledger, batches): (i64, i64, i64, i64) = (row.get(0), row.get(1), row.get(2), row.get(3));
        assert!(points >= 0 || negative_allowed, "customer {id} has a negative balance {points}");
        assert_eq!(points, ledger, "customer {id}: balance {points} != ledger {ledger}");
        assert_eq!(points.max(0), batches, "customer {id}: balance {points} != batches {batches}");
    }
    // Each query counts the rows that break one invariant.
    for (breaking, invariant) in [
        (
            "select count(*) from point_batches b where b.remaining < 0 or b.remaining > b.points \
               or b.remaining <> b.points - (select coalesce(sum(m.points), 0) from batch_movements m \
                   join transactions t on t.id = m.transaction_id where m.batch_id = b.id and not t.is_voided)",
            "batches whose remaining points disagree with their movements",
        ),
        (
            "select count(*) from transactions o where o.is_voided and o.voided_by is not null and not exists \
               (select 1 from transactions c where c.original_transaction_id = o.id and c.type = 'cancellation' \
                and c.points = -o.points - (select coalesce(sum(r.points), 0) from transactions r \
                    where r.original_transaction_id = o.id and r.type = 'return')) \
             or (not o.is_voided and exists (select 1 from transactions c where c.original_transaction_id = o.id \
                 and c.type = 'cancellation'))",
            "voided transactions without their cancellation (of what returns left), or cancellations of live ones",
        ),
        (
            "select count(*) from transactions a where a.type = 'accreditation' and (select coalesce(-sum(r.points), 0) \
               from transactions r where r.original_transaction_id = a.id and r.type = 'return') > a.points \
             or (select coalesce(sum(r.invoice_amount), 0) from transactions r \
               where r.original_transaction_id = a.id and r.type = 'return') > a.invoice_amount",
            "accreditations whose returns reversed more points or pesos than they had",
        ),
        (
            "select count(*) from transactions t where t.type in ('expiration', 'cancellation', 'return') and t.is_voided",
            "expiration, cancellation or return rows voided",
        ),
    ] {
        let rows: i64 = db.query_one(breaking, &[]).await.unwrap().get(0);
        assert_eq!(rows, 0, "{invariant}");
    }
}
