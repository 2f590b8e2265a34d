// Migrations are embedded at compile time; rebuild when they change.
fn main() {
    println!("cargo:rerun-if-changed=../platform_migrations");
    println!("cargo:rerun-if-changed=../tenant_migrations");
}
