use sea_orm::entity::prelude::*;

/// A person in a chat between people (their proxies write there in their name).
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "chat_person")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub chat_id: i32,
    #[sea_orm(primary_key, auto_increment = false)]
    pub person_id: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
