//! The one application state that every handler receives: pool, configuration and keys.

use std::sync::Arc;

use crate::config::Config;
use crate::session::JwtKeys;

/// The one application state: pool, configuration and keys.
#[derive(Clone)]
pub struct AppState {
    pub pool: crate::db::Pools,
    pub config: Arc<Config>,
    pub keys: Arc<JwtKeys>,
}

impl AppState {
    pub fn new(config: Config) -> anyhow::Result<Self> {
        crate::metrics::handle();
        let pool = crate::db::Pools::new(&config.db)?;
        let keys = Arc::new(JwtKeys::new(&config.jwt_secret, config.token_ttl));
        Ok(AppState { pool, config: Arc::new(config), keys })
    }
}
