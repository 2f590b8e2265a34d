use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{run_loyalty as loyalty, spawn_acme, texts};

#[tokio::test]
async fn one_company_is_restored_from_its_backup_without_touching_the_others() {
    let (app, acme) = spawn_acme().await;
    let (_, globex) = app.create_company("globex").await;
    for (token, document) in [(&acme, "111"), (&acme, "222"), (&globex, "333")] {
        let answer = app
            .post("/api/customers", token, json!({ "name": format!("Cliente {document}"), "document": document }))
            .await;
        assert_eq!(answer.status, StatusCode::CREATED);
    }
    let dir = std::env::temp_dir().join(format!("loyalty-backup-{}", app.db_name));
    let (ok, out) = loyalty(&app.db_url, &["backup", "--dir", dir.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert!(out.contains("[3/3]"), "{out}");
    for file in ["platform.dump", "tenant_acme.dump", "tenant_globex.dump"] {
        assert!(dir.join(file).is_file(), "{file} missing:\n{out}");
    }

    // Acme loses its data; Globex goes on working meanwhile.
    app.sql("delete from tenant_acme.customers").await;
    app.post("/api/customers", &globex, json!({ "name": "Nuevo", "document": "444" })).await;

    let (ok, out) =
        loyalty(&app.db_url, &["restore", "--company", "acme", dir.join("tenant_acme.dump").to_str().unwrap()]);
    assert!(ok, "{out}");
    let mut acme_docs = texts(&app.get("/api/customers", &acme).await.body, "document");
    acme_docs.sort();
    assert_eq!(acme_docs, ["111", "222"]);
    let mut globex_docs = texts(&app.get("/api/customers", &globex).await.body, "document");
    globex_docs.sort();
    assert_eq!(globex_docs, ["333", "444"], "the other company keeps what it did after the backup");
    // Acme's admin still logs in and works normally after the restore.
    assert_eq!(app.post("/api/pos", &acme, json!({ "name": "Después" })).await.status, StatusCode::CREATED);

    // A file of another company is refused, and so is an unknown company.
    let (ok, out) =
        loyalty(&app.db_url, &["restore", "--company", "acme", dir.join("tenant_globex.dump").to_str().unwrap()]);
    assert!(!ok, "{out}");
    let (ok, _) =
        loyalty(&app.db_url, &["restore", "--company", "nosuch", dir.join("tenant_acme.dump").to_str().unwrap()]);
    assert!(!ok);
    let _ = std::fs::remove_dir_all(dir);
}
