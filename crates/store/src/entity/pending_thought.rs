use sea_orm::entity::prelude::*;

/// A thought whose model reply is in hand but whose effects are not all written yet.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "pending_thought")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub employee_id: i32,
    pub chat_id: i32,
    /// Everything needed to write the thought's effects again without the model.
    pub plan: Json,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
