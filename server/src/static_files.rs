//! The built client as the browser gets it, and how every answer is compressed and cached
//! (docs/performance.md, "Serving the client").
//!
//! - Files are sent compressed as the build left them (`.br`, `.gz` beside each file, made by
//!   the client's Vite build), in the encoding the request accepts; a file without one, and any
//!   other answer of more than [`COMPRESS_ABOVE`] bytes, is compressed on the way out.
//! - `/assets/` holds only files whose names carry a hash of their content (Vite's output), so
//!   they are cached for a year without asking again. A missing asset is a 404, never
//!   `index.html`.
//! - Everything else the client is made of (`index.html`, which every path without a file of its
//!   own answers, and root files such as `favicon.svg` or a service worker) is `no-cache`: the
//!   browser may keep it but asks whether it changed before each use, so a release is seen on the
//!   next load.
//! - API answers are `no-store`: they hold a company's data and change with every sale.

use std::path::Path;

use axum::http::{header, HeaderValue, Response, StatusCode};
use axum::Router;
use tower::ServiceBuilder;
use tower_http::compression::predicate::{DefaultPredicate, Predicate, SizeAbove};
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// Folder of the build whose file names carry a hash of their content.
pub const HASHED_DIR: &str = "assets";

/// Cache policy of a hashed asset: a year, and never revalidated.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Cache policy of the client's other files: kept, but revalidated before each use.
pub const REVALIDATE: &str = "no-cache";

/// Cache policy of API answers: never kept.
pub const NO_STORE: &str = "no-store";

/// Answers up to this size go out as they are: with their headers they fit in one TCP segment
/// either way, so compressing them would cost CPU and save no round trip.
pub const COMPRESS_ABOVE: u64 = 1024;

/// The built client in `dir`, with its cache policy; every path without a file answers
/// `index.html` so that the app's own routes load it.
pub fn client(dir: &Path) -> Router {
    let index = ServeFile::new(dir.join("index.html")).precompressed_br().precompressed_gzip();
    let files = ServeDir::new(dir).precompressed_br().precompressed_gzip().fallback(index);
    let hashed = ServeDir::new(dir.join(HASHED_DIR)).precompressed_br().precompressed_gzip();
    Router::new()
        .nest_service(
            &format!("/{HASHED_DIR}"),
            ServiceBuilder::new()
                .layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, hashed_cache_control))
                .service(hashed),
        )
        .fallback_service(
            ServiceBuilder::new()
                .layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE)))
                .service(files),
        )
}

/// A hashed file found (or found unchanged) is immutable; a miss is asked for again.
fn hashed_cache_control<B>(res: &Response<B>) -> Option<HeaderValue> {
    let found = res.status().is_success() || res.status() == StatusCode::NOT_MODIFIED;
    Some(HeaderValue::from_static(if found { IMMUTABLE } else { REVALIDATE }))
}

/// `Cache-Control: no-store` on every answer that does not set its own.
pub fn no_store() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(header::CACHE_CONTROL, HeaderValue::from_static(NO_STORE))
}

/// Brotli or gzip, as the request accepts (brotli first), for answers above [`COMPRESS_ABOVE`]
/// bytes that are not compressed already; not for images other than SVG, nor event streams.
pub fn compression() -> CompressionLayer<impl Predicate> {
    CompressionLayer::new()
        .no_deflate()
        .no_zstd()
        .compress_when(DefaultPredicate::new().and(SizeAbove::new(COMPRESS_ABOVE)))
}
