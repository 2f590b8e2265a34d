//! The one application state that every handler receives: pool, configuration and keys.

use std::sync::Arc;

use crate::config::Config;
use crate::migrate::template::Template;
use crate::session::JwtKeys;

/// The one application state: pool, configuration and keys.
#[derive(Clone)]
pub struct AppState {
    pub pool: crate::db::Pools,
    pub config: Arc<Config>,
    pub keys: Arc<JwtKeys>,
    /// The script that makes a new company's schema, read once from the tenant template
    /// (`migrate::template`); `None` inside when companies are made by migrating.
    pub tenant_template: Arc<tokio::sync::OnceCell<Option<Arc<Template>>>>,
    /// Wakes the filler of spare schemas (`platform::spares`) after a company is created;
    /// harmless when none runs.
    pub spares_wanted: Arc<tokio::sync::Notify>,
}

impl AppState {
    pub fn new(config: Config) -> anyhow::Result<Self> {
        crate::metrics::handle();
        let pool = crate::db::Pools::new(&config.db)?;
        let keys = Arc::new(JwtKeys::new(&config.jwt_secret, config.token_ttl));
        Ok(AppState {
            pool,
            config: Arc::new(config),
            keys,
            tenant_template: Arc::default(),
            spares_wanted: Arc::default(),
        })
    }

    /// The tenant template's script, read on first use; `None` when a company is made by
    /// running the migrations (on Citus, or when the template cannot be copied exactly).
    pub async fn tenant_template(&self) -> anyhow::Result<Option<Arc<Template>>> {
        let url = self.config.db.url.expose();
        let template = self
            .tenant_template
            .get_or_try_init(|| async {
                Ok::<_, anyhow::Error>(crate::migrate::tenant_template(url).await?.map(Arc::new))
            })
            .await?;
        Ok(template.clone())
    }
}
