//! The endpoint-by-role matrix of docs/roles.md, row by row. A request that the role may make
//! is sent with an id that does not exist or an empty body, so it answers 404 or 400 and changes
//! nothing; a request the role may not make answers 403 before anything is read.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{spawn_app, Staffed};

const ADMIN: u8 = 1;
const SUPERVISOR: u8 = 2;
const CAJERO: u8 = 4;
/// A cajero granted the customers screen.
const CAJERO_CUSTOMERS: u8 = 8;
/// A supervisor whose permission list is empty.
const SUPERVISOR_NONE: u8 = 16;
const EVERYONE: u8 = ADMIN | SUPERVISOR | CAJERO | CAJERO_CUSTOMERS | SUPERVISOR_NONE;

/// (method, path, allowed roles)
pub const MATRIX: &[(&str, &str, u8)] = &[
    ("GET", "/api/settings", EVERYONE),
    ("POST", "/api/settings", ADMIN),
    ("GET", "/api/settings/setup", ADMIN),
    ("GET", "/api/pos", EVERYONE),
    ("POST", "/api/pos", ADMIN),
    ("PUT", "/api/pos/999999", ADMIN),
    ("DELETE", "/api/pos/999999", ADMIN),
    ("GET", "/api/pos/999999/usage", ADMIN),
    ("GET", "/api/pos?status=inactive", ADMIN),
    ("POST", "/api/pos/999999/reactivate", ADMIN),
    ("GET", "/api/api-keys", ADMIN),
    ("POST", "/api/api-keys", ADMIN),
    ("DELETE", "/api/api-keys/999999", ADMIN),
    ("GET", "/api/users", ADMIN | SUPERVISOR | SUPERVISOR_NONE),
    ("POST", "/api/users", ADMIN),
    ("PUT", "/api/users/999999", ADMIN),
    ("DELETE", "/api/users/999999", ADMIN),
    ("GET", "/api/users/999999/usage", ADMIN),
    ("GET", "/api/users?status=inactive", ADMIN),
    ("POST", "/api/users/999999/reactivate", ADMIN),
    ("POST", "/api/users/999999/password", ADMIN),
    ("POST", "/api/me/password", EVERYONE),
    ("GET", "/api/customers", EVERYONE),
    ("GET", "/api/customers/search", EVERYONE),
    ("GET", "/api/customers/by-document/000", EVERYONE),
    ("POST", "/api/customers", ADMIN | SUPERVISOR | CAJERO_CUSTOMERS),
    ("PUT", "/api/customers/999999", ADMIN | SUPERVISOR | CAJERO_CUSTOMERS),
    ("DELETE", "/api/customers/999999", ADMIN | SUPERVISOR | CAJERO_CUSTOMERS),
    ("GET", "/api/customers/999999/usage", ADMIN | SUPERVISOR | CAJERO_CUSTOMERS),
    ("GET", "/api/customers/search?status=inactive", ADMIN | SUPERVISOR | CAJERO_CUSTOMERS),
    ("POST", "/api/customers/import", ADMIN),
    ("POST", "/api/customers/999999/reactivate", ADMIN | SUPERVISOR | CAJERO_CUSTOMERS),
    ("GET", "/api/customers/999999/data", ADMIN),
    ("POST", "/api/customers/999999/suppress", ADMIN),
    ("GET", "/api/products", EVERYONE),
    ("GET", "/api/products/all", ADMIN | SUPERVISOR | SUPERVISOR_NONE),
    ("POST", "/api/products", ADMIN | SUPERVISOR),
    ("PUT", "/api/products/999999", ADMIN | SUPERVISOR),
    ("DELETE", "/api/products/999999", ADMIN | SUPERVISOR),
    ("GET", "/api/products/999999/usage", ADMIN | SUPERVISOR),
    ("POST", "/api/products/999999/reactivate", ADMIN | SUPERVISOR),
    ("GET", "/api/categories", EVERYONE),
    ("POST", "/api/categories", ADMIN | SUPERVISOR),
    ("PUT", "/api/categories/999999", ADMIN | SUPERVISOR),
    ("DELETE", "/api/categories/999999", ADMIN | SUPERVISOR),
    ("GET", "/api/categories/999999/usage", ADMIN | SUPERVISOR),
    ("GET", "/api/categories?status=inactive", ADMIN | SUPERVISOR),
    ("POST", "/api/categories/999999/reactivate", ADMIN | SUPERVISOR),
    // Points: the screens that offer each operation (the dashboard's quick panels included).
    ("POST", "/api/customers/999999/accredit", ADMIN | SUPERVISOR | CAJERO | CAJERO_CUSTOMERS),
    ("GET", "/api/customers/999999/accredit-preview", ADMIN | SUPERVISOR | CAJERO | CAJERO_CUSTOMERS),
    ("POST", "/api/customers/999999/redeem", ADMIN | SUPERVISOR | CAJERO | CAJERO_CUSTOMERS),
    ("GET", "/api/transactions", ADMIN | SUPERVISOR | CAJERO),
    ("GET", "/api/transactions/search", ADMIN | SUPERVISOR | CAJERO),
    ("GET", "/api/transactions/totals", ADMIN | SUPERVISOR | CAJERO),
    ("POST", "/api/transactions/999999/void", ADMIN | SUPERVISOR | CAJERO),
    ("POST", "/api/transactions/999999/return", ADMIN | SUPERVISOR | CAJERO),
    ("GET", "/api/stats/dashboard", ADMIN | SUPERVISOR | CAJERO | CAJERO_CUSTOMERS),
    ("POST", "/api/tasks/expire-points", ADMIN),
    // Data holders' requests: the requests screen, granted to nobody in a new company.
    ("GET", "/api/data-requests", ADMIN),
    ("GET", "/api/data-requests/due", ADMIN),
    ("POST", "/api/data-requests", ADMIN),
    ("PUT", "/api/data-requests/999999", ADMIN),
    ("GET", "/api/audit", ADMIN),
    // Webhooks (docs/webhooks.md): admins only, never grantable.
    ("GET", "/api/webhooks", ADMIN),
    ("POST", "/api/webhooks", ADMIN),
    ("DELETE", "/api/webhooks/999999", ADMIN),
    ("POST", "/api/webhooks/999999/enable", ADMIN),
    ("GET", "/api/webhooks/999999/deliveries", ADMIN),
    ("POST", "/api/webhooks/999999/deliveries/999999/resend", ADMIN),
];

#[tokio::test]
async fn every_endpoint_allows_exactly_the_roles_of_the_matrix() {
    let app = spawn_app().await;
    let Staffed { admin, pos, token: supervisor, .. } =
        app.staffed_company("acme", "Centro", "sup", "supervisor").await;
    let (_, cajero) = app.create_user(&admin, "acme", "caj", "cajero", Some(pos)).await;
    // Permission lists are per role, so the variants live in a second company whose cajeros
    // are granted the customers screen and whose supervisors have no permissions at all.
    let Staffed { admin: admin2, pos: pos2, token: cajero_customers, .. } =
        app.staffed_company("beta", "Centro", "cajc", "cajero").await;
    let (_, supervisor_none) = app.create_user(&admin2, "beta", "supn", "supervisor", Some(pos2)).await;
    let granted = app
        .post(
            "/api/settings",
            &admin2,
            json!({ "rolePermissions": { "supervisor": [], "cajero": ["/main", "/settings/customers"] } }),
        )
        .await;
    assert_eq!(granted.status, StatusCode::OK);

    let roles = [
        (ADMIN, "admin", &admin),
        (SUPERVISOR, "supervisor", &supervisor),
        (CAJERO, "cajero", &cajero),
        (CAJERO_CUSTOMERS, "cajero with customers", &cajero_customers),
        (SUPERVISOR_NONE, "supervisor without permissions", &supervisor_none),
    ];
    let mut failures = Vec::new();
    for (method, path, allowed) in MATRIX {
        for (bit, role, token) in roles {
            let method = Method::from_bytes(method.as_bytes()).unwrap();
            let body = (method == Method::POST || method == Method::PUT).then(|| json!({}));
            let answer = app.request(method.clone(), path, Some(token), body).await;
            let expected_allowed = allowed & bit != 0;
            let was_allowed = answer.status != StatusCode::FORBIDDEN && answer.status != StatusCode::UNAUTHORIZED;
            if expected_allowed != was_allowed || answer.status.is_server_error() {
                failures.push(format!("{method} {path} as {role}: {} {}", answer.status, answer.body));
            }
        }
    }
    assert!(failures.is_empty(), "matrix mismatches:\n{}", failures.join("\n"));
    // Nothing was changed by any of it.
    assert_eq!(app.count("select count(*) from tenant_acme.customers").await, 0);
    assert_eq!(app.count("select count(*) from tenant_acme.points_of_sale").await, 1);
}
