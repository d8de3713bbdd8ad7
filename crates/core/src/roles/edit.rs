//! Editing the library one card at a time: save a card's text (a new card, or an edit
//! of one, built-in ones included), duplicate one under a new key, delete one. People
//! already hired keep what their card gave them: a hire copies it.

use cubicle_store::BeginWrite as _;
use cubicle_store::{entity::role_template, org as q};
use sea_orm::ActiveValue::{NotSet, Set};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::card::parse;
use super::library::{RoleCardDto, RolesError, fill, is_shipped, path_of, split_tools};
use crate::app::AppCore;

/// A card's whole text under a key (`marketing/growth-hacker`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SaveRoleCard {
    pub key: String,
    pub text: String,
}

/// A copy of the card `key` to be saved as `new_key`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DuplicateRoleCard {
    pub key: String,
    pub new_key: String,
}

/// One card, by key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RoleCardRef {
    pub key: String,
}

impl AppCore {
    /// Saves a card: a new key adds it, an existing one replaces its text. A card that
    /// does not parse is refused with where and why; a built-in card saved here becomes
    /// the boss's (an update of the app no longer replaces it).
    pub async fn save_role_card(&self, input: SaveRoleCard) -> Result<RoleCardDto, RolesError> {
        let key = input.key.trim().trim_end_matches(".md").to_owned();
        if path_of(&key).is_none() {
            return Err(RolesError::InvalidInput(format!(
                "{key:?} is not a card key (words and folders, like marketing/growth-hacker)"
            )));
        }
        let card = parse(&format!("{key}.md"), &input.text)
            .map_err(|e| RolesError::InvalidInput(e.to_string()))?;
        let txn = self.db.begin_write().await?;
        match q::find_role_template(&txn, &key).await? {
            Some(row) => {
                let mut am: role_template::ActiveModel = row.into();
                fill(&mut am, &card, &input.text, false);
                q::update_role_template(&txn, am).await?;
            }
            None => {
                let mut am = role_template::ActiveModel {
                    id: NotSet,
                    key: Set(key.clone()),
                    ..Default::default()
                };
                fill(&mut am, &card, &input.text, false);
                q::insert_role_template(&txn, am).await?;
            }
        }
        txn.commit().await?;
        Ok(RoleCardDto {
            unknown_tools: split_tools(&card.tools).1,
            shipped: is_shipped(&key),
            key,
            builtin: false,
            text: input.text,
            card,
        })
    }

    /// A copy of the card `key` under `new_key`, to edit into a new role.
    pub async fn duplicate_role_card(
        &self,
        key: &str,
        new_key: &str,
    ) -> Result<RoleCardDto, RolesError> {
        let Some(row) = q::find_role_template(&self.db, key).await? else {
            return Err(RolesError::NotFound(key.to_owned()));
        };
        if q::find_role_template(&self.db, new_key).await?.is_some() {
            return Err(RolesError::InvalidInput(format!(
                "a card {new_key:?} exists already"
            )));
        }
        self.save_role_card(SaveRoleCard {
            key: new_key.to_owned(),
            text: row.card,
        })
        .await
    }

    /// Deletes one of the boss's cards. A built-in card cannot go; one the boss edited
    /// goes back to the shipped text.
    pub async fn delete_role_card(&self, key: &str) -> Result<(), RolesError> {
        let Some(row) = q::find_role_template(&self.db, key).await? else {
            return Err(RolesError::NotFound(key.to_owned()));
        };
        if row.builtin {
            return Err(RolesError::InvalidInput(format!(
                "{key} is a built-in card: edit it instead"
            )));
        }
        let txn = self.db.begin_write().await?;
        q::delete_role_template(&txn, row.id).await?;
        super::seed(&txn).await?;
        txn.commit().await?;
        Ok(())
    }
}
