//! `cubicle-migrate up|down|status|fresh` against `DATABASE_URL` (sea-orm-migration's CLI).

use sea_orm_migration::prelude::*;

#[tokio::main]
async fn main() {
    cli::run_cli(cubicle_migrations::Migrator).await;
}
