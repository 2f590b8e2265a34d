//! Import of customers and opening balances (docs/import.md).

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_acme, Answer, TestApp};

/// Posts a file to the import with the query `query`, in `lang`.
async fn upload(app: &TestApp, token: &str, query: &str, file: impl Into<Vec<u8>>, lang: &str) -> Answer {
    let res = app
        .http
        .post(format!("{}/api/customers/import?{query}", app.address))
        .bearer_auth(token)
        .header("accept-language", lang)
        .header("content-type", "text/csv")
        .body(file.into())
        .send()
        .await
        .expect("request");
    let status = res.status();
    let text = res.text().await.unwrap_or_default();
    Answer { status, body: serde_json::from_str(&text).unwrap_or(Value::Null) }
}

/// Three good rows, one bad (line 3: e-mail; line 5: no document), separated by `;`, with a BOM.
const MIXED: &str = "\u{feff}documento;nombre;correo;telefono;direccion;fecha_nacimiento;puntos;consentimiento\n\
    1.020.304.050;Ana Ruiz;ana@example.com;300 1;Calle 1;1990-04-12;150;store\n\
    555;Beto Gil;no-es-correo;;;;;web\n\
    pa-778899;Carla Díaz;;;;;0;import\n\
    ;Sin Documento;;;;;10;store\n\
    777;Dora Paz;;;;2001-02-03;20;web\n";

fn errors(answer: &Answer) -> Vec<(i64, String, String)> {
    answer.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (e["line"].as_i64().unwrap(), e["column"].as_str().unwrap().into(), e["message"].as_str().unwrap().into())
        })
        .collect()
}

#[tokio::test]
async fn a_dry_run_reports_each_bad_row_with_line_and_column_in_the_callers_language_and_writes_nothing() {
    let (app, admin) = spawn_acme().await;
    let es = upload(&app, &admin, "dryRun=true", MIXED, "es").await;
    assert_eq!(es.status, StatusCode::OK, "{}", es.body);
    assert_eq!((es.body["rows"].as_i64(), es.body["valid"].as_i64()), (Some(5), Some(3)), "{}", es.body);
    assert_eq!(es.body["created"], 3);
    assert_eq!(es.body["openingPoints"], 170);
    assert_eq!(es.body["errorCount"], 2);
    assert_eq!(
        errors(&es),
        [
            (3, "correo".into(), "El correo electrónico no es una dirección válida.".into()),
            (5, "documento".into(), "El documento debe tener de 3 a 20 letras, dígitos o '-'.".into()),
        ]
    );
    let en = upload(&app, &admin, "dryRun=true", MIXED, "en").await;
    assert_eq!(
        errors(&en),
        [
            (3, "correo".into(), "email is not a valid address".into()),
            (5, "documento".into(), "document must be 3 to 20 letters, digits or '-'".into()),
        ]
    );
    // The dry run is the default.
    let default = upload(&app, &admin, "", MIXED, "en").await;
    assert_eq!(default.body["dryRun"], true);
    assert_eq!(app.count("select count(*) from tenant_acme.customers").await, 0);
    assert_eq!(app.count("select count(*) from tenant_acme.transactions").await, 0);
    assert_eq!(app.count("select count(*) from tenant_acme.audit_log where action = 'customer.import'").await, 0);
}

#[tokio::test]
async fn an_import_writes_the_valid_rows_with_opening_ledger_rows_and_batches_equal_to_the_balances() {
    let (app, admin) = spawn_acme().await;
    let answer = upload(&app, &admin, "dryRun=false", MIXED, "en").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["dryRun"], false);
    assert_eq!((answer.body["created"].as_i64(), answer.body["errorCount"].as_i64()), (Some(3), Some(2)));

    let ana = app.get("/api/customers/by-document/1020304050", &admin).await;
    assert_eq!(ana.status, StatusCode::OK, "documents are normalised as at the till");
    assert_eq!(ana.body["points"], 150);
    assert_eq!(ana.body["phone"], "300 1");
    assert_eq!(ana.body["birthdate"], "1990-04-12");
    assert_eq!(app.get("/api/customers/by-document/PA-778899", &admin).await.body["points"], 0);
    assert_eq!(app.get("/api/customers/by-document/555", &admin).await.status, StatusCode::NOT_FOUND);

    // One `opening` row per customer with points, each starting a batch holding them.
    assert_eq!(app.count("select count(*) from tenant_acme.transactions where type = 'opening'").await, 2);
    assert_eq!(app.count("select count(*) from tenant_acme.point_batches where remaining = points").await, 2);
    let unbalanced = "select count(*) from tenant_acme.customers c where c.points <> \
        (select coalesce(sum(points), 0) from tenant_acme.transactions where customer_id = c.id) \
        or c.points <> (select coalesce(sum(remaining), 0) from tenant_acme.point_batches where customer_id = c.id)";
    assert_eq!(app.count(unbalanced).await, 0);
    let report = app.get("/api/transactions/search?type=opening", &admin).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.body);
    assert_eq!(report.body["total"], 2);
    assert_eq!(report.body["items"][0]["type"], "opening");
    assert_eq!(report.body["items"][0]["cashierUsername"], "admin");
    assert_eq!(app.count("select count(*) from tenant_acme.audit_log where action = 'customer.import'").await, 1);

    // The opening points are spent like earned ones.
    let id = ana.body["id"].as_i64().unwrap();
    app.sql("update tenant_acme.settings set points_per_peso = 1, redemption_rate = 1").await;
    let redeemed = app.post(&format!("/api/customers/{id}/redeem"), &admin, json!({ "pointsToRedeem": 100 })).await;
    assert_eq!(redeemed.status, StatusCode::OK, "{}", redeemed.body);
    assert_eq!(app.count(unbalanced).await, 0);
}

#[tokio::test]
async fn existing_documents_are_skipped_by_default_or_updated_without_touching_points() {
    let (app, admin) = spawn_acme().await;
    app.create("/api/customers", &admin, json!({ "name": "Ana Vieja", "document": "1020304050" })).await;
    let file = "document,name,points\n1020304050,Ana Nueva,500\n888,Eva Sol,5\n";
    let skipped = upload(&app, &admin, "dryRun=false&consentChannel=store", file, "en").await;
    assert_eq!(skipped.status, StatusCode::OK, "{}", skipped.body);
    assert_eq!((skipped.body["created"].as_i64(), skipped.body["skipped"].as_i64()), (Some(1), Some(1)));
    let ana = app.get("/api/customers/by-document/1020304050", &admin).await;
    assert_eq!((ana.body["name"].as_str(), ana.body["points"].as_i64()), (Some("Ana Vieja"), Some(0)));

    let updated = upload(&app, &admin, "dryRun=false&consentChannel=store&onExisting=update", file, "en").await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    assert_eq!((updated.body["created"].as_i64(), updated.body["updated"].as_i64()), (Some(0), Some(2)));
    let ana = app.get("/api/customers/by-document/1020304050", &admin).await;
    assert_eq!((ana.body["name"].as_str(), ana.body["points"].as_i64()), (Some("Ana Nueva"), Some(0)));
    assert_eq!(app.get("/api/customers/by-document/888", &admin).await.body["points"], 5);

    let bad = upload(&app, &admin, "onExisting=merge&consentChannel=store", file, "en").await;
    bad.assert_error(StatusCode::BAD_REQUEST, "onExisting must be 'update' or 'skip'");
}

#[tokio::test]
async fn a_document_repeated_in_the_file_and_a_missing_consent_are_row_errors() {
    let (app, admin) = spawn_acme().await;
    let file = "documento,nombre,consentimiento\n111,Uno,store\n222,Dos,\n1.11,Otra vez,web\n333,Tres,papel\n";
    let answer = upload(&app, &admin, "dryRun=false", file, "en").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(
        errors(&answer),
        [
            (
                3,
                "consentimiento".into(),
                "the customer's consent is missing: fill the consent column (store, web or import) or choose a \
                 channel for the whole file"
                    .into()
            ),
            (4, "document".into(), "the document is repeated in the file: it is already on line 2".into()),
            (5, "consentimiento".into(), "consent must be store, web or import".into()),
        ]
    );
    assert_eq!(answer.body["created"], 1);
    assert_eq!(app.count("select count(*) from tenant_acme.customers").await, 1);

    // Without a consent column, the file's channel applies; without either, every row is wrong.
    let none = upload(&app, &admin, "", "document,name\n444,Cuatro\n", "es").await;
    assert_eq!(none.body["valid"], 0);
    assert_eq!(errors(&none)[0].1, "Consentimiento");
    let channel = upload(&app, &admin, "consentChannel=web", "document,name\n444,Cuatro\n", "es").await;
    assert_eq!(channel.body["valid"], 1);
}

#[tokio::test]
async fn an_xlsx_file_is_read_from_its_first_sheet_with_date_cells() {
    use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
    let (app, admin) = spawn_acme().await;
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let date = Format::new().set_num_format("yyyy-mm-dd");
    for (col, header) in ["Documento", "Nombre", "Fecha de nacimiento", "Puntos", "Consentimiento"].iter().enumerate() {
        sheet.write_string(0, col as u16, *header).unwrap();
    }
    sheet.write_number(1, 0, 1020304050.0).unwrap();
    sheet.write_string(1, 1, "Ana Ruiz").unwrap();
    sheet.write_datetime_with_format(1, 2, ExcelDateTime::from_ymd(1990, 4, 12).unwrap(), &date).unwrap();
    sheet.write_number(1, 3, 75.0).unwrap();
    sheet.write_string(1, 4, "store").unwrap();
    sheet.write_string(2, 0, "9").unwrap();
    sheet.write_string(2, 1, "Corto").unwrap();
    sheet.write_string(2, 4, "web").unwrap();
    let bytes = book.save_to_buffer().unwrap();

    let answer = upload(&app, &admin, "dryRun=false", bytes, "en").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!((answer.body["rows"].as_i64(), answer.body["created"].as_i64()), (Some(2), Some(1)));
    assert_eq!(errors(&answer), [(3, "Documento".into(), "document must be 3 to 20 letters, digits or '-'".into())]);
    let ana = app.get("/api/customers/by-document/1020304050", &admin).await;
    assert_eq!((ana.body["birthdate"].as_str(), ana.body["points"].as_i64()), (Some("1990-04-12"), Some(75)));
}

#[tokio::test]
async fn a_file_far_above_the_apis_body_limit_is_taken_on_this_route_only() {
    let (app, admin) = spawn_acme().await;
    let mut file = String::from("document,name,points,consent\n");
    for i in 0..5000 {
        file.push_str(&format!("{},Cliente número {i} con un nombre largo,{},store\n", 100_000 + i, i % 7));
    }
    assert!(file.len() > 200 * 1024);
    let answer = upload(&app, &admin, "dryRun=false", file.clone(), "en").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["created"], 5000);
    assert_eq!(app.count("select count(*) from tenant_acme.customers").await, 5000);

    // Another route keeps the API's 64 KiB.
    let big = json!({ "name": "x".repeat(100 * 1024), "document": "123" });
    let other = app.post("/api/customers", &admin, big).await;
    assert_eq!(other.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", other.body);
}

#[tokio::test]
async fn only_admins_may_import_and_a_bad_header_is_refused_whole() {
    let (app, admin) = spawn_acme().await;
    let pos = app.create_pos(&admin, "Centro").await;
    let (_, supervisor) = app.create_user(&admin, "acme", "sara", "supervisor", Some(pos)).await;
    let refused =
        upload(&app, &supervisor, "dryRun=false&consentChannel=store", "document,name\n123,Ana\n", "en").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert_eq!(app.count("select count(*) from tenant_acme.customers").await, 0);

    let unknown = upload(&app, &admin, "", "document,name,color\n123,Ana,red\n", "en").await;
    unknown.assert_error(
        StatusCode::BAD_REQUEST,
        "the column 'color' is unknown: use document, name, email, phone, address, birthdate, points or consent",
    );
    let missing = upload(&app, &admin, "", "nombre;correo\nAna;a@b.co\n", "es").await;
    missing.assert_error(StatusCode::BAD_REQUEST, "El encabezado debe tener las columnas documento y nombre.");
    let empty = upload(&app, &admin, "", "", "en").await;
    empty.assert_error(StatusCode::BAD_REQUEST, "the file has no header row naming its columns");
}
