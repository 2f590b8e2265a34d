//! How the built client and the API's answers go over the wire: encodings and cache policy
//! (server/src/static_files.rs).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use reqwest::header::{ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_LENGTH, ETAG, IF_NONE_MATCH, VARY};
use reqwest::StatusCode;

use crate::helpers::{spawn_app_serving, TestApp};

/// What Chromium asks for.
const BROWSER: &str = "gzip, deflate, br, zstd";
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

const APP_JS: &str = "/assets/index-Bx7Kq2Lm.js";
const CHART_JS: &str = "/assets/PointsChart-Df3aQ9Zw.js";

/// A client build as Vite leaves it: hashed files under `assets/`, each text file also as `.br`
/// and `.gz` beside it (the chart without them here, as if the build had skipped it), and
/// non-hashed files at the root. Removed when dropped.
struct ClientBuild {
    dir: PathBuf,
}

impl ClientBuild {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("loyalty-client-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(dir.join("assets")).unwrap();
        let build = ClientBuild { dir };
        let index = format!(
            "<!doctype html><html lang=\"es\"><head><script type=\"module\" src=\"{APP_JS}\"></script></head>\
             <body><div id=\"root\"></div></body></html>"
        );
        build.write_compressed("index.html", &index);
        build.write_compressed(&APP_JS[1..], &script("app", 400));
        build.write(&CHART_JS[1..], &script("chart", 400));
        build.write_compressed("sw.js", &script("worker", 100));
        build.write("favicon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
        build
    }

    fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file.trim_start_matches('/'))
    }

    fn read(&self, file: &str) -> Vec<u8> {
        std::fs::read(self.path(file)).unwrap()
    }

    fn write(&self, file: &str, text: &str) {
        std::fs::write(self.path(file), text).unwrap();
    }

    /// The file, its gzip (level 9) and its brotli (quality 11), as the client's build makes them.
    fn write_compressed(&self, file: &str, text: &str) {
        self.write(file, text);
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gzip.write_all(text.as_bytes()).unwrap();
        std::fs::write(self.path(&format!("{file}.gz")), gzip.finish().unwrap()).unwrap();
        let mut br = Vec::new();
        brotli::CompressorWriter::new(&mut br, 4096, 11, 22).write_all(text.as_bytes()).unwrap();
        std::fs::write(self.path(&format!("{file}.br")), br).unwrap();
    }
}

impl Drop for ClientBuild {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn script(name: &str, lines: usize) -> String {
    (0..lines).map(|i| format!("export const {name}{i} = () => '{name} line {i}';\n")).collect()
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).unwrap();
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096).read_to_end(&mut out).unwrap();
    out
}

struct Sent {
    status: StatusCode,
    headers: reqwest::header::HeaderMap,
    body: Vec<u8>,
}

impl Sent {
    fn header(&self, name: reqwest::header::HeaderName) -> &str {
        self.headers.get(&name).map(|v| v.to_str().unwrap()).unwrap_or("")
    }
}

/// GET `path` accepting `encodings` (none when empty), as the bytes came over the wire.
async fn get(app: &TestApp, path: &str, encodings: &str) -> Sent {
    let mut req = app.http.get(format!("{}{path}", app.address));
    if !encodings.is_empty() {
        req = req.header(ACCEPT_ENCODING, encodings);
    }
    let res = req.send().await.unwrap();
    Sent { status: res.status(), headers: res.headers().clone(), body: res.bytes().await.unwrap().to_vec() }
}

async fn serve(build: &ClientBuild) -> TestApp {
    spawn_app_serving(Path::new(&build.dir)).await
}

#[tokio::test]
async fn hashed_assets_go_out_as_compressed_at_build_time_and_are_cached_for_a_year() {
    let build = ClientBuild::new();
    let app = serve(&build).await;

    for (accepted, encoding, file) in
        [(BROWSER, "br", format!("{APP_JS}.br")), ("gzip", "gzip", format!("{APP_JS}.gz")), ("", "", APP_JS.to_owned())]
    {
        let sent = get(&app, APP_JS, accepted).await;
        assert_eq!(sent.status, StatusCode::OK, "{accepted}");
        assert_eq!(sent.header(CONTENT_ENCODING), encoding, "{accepted}");
        // The build's own file, whole: compressed on the way out it would have no length.
        assert_eq!(sent.body, build.read(&file), "{accepted}");
        assert_eq!(sent.header(CONTENT_LENGTH), build.read(&file).len().to_string(), "{accepted}");
        assert_eq!(sent.header(CACHE_CONTROL), IMMUTABLE, "{accepted}");
        assert!(sent.header(VARY).contains("accept-encoding"), "{accepted}: {:?}", sent.headers);
        assert!(sent.header(reqwest::header::CONTENT_TYPE).contains("javascript"), "{accepted}");
    }

    // Asked again with the tag it had: unchanged, and still cached for a year.
    let first = get(&app, APP_JS, BROWSER).await;
    let again = app
        .http
        .get(format!("{}{APP_JS}", app.address))
        .header(ACCEPT_ENCODING, BROWSER)
        .header(IF_NONE_MATCH, first.header(ETAG))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(again.headers()[CACHE_CONTROL], IMMUTABLE);
}

#[tokio::test]
async fn a_file_the_build_left_uncompressed_is_compressed_on_the_way_out() {
    let build = ClientBuild::new();
    let app = serve(&build).await;

    let br = get(&app, CHART_JS, BROWSER).await;
    assert_eq!(br.header(CONTENT_ENCODING), "br");
    assert_eq!(unbrotli(&br.body), build.read(CHART_JS));
    assert_eq!(br.header(CACHE_CONTROL), IMMUTABLE);

    let gzip = get(&app, CHART_JS, "gzip").await;
    assert_eq!(gzip.header(CONTENT_ENCODING), "gzip");
    assert_eq!(gunzip(&gzip.body), build.read(CHART_JS));

    let plain = get(&app, CHART_JS, "").await;
    assert_eq!(plain.header(CONTENT_ENCODING), "");
    assert_eq!(plain.body, build.read(CHART_JS));
}

#[tokio::test]
async fn a_missing_asset_is_not_found_rather_than_the_app_and_is_not_cached_for_long() {
    let build = ClientBuild::new();
    let app = serve(&build).await;

    let sent = get(&app, "/assets/index-Old00000.js", BROWSER).await;
    assert_eq!(sent.status, StatusCode::NOT_FOUND);
    assert_eq!(sent.header(CACHE_CONTROL), "no-cache");
}

#[tokio::test]
async fn the_app_page_and_every_other_root_file_are_revalidated_before_each_use() {
    let build = ClientBuild::new();
    let app = serve(&build).await;

    // index.html, by its name, as the root and for the app's own routes; its brotli file.
    for path in ["/", "/index.html", "/settings/products", "/main"] {
        let sent = get(&app, path, BROWSER).await;
        assert_eq!(sent.status, StatusCode::OK, "{path}");
        assert_eq!(sent.header(CACHE_CONTROL), "no-cache", "{path}");
        assert_eq!(sent.header(CONTENT_ENCODING), "br", "{path}");
        assert_eq!(sent.body, build.read("index.html.br"), "{path}");
    }
    // A service worker at the root must be seen fresh, or a release would never reach the tills.
    let worker = get(&app, "/sw.js", "gzip").await;
    assert_eq!(worker.header(CACHE_CONTROL), "no-cache");
    assert_eq!(worker.header(CONTENT_ENCODING), "gzip");
    assert_eq!(worker.body, build.read("sw.js.gz"));
    // Too small to be worth compressing.
    let icon = get(&app, "/favicon.svg", BROWSER).await;
    assert_eq!(icon.header(CACHE_CONTROL), "no-cache");
    assert_eq!(icon.header(CONTENT_ENCODING), "");
    assert_eq!(icon.body, build.read("favicon.svg"));
}

#[tokio::test]
async fn api_answers_are_never_stored_and_large_ones_are_compressed() {
    let build = ClientBuild::new();
    let app = serve(&build).await;

    let plain = get(&app, "/api/openapi.json", "").await;
    assert_eq!(plain.status, StatusCode::OK);
    assert_eq!(plain.header(CONTENT_ENCODING), "");
    assert_eq!(plain.header(CACHE_CONTROL), "no-store");
    let document: serde_json::Value = serde_json::from_slice(&plain.body).unwrap();

    let br = get(&app, "/api/openapi.json", BROWSER).await;
    assert_eq!(br.header(CONTENT_ENCODING), "br");
    assert_eq!(br.header(CACHE_CONTROL), "no-store");
    assert!(br.body.len() * 4 < plain.body.len(), "{} of {} bytes", br.body.len(), plain.body.len());
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&unbrotli(&br.body)).unwrap(), document);

    let gzip = get(&app, "/api/openapi.json", "gzip").await;
    assert_eq!(gzip.header(CONTENT_ENCODING), "gzip");
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&gunzip(&gzip.body)).unwrap(), document);

    // A short answer goes out as it is, and an error is not stored either.
    let small = get(&app, "/api/no-such-endpoint", BROWSER).await;
    assert_eq!(small.status, StatusCode::NOT_FOUND);
    assert_eq!(small.header(CONTENT_ENCODING), "");
    assert_eq!(small.header(CACHE_CONTROL), "no-store");
    let login = app
        .http
        .post(format!("{}/api/login", app.address))
        .header(ACCEPT_ENCODING, BROWSER)
        .json(
            &serde_json::json!({ "username": crate::helpers::SUPER_ADMIN, "password": crate::helpers::SUPER_PASSWORD }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), StatusCode::OK);
    assert_eq!(login.headers()[CACHE_CONTROL], "no-store");
}
