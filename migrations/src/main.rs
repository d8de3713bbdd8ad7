//! `cubicle-migrate [up|down|status|fresh]` against `$DATABASE_URL` (or the first argument
//! after the command), for operators running Cubicle on PostgreSQL.

use cubicle_migrations::{Migrator, MigratorTrait};
use sea_orm_migration::sea_orm::Database;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let command = args.next().unwrap_or_else(|| "status".into());
    let Some(url) = args.next().or_else(|| std::env::var("DATABASE_URL").ok()) else {
        eprintln!("usage: cubicle-migrate up|down|status|fresh [DATABASE_URL]");
        return std::process::ExitCode::FAILURE;
    };
    let result = async {
        let db = Database::connect(&url).await?;
        match command.as_str() {
            "up" => Migrator::up(&db, None).await,
            "down" => Migrator::down(&db, None).await,
            "fresh" => Migrator::fresh(&db).await,
            "status" => Migrator::status(&db).await,
            other => Err(sea_orm_migration::DbErr::Custom(format!(
                "unknown command {other:?}; use up, down, status or fresh"
            ))),
        }
    }
    .await;
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
