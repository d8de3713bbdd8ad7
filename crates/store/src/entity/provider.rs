use sea_orm::entity::prelude::*;

/// A configured model provider. Its API key is in the OS keychain, never here.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "provider")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub name: String,
    /// The preset it was made from (`openai`, `ollama`, …) or `custom`.
    pub preset: String,
    /// `openai_compatible`, `anthropic` or `builtin`.
    pub dialect: String,
    pub base_url: String,
    pub default_model: String,
    /// JSON array of model ids offered in pickers.
    pub models: Json,
    pub enabled: bool,
    pub created_at: DateTimeUtc,
    /// The base URL as it came in a company bundle, until the boss confirms it here:
    /// while `base_url` still equals it, no call goes there. `None` for providers set up
    /// on this computer.
    #[sea_orm(column_type = "Text", nullable)]
    pub imported_base_url: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
