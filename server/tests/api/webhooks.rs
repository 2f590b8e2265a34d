//! Webhooks: signed deliveries to a receiver running in the test, the outbox's transaction,
//! retries, disabling, the address rules, and a server killed mid-delivery.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, StatusCode as AxumStatus};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::Sha256;

use crate::crash::support::{free_port, ServerProcess};
use crate::helpers::{spawn_app, TestApp};
use crate::points::support::{accredit_api, add_staff, redeem_api, shop, sql, Shop};

/// How a receiver answers a request.
#[derive(Clone, Copy, Debug)]
enum Reply {
    Status(u16),
    /// Never answers (until the sender gives up or dies).
    Hang,
}

/// One request the receiver got.
#[derive(Clone, Debug)]
struct Received {
    id: String,
    timestamp: String,
    signature: String,
    content_type: String,
    body: String,
    at: Instant,
}

impl Received {
    fn payload(&self) -> Value {
        serde_json::from_str(&self.body).expect("a JSON body")
    }
}

/// An HTTP server of the test's own, answering as scripted (200 once the script is done).
#[derive(Clone)]
struct Receiver {
    url: String,
    received: Arc<Mutex<Vec<Received>>>,
    script: Arc<Mutex<VecDeque<Reply>>>,
}

impl Receiver {
    async fn start(script: impl IntoIterator<Item = Reply>) -> Receiver {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let receiver = Receiver {
            url: format!("http://{}/hook", listener.local_addr().unwrap()),
            received: Arc::default(),
            script: Arc::new(Mutex::new(script.into_iter().collect())),
        };
        let shared = receiver.clone();
        let routes = axum::Router::new().route(
            "/hook",
            axum::routing::post(move |headers: HeaderMap, body: String| {
                let shared = shared.clone();
                async move {
                    let header =
                        |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
                    shared.received.lock().unwrap().push(Received {
                        id: header("webhook-id"),
                        timestamp: header("webhook-timestamp"),
                        signature: header("webhook-signature"),
                        content_type: header("content-type"),
                        body,
                        at: Instant::now(),
                    });
                    let reply = shared.script.lock().unwrap().pop_front().unwrap_or(Reply::Status(200));
                    match reply {
                        Reply::Status(status) => AxumStatus::from_u16(status).unwrap(),
                        Reply::Hang => {
                            tokio::time::sleep(Duration::from_secs(3600)).await;
                            AxumStatus::OK
                        }
                    }
                }
            }),
        );
        tokio::spawn(async move { axum::serve(listener, routes).await.unwrap() });
        receiver
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// Waits (at most `within`) until `n` requests came; answers them all.
    async fn wait_for(&self, n: usize, within: Duration) -> Vec<Received> {
        let started = Instant::now();
        loop {
            let received = self.received();
            if received.len() >= n {
                return received;
            }
            assert!(started.elapsed() < within, "{n} requests expected, {} came: {received:?}", received.len());
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
}

/// Checks a request's signature as the Standard Webhooks specification says a receiver does.
fn assert_signed(received: &Received, secret: &str) {
    let key = STANDARD.decode(secret.strip_prefix("whsec_").expect("a whsec_ secret")).unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{}.{}.{}", received.id, received.timestamp, received.body).as_bytes());
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    assert!(received.signature.split(' ').any(|s| s == expected), "signature {received:?}");
    let sent_at: i64 = received.timestamp.parse().expect("a timestamp in seconds");
    assert!((chrono::Utc::now().timestamp() - sent_at).abs() < 300, "{received:?}");
}

/// Registers an endpoint as the shop's admin; answers its id and secret.
async fn add_endpoint(app: &TestApp, shop: &Shop, url: &str, events: &[&str]) -> (i64, String) {
    let answer = app.post("/api/webhooks", &shop.admin, json!({ "url": url, "events": events })).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    (answer.body["id"].as_i64().unwrap(), answer.body["secret"].as_str().unwrap().to_string())
}

/// A server with the company `acme`, its delivery workers running.
async fn acme_delivering() -> (TestApp, Shop) {
    let app = spawn_app().await;
    let shop = shop(&app, "acme").await;
    loyalty::webhooks::worker::spawn(app.state.clone());
    (app, shop)
}

/// Creates a customer through the API (as a till does, with its `customer.created` event).
async fn add_customer(app: &TestApp, shop: &Shop, document: &str) -> i64 {
    app.create("/api/customers", &shop.admin, json!({ "name": format!("Cliente {document}"), "document": document }))
        .await
}

async fn deliveries(app: &TestApp, shop: &Shop, endpoint: i64) -> Vec<Value> {
    let answer = app.get(&format!("/api/webhooks/{endpoint}/deliveries"), &shop.admin).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    answer.body.as_array().unwrap().clone()
}

/// Waits (at most 10 s) until the endpoint's newest delivery has `status`; answers the log.
async fn wait_for_status(app: &TestApp, shop: &Shop, endpoint: i64, status: &str) -> Vec<Value> {
    let started = Instant::now();
    loop {
        let log = deliveries(app, shop, endpoint).await;
        if log.first().is_some_and(|d| d["status"] == status) {
            return log;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "no {status} delivery: {log:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn an_accreditation_reaches_the_endpoint_signed_with_the_standard_webhooks_headers() {
    let (app, shop) = acme_delivering().await;
    let receiver = Receiver::start([]).await;
    let (endpoint, secret) = add_endpoint(&app, &shop, &receiver.url, &["points.accredited", "customer.created"]).await;
    assert!(secret.starts_with("whsec_") && STANDARD.decode(&secret[6..]).unwrap().len() >= 24, "{secret}");

    let customer = add_customer(&app, &shop, "100").await;
    let accredited = accredit_api(&app, &shop.admin, customer, 150_000).await;
    assert_eq!(accredited.status, StatusCode::OK, "{}", accredited.body);

    let received = receiver.wait_for(2, Duration::from_secs(10)).await;
    for request in &received {
        assert_signed(request, &secret);
        assert!(request.id.starts_with("msg_"), "{request:?}");
        assert_eq!(request.content_type, "application/json");
    }
    let payloads: Vec<Value> = received.iter().map(Received::payload).collect();
    assert_eq!(payloads[0]["type"], "customer.created");
    assert_eq!(payloads[0]["data"]["id"], customer);
    assert_eq!(payloads[1]["type"], "points.accredited");
    assert!(payloads[1]["timestamp"].as_str().is_some_and(|t| chrono::DateTime::parse_from_rfc3339(t).is_ok()));
    let data = &payloads[1]["data"];
    assert_eq!(data["id"], accredited.body["newTransaction"]["id"]);
    assert_eq!((data["customerId"].as_i64(), data["points"].as_i64()), (Some(customer), Some(1500)));
    assert_eq!(data["balanceAfter"], 1500);

    // The log shows both delivered, with the ids that were sent; the list never shows the secret.
    let log = wait_for_status(&app, &shop, endpoint, "delivered").await;
    assert_eq!(log.len(), 2);
    assert_eq!(log[0]["messageId"].as_str(), Some(received[1].id.as_str()));
    assert!(log.iter().all(|d| d["status"] == "delivered" && d["attempts"] == 1 && d["lastStatus"] == 200), "{log:?}");
    let list = app.get("/api/webhooks", &shop.admin).await;
    assert_eq!(list.body.as_array().unwrap().len(), 1);
    assert!(!list.body.to_string().contains(&secret));

    // An event no endpoint takes is not sent; other roles may not see or change webhooks.
    let redeemed = redeem_api(&app, &shop.admin, customer, 10).await;
    assert_eq!(redeemed.status, StatusCode::OK, "{}", redeemed.body);
    let supervisor = add_staff(&app, &shop, "sup", "supervisor").await;
    assert_eq!(app.get("/api/webhooks", &supervisor).await.status, StatusCode::FORBIDDEN);
    let refused =
        app.post("/api/webhooks", &supervisor, json!({ "url": receiver.url, "events": ["points.redeemed"] })).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.received().len(), 2);
}

#[tokio::test]
async fn a_change_rolled_back_sends_nothing_and_a_committed_one_is_sent() {
    let (app, shop) = acme_delivering().await;
    let receiver = Receiver::start([]).await;
    let (endpoint, _) = add_endpoint(&app, &shop, &receiver.url, &["points.accredited"]).await;
    let customer = add_customer(&app, &shop, "100").await;

    // Refused before anything is written: an invoice of zero pesos.
    let refused = accredit_api(&app, &shop.admin, customer, 0).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    // Refused at commit, after the event was written in the same transaction.
    sql(
        &app,
        &shop,
        "create function refuse_at_commit() returns trigger language plpgsql as \
             $$ begin raise exception 'refused at commit'; end $$; \
         create constraint trigger refuse_at_commit after insert on transactions \
             deferrable initially deferred for each row execute function refuse_at_commit()",
    )
    .await;
    let rolled_back = accredit_api(&app, &shop.admin, customer, 10_000).await;
    assert_eq!(rolled_back.status, StatusCode::INTERNAL_SERVER_ERROR, "{}", rolled_back.body);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(receiver.received().is_empty(), "{:?}", receiver.received());
    assert!(deliveries(&app, &shop, endpoint).await.is_empty());
    assert_eq!(app.count("select count(*) from platform.webhook_pending").await, 0);

    sql(&app, &shop, "drop trigger refuse_at_commit on transactions").await;
    let committed = accredit_api(&app, &shop.admin, customer, 10_000).await;
    assert_eq!(committed.status, StatusCode::OK, "{}", committed.body);
    let received = receiver.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(received[0].payload()["data"]["id"], committed.body["newTransaction"]["id"]);
}

#[tokio::test]
async fn a_failing_endpoint_is_retried_with_growing_waits_until_it_answers() {
    let (app, shop) = acme_delivering().await;
    let receiver = Receiver::start([Reply::Status(500), Reply::Status(503)]).await;
    let (endpoint, secret) = add_endpoint(&app, &shop, &receiver.url, &["customer.created"]).await;
    add_customer(&app, &shop, "100").await;

    let received = receiver.wait_for(3, Duration::from_secs(15)).await;
    assert!(received.iter().all(|r| r.id == received[0].id), "one message, one webhook-id: {received:?}");
    received.iter().for_each(|r| assert_signed(r, &secret));
    // The base wait is 200 ms in the tests, doubled each time.
    let (first, second) = (received[1].at - received[0].at, received[2].at - received[1].at);
    assert!(first >= Duration::from_millis(200), "{first:?}");
    assert!(second >= Duration::from_millis(400), "{second:?}");
    let log = wait_for_status(&app, &shop, endpoint, "delivered").await;
    assert_eq!((log[0]["attempts"].as_i64(), log[0]["lastStatus"].as_i64()), (Some(3), Some(200)));
    let listed = app.get("/api/webhooks", &shop.admin).await;
    assert_eq!(listed.body[0]["consecutiveFailures"], 0);
}

#[tokio::test]
async fn an_endpoint_failing_again_and_again_is_disabled_until_an_admin_enables_it() {
    let (app, shop) = acme_delivering().await;
    let receiver = Receiver::start([Reply::Status(500); 4]).await;
    let (endpoint, _) = add_endpoint(&app, &shop, &receiver.url, &["customer.created"]).await;
    add_customer(&app, &shop, "100").await;

    // Four failures in a row in the tests' configuration.
    receiver.wait_for(4, Duration::from_secs(20)).await;
    let started = Instant::now();
    let disabled = loop {
        let listed = app.get("/api/webhooks", &shop.admin).await;
        if !listed.body[0]["disabledAt"].is_null() {
            break listed.body[0].clone();
        }
        assert!(started.elapsed() < Duration::from_secs(10), "not disabled: {}", listed.body);
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(disabled["consecutiveFailures"], 4);
    // While disabled, new events wait.
    add_customer(&app, &shop, "200").await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(receiver.received().len(), 4);
    assert!(deliveries(&app, &shop, endpoint).await.iter().all(|d| d["status"] == "pending"));

    let enabled = app.post(&format!("/api/webhooks/{endpoint}/enable"), &shop.admin, json!({})).await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.body);
    assert!(enabled.body["disabledAt"].is_null());
    receiver.wait_for(6, Duration::from_secs(10)).await;
    let log = wait_for_status(&app, &shop, endpoint, "delivered").await;
    let started = Instant::now();
    while !deliveries(&app, &shop, endpoint).await.iter().all(|d| d["status"] == "delivered") {
        assert!(started.elapsed() < Duration::from_secs(10), "{log:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // A manual re-send sends the same message again.
    let first = deliveries(&app, &shop, endpoint).await.last().unwrap().clone();
    let path = format!("/api/webhooks/{endpoint}/deliveries/{}/resend", first["id"]);
    let resent = app.post(&path, &shop.admin, json!({})).await;
    assert_eq!(resent.status, StatusCode::OK, "{}", resent.body);
    let received = receiver.wait_for(7, Duration::from_secs(10)).await;
    assert_eq!(received[6].id, first["messageId"].as_str().unwrap());
    let missing = app.post(&format!("/api/webhooks/{endpoint}/deliveries/999999/resend"), &shop.admin, json!({})).await;
    missing.assert_error(StatusCode::NOT_FOUND, "webhook delivery not found");
}

#[tokio::test]
async fn addresses_must_be_https_and_public_unless_the_operator_allows_private_ones() {
    let app = spawn_app().await;
    let shop = shop(&app, "acme").await;
    // The binary as deployed, without WEBHOOK_ALLOW_PRIVATE, on the same database.
    let server = ServerProcess::start("webhooks-strict", &app.db_url, free_port(), &[]).await;
    let http = reqwest::Client::new();
    let post = |body: Value, lang: &'static str| {
        http.post(format!("{}/api/webhooks", server.base))
            .bearer_auth(&shop.admin)
            .header("accept-language", lang)
            .json(&body)
            .send()
    };
    for (url, message) in [
        ("http://hooks.example.com/loyalty", "the webhook address must use https"),
        ("https://127.0.0.1:9000/hook", "the webhook address cannot be a private, local or loopback address"),
        ("https://localhost/hook", "the webhook address cannot be a private, local or loopback address"),
        ("https://10.0.0.7/hook", "the webhook address cannot be a private, local or loopback address"),
        ("https://[::1]/hook", "the webhook address cannot be a private, local or loopback address"),
        ("not an address", "the webhook address must be a valid https URL of at most 2000 characters"),
    ] {
        let answer = post(json!({ "url": url, "events": ["points.accredited"] }), "en").await.unwrap();
        assert_eq!(answer.status(), StatusCode::BAD_REQUEST, "{url}");
        let body: Value = answer.json().await.unwrap();
        assert_eq!(body["message"], message, "{url}");
    }
    let spanish = post(json!({ "url": "http://127.0.0.1/x", "events": ["points.accredited"] }), "es").await.unwrap();
    let body: Value = spanish.json().await.unwrap();
    assert_eq!(body["message"], "La dirección del webhook debe usar https.");
    for (body, message) in [
        (json!({ "url": "https://hooks.example.com/x", "events": [] }), "choose at least one event for the webhook"),
        (
            json!({ "url": "https://hooks.example.com/x", "events": ["points.gone"] }),
            "unknown webhook event: points.gone",
        ),
        (
            json!({ "url": "https://hooks.example.com/x", "events": ["points.expiring"], "expiringDays": 0 }),
            "the days of notice before expiry must be between 1 and 90",
        ),
    ] {
        let answer = post(body.clone(), "en").await.unwrap();
        assert_eq!(answer.status(), StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(answer.json::<Value>().await.unwrap()["message"], message, "{body}");
    }
    assert_eq!(app.count("select count(*) from tenant_acme.webhook_endpoints").await, 0, "nothing saved");
    let public = post(json!({ "url": "https://hooks.example.com/loyalty", "events": ["points.accredited"] }), "en");
    assert_eq!(public.await.unwrap().status(), StatusCode::CREATED);

    // With WEBHOOK_ALLOW_PRIVATE (the in-process server of the tests), http and loopback pass.
    add_endpoint(&app, &shop, "http://127.0.0.1:9/hook", &["points.accredited"]).await;
}

#[tokio::test]
async fn a_server_killed_mid_delivery_delivers_after_restart_with_the_same_webhook_id() {
    let app = spawn_app().await;
    let shop = shop(&app, "acme").await;
    let receiver = Receiver::start([Reply::Hang]).await;
    let (endpoint, secret) = add_endpoint(&app, &shop, &receiver.url, &["points.accredited"]).await;
    let customer = add_customer(&app, &shop, "100").await;
    let env = [("WEBHOOK_ALLOW_PRIVATE", "true"), ("WEBHOOK_POLL_MS", "50")];
    let mut first = ServerProcess::start("webhooks-first", &app.db_url, free_port(), &env).await;

    let accredited = accredit_api(&app, &shop.admin, customer, 20_000).await;
    assert_eq!(accredited.status, StatusCode::OK, "{}", accredited.body);
    // The first process is sending it, and the receiver holds the request: kill -9.
    let hung = receiver.wait_for(1, Duration::from_secs(15)).await;
    first.kill_9();
    assert_eq!(deliveries(&app, &shop, endpoint).await[0]["status"], "pending");

    let _second = ServerProcess::start("webhooks-second", &app.db_url, free_port(), &env).await;
    let received = receiver.wait_for(2, Duration::from_secs(15)).await;
    assert_eq!(received[1].id, hung[0].id, "the same webhook-id after the restart");
    assert_signed(&received[1], &secret);
    assert_eq!(received[1].payload()["data"]["id"], accredited.body["newTransaction"]["id"]);
    let log = wait_for_status(&app, &shop, endpoint, "delivered").await;
    assert_eq!(log.len(), 1);
}
