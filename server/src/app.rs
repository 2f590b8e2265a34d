//! The HTTP application, on top of every area: the router of every area with its OpenAPI
//! document, the layers (request logging, security headers, errors' language), health checks,
//! and the built client (`static_files`).

use std::path::Path as FsPath;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, MatchedPath, State};
use axum::http::{header, HeaderName, HeaderValue, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;
use tracing::{field::Empty, Span};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::auth;
use crate::error::{AppError, Msg};
use crate::state::AppState;
use crate::{platform, tenant};

/// Largest request body the API reads.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

#[derive(OpenApi)]
#[openapi(
    info(title = "Loyalty API", description = "Multi-company loyalty points: platform, company administration and points."),
    components(schemas(crate::error::ErrorMessage)),
    modifiers(&BearerAuth)
)]
struct ApiDoc;

struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let mut scheme = Http::new(HttpAuthScheme::Bearer);
        scheme.bearer_format = Some("JWT".into());
        components.add_security_scheme("bearer", SecurityScheme::Http(scheme));
        // The POS API's: a point of sale's API key, `lk_<prefix>_<secret>` (docs/integration.md).
        let mut key = Http::new(HttpAuthScheme::Bearer);
        key.bearer_format = Some("lk_<prefix>_<secret>".into());
        components.add_security_scheme("apiKey", SecurityScheme::Http(key));
    }
}

/// Every API route with its OpenAPI description, from the handlers' own annotations.
pub fn api() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(auth::router())
        .merge(platform::router())
        .merge(tenant::router())
        .merge(crate::points::router())
        .merge(crate::audit::router())
        .merge(crate::pos_api::router())
        .merge(crate::webhooks::router())
        .split_for_parts()
}

/// The OpenAPI document as served at `/api/openapi.json` (paths under `/api`).
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = api();
    doc.paths.paths =
        std::mem::take(&mut doc.paths.paths).into_iter().map(|(path, item)| (format!("/api{path}"), item)).collect();
    unique_operation_ids(&mut doc);
    doc
}

/// utoipa names each operation after its handler function, so the areas' `list`, `create`,
/// `remove`... share ids, which OpenAPI forbids and code generators trip on. A repeated id takes
/// its tag in front (`categories_list`); a unique one stays as it is.
fn unique_operation_ids(doc: &mut utoipa::openapi::OpenApi) {
    let mut operations: Vec<&mut utoipa::openapi::path::Operation> = doc
        .paths
        .paths
        .values_mut()
        .flat_map(|item| {
            [&mut item.get, &mut item.put, &mut item.post, &mut item.delete, &mut item.patch].into_iter().flatten()
        })
        .collect();
    let mut count = std::collections::HashMap::<String, usize>::new();
    for operation in &operations {
        *count.entry(operation.operation_id.clone().unwrap_or_default()).or_default() += 1;
    }
    for operation in &mut operations {
        let Some(id) = operation.operation_id.as_ref().filter(|id| count[id.as_str()] > 1) else { continue };
        let tag = operation.tags.as_ref().and_then(|tags| tags.first()).map_or("api", String::as_str);
        operation.operation_id = Some(format!("{tag}_{id}"));
    }
}

fn api_router() -> Router<AppState> {
    let doc = openapi();
    let (routes, _) = api();
    routes
        .route("/openapi.json", get(move || async move { axum::Json(doc) }))
        .fallback(|| async { AppError::not_found(Msg::NoSuchEndpoint) })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(crate::static_files::no_store())
}

/// What the browser may load and from where: the app's own origin for scripts, styles, fonts
/// and API calls; images also from https (product images and company logos live elsewhere);
/// never framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; \
    connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// The whole application, as `loyalty serve` and the tests run it.
pub fn app(state: AppState) -> Router {
    let client = crate::static_files::client(&state.config.client_dir);
    let routes = Router::new()
        .nest("/api", api_router())
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(crate::metrics::serve_metrics))
        .fallback_service(client)
        .route_layer(axum::middleware::from_fn(label_route))
        .with_state(state);
    with_layers(routes)
}

/// The layers every answer passes through: request logging, security headers, a panic's JSON
/// 500, the error answers' language, compression, the request id.
fn with_layers(routes: Router) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    routes
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &Request<_>| {
                    let path = req
                        .extensions()
                        .get::<MatchedPath>()
                        .map(|p| p.as_str().to_owned())
                        .unwrap_or_else(|| req.uri().path().to_owned());
                    let id = req
                        .extensions()
                        .get::<RequestId>()
                        .and_then(|id| id.header_value().to_str().ok())
                        .unwrap_or("-")
                        .to_owned();
                    tracing::info_span!("request", method = %req.method(), path, request_id = id, tenant = Empty, user = Empty)
                })
                .on_request(())
                .on_response(|res: &Response, latency: Duration, _span: &Span| {
                    let status = res.status().as_u16();
                    if let Some(route) = res.extensions().get::<RouteLabel>() {
                        crate::metrics::record_request(route.method.as_str(), &route.path, status, latency);
                    }
                    let latency_ms = latency.as_secs_f64() * 1000.0;
                    if res.status().is_server_error() {
                        tracing::error!(status, latency_ms, "request finished");
                    } else {
                        tracing::info!(status, latency_ms, "request finished");
                    }
                })
                .on_failure(()),
        )
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        ))
        // Inside the localization, so that a panic's 500 is written in the caller's language.
        .layer(CatchPanicLayer::custom(crate::error::panic_response))
        .layer(axum::middleware::from_fn(crate::error::localize))
        // Outside the localization, which rewrites error bodies (static_files.rs).
        .layer(crate::static_files::compression())
        .layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(SetRequestIdLayer::new(request_id, MakeRequestUuid))
}

/// The method and matched route of a request, carried to the response for the metrics.
#[derive(Clone)]
struct RouteLabel {
    method: axum::http::Method,
    path: String,
}

async fn label_route(req: Request<axum::body::Body>, next: axum::middleware::Next) -> Response {
    let label = RouteLabel {
        method: req.method().clone(),
        path: req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_owned()).unwrap_or_else(|| {
            if req.uri().path().starts_with("/api/") {
                "/api/unknown".into()
            } else {
                "client".into()
            }
        }),
    };
    let mut res = next.run(req).await;
    res.extensions_mut().insert(label);
    res
}

async fn healthz() -> &'static str {
    "ok"
}

async fn readyz(State(state): State<AppState>) -> Response {
    let ready = async {
        let conn = state.pool.get().await.ok()?;
        crate::db::ping(&conn).await.ok()
    };
    match tokio::time::timeout(Duration::from_secs(3), ready).await {
        Ok(Some(_)) => (StatusCode::OK, "ready").into_response(),
        _ => (StatusCode::SERVICE_UNAVAILABLE, "database unreachable").into_response(),
    }
}

/// Checks that the client folder holds a build, for a clear start-up warning.
pub fn client_is_built(dir: &FsPath) -> bool {
    dir.join("index.html").is_file()
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use tower::ServiceExt;

    use super::*;

    #[test]
    fn every_operation_has_an_id_of_its_own() {
        let doc = serde_json::to_value(openapi()).unwrap();
        let mut ids: Vec<&str> = doc["paths"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|item| item.as_object().unwrap().values())
            .filter_map(|operation| operation["operationId"].as_str())
            .collect();
        let total = ids.len();
        assert!(total > 40, "the document lists the API's operations ({total})");
        assert!(ids.contains(&"categories_list") && ids.contains(&"login"), "{ids:?}");
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), total, "operation ids repeat");
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_the_json_500_in_the_callers_language() {
        let routes = Router::new().route("/api/boom", get(|| async { panic!("boom") as &'static str }));
        for (lang, message) in
            [("es", "Error interno del servidor; intente de nuevo."), ("en", "internal server error, please try again")]
        {
            let request = Request::get("/api/boom").header(header::ACCEPT_LANGUAGE, lang).body(Body::empty()).unwrap();
            let response = with_layers(routes.clone()).oneshot(request).await.unwrap();
            assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
            assert!(response.headers().contains_key("x-request-id"));
            let body = axum::body::to_bytes(response.into_body(), 4096).await.unwrap();
            let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(body, serde_json::json!({ "message": message, "code": "server.internal" }));
        }
    }
}
