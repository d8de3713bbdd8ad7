//! `AppCore`: the one value the desktop shell and the CLI hold.

use cubicle_store::{Db, DbError};

use crate::events::EventBus;
use crate::org::OrgService;
use crate::roles;

#[derive(Clone, Debug)]
pub struct AppCore {
    pub db: Db,
    pub bus: EventBus,
    pub org: OrgService,
}

impl AppCore {
    /// Opens the database at `url` (migrating it) and seeds the built-in catalogues.
    pub async fn open(url: &str) -> Result<Self, DbError> {
        let db = cubicle_store::connect(url).await?;
        roles::seed(&db).await?;
        let bus = EventBus::new();
        let org = OrgService::new(db.clone(), bus.clone());
        Ok(Self { db, bus, org })
    }
}
