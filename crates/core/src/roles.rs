//! Role cards (SPEC §2): what a new hire of a given role starts with — persona and
//! rules, tools, model route, temperature and retries — kept as card files outside the
//! code (`card` is the file format). The built-in catalogue ships as such files
//! (`crates/core/roles/*.md`); the boss's own cards, imported from a folder or an
//! archive (`roster`) or edited,
//! live beside them in the company database's `role_template` table, which keeps each
//! card's text exactly as it came so an export writes the same files back.

mod card;
mod edit;
mod fit;
mod library;
mod roster;

use std::sync::LazyLock;

use cubicle_store::{ConnectionTrait, DbErr, entity::role_template, org as q};
use sea_orm::ActiveValue::{NotSet, Set};

pub use card::{CardError, MAX_CARD_BYTES, RoleCard, parse};
pub use edit::{DuplicateRoleCard, RoleCardRef, SaveRoleCard};
pub use fit::{Fit, best_fit, best_for_task, by_title as library_card};
pub use library::{
    HireDefaults, LibraryCard, RoleCardDto, RoleExport, RoleImport, UnknownTools, hire_defaults,
    library, split_tools,
};
pub use library::{RolesError, model_route};
pub(crate) use library::{own_cards, put_own_cards};
pub use roster::{RosterFile, RosterUpload};

use crate::types::Archetype;

/// The archetype of a role whose card names none.
pub const FALLBACK_ARCHETYPE: Archetype = Archetype::WarmHearted;

/// One built-in role: its key (the file's name), the file's text and what it says.
pub struct RoleTemplate {
    pub key: &'static str,
    pub text: &'static str,
    pub card: RoleCard,
}

impl RoleTemplate {
    pub fn title(&self) -> &str {
        &self.card.name
    }

    pub fn title_zh(&self) -> &str {
        self.card.name_zh.as_deref().unwrap_or(&self.card.name)
    }

    pub fn archetype(&self) -> Archetype {
        self.card.archetype.unwrap_or(FALLBACK_ARCHETYPE)
    }
}

/// The shipped card files, by key. Tool names are those of `crate::tools`; the risky
/// ones still wait for the boss under `key_steps` (SPEC §8), the card only says who may
/// ask at all.
const BUILT_IN_FILES: &[(&str, &str)] = &[
    (
        "frontend_engineer",
        include_str!("../roles/frontend_engineer.md"),
    ),
    (
        "backend_engineer",
        include_str!("../roles/backend_engineer.md"),
    ),
    (
        "fullstack_engineer",
        include_str!("../roles/fullstack_engineer.md"),
    ),
    (
        "mobile_engineer",
        include_str!("../roles/mobile_engineer.md"),
    ),
    (
        "devops_engineer",
        include_str!("../roles/devops_engineer.md"),
    ),
    ("qa_engineer", include_str!("../roles/qa_engineer.md")),
    ("data_scientist", include_str!("../roles/data_scientist.md")),
    ("ui_designer", include_str!("../roles/ui_designer.md")),
    (
        "product_manager",
        include_str!("../roles/product_manager.md"),
    ),
    (
        "project_manager",
        include_str!("../roles/project_manager.md"),
    ),
    ("researcher", include_str!("../roles/researcher.md")),
    (
        "technical_writer",
        include_str!("../roles/technical_writer.md"),
    ),
    ("content_writer", include_str!("../roles/content_writer.md")),
    (
        "marketing_manager",
        include_str!("../roles/marketing_manager.md"),
    ),
    (
        "sales_representative",
        include_str!("../roles/sales_representative.md"),
    ),
    (
        "customer_support",
        include_str!("../roles/customer_support.md"),
    ),
    (
        "operations_manager",
        include_str!("../roles/operations_manager.md"),
    ),
    ("legal_counsel", include_str!("../roles/legal_counsel.md")),
    (
        "finance_analyst",
        include_str!("../roles/finance_analyst.md"),
    ),
    ("hr_specialist", include_str!("../roles/hr_specialist.md")),
];

/// The built-in catalogue, read from the shipped files once. A file that does not parse
/// is a bug the tests catch; at run time it is left out and logged.
pub static CATALOGUE: LazyLock<Vec<RoleTemplate>> = LazyLock::new(|| {
    BUILT_IN_FILES
        .iter()
        .filter_map(|(key, text)| match parse(&format!("{key}.md"), text) {
            Ok(card) => Some(RoleTemplate { key, text, card }),
            Err(e) => {
                tracing::error!(error = %e, "a built-in role card does not parse");
                None
            }
        })
        .collect()
});

/// Finds the built-in role whose English or Chinese title or key matches `title`
/// (case-insensitive).
pub fn match_title(title: &str) -> Option<&'static RoleTemplate> {
    let t = title.trim().to_lowercase();
    CATALOGUE
        .iter()
        .find(|r| r.title().to_lowercase() == t || r.title_zh() == t || r.key == t)
}

/// Puts the shipped cards into the table: new ones are added, and a built-in row whose
/// text differs from the shipped file (an older release's) is brought up to date. A
/// card the boss imported under a built-in key is theirs and stays.
pub async fn seed(conn: &impl ConnectionTrait) -> Result<(), DbErr> {
    for role in CATALOGUE.iter() {
        let existing = q::find_role_template(conn, role.key).await?;
        match existing {
            Some(row) if !row.builtin || row.card == role.text => continue,
            Some(row) => {
                let mut am: role_template::ActiveModel = row.into();
                library::fill(&mut am, &role.card, role.text, true);
                q::update_role_template(conn, am).await?;
            }
            None => {
                let mut am = role_template::ActiveModel {
                    id: NotSet,
                    key: Set(role.key.to_owned()),
                    ..Default::default()
                };
                library::fill(&mut am, &role.card, role.text, true);
                q::insert_role_template(conn, am).await?;
            }
        }
    }
    Ok(())
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct RoleTemplateDto {
    pub key: String,
    pub title: String,
    pub title_zh: String,
    pub archetype: Archetype,
    pub skills: Vec<String>,
}

pub fn to_dto(m: &role_template::Model) -> RoleTemplateDto {
    RoleTemplateDto {
        key: m.key.clone(),
        title: m.title.clone(),
        title_zh: m.title_zh.clone(),
        archetype: m.archetype,
        skills: json_strings(&m.skills),
    }
}

pub use crate::types::json_strings;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_shipped_card_parses_and_names_only_cubicle_tools() {
        assert_eq!(CATALOGUE.len(), BUILT_IN_FILES.len());
        let known: Vec<String> = crate::tools::catalogue()
            .into_iter()
            .map(|t| t.name)
            .collect();
        for role in CATALOGUE.iter() {
            for tool in &role.card.tools {
                assert!(known.contains(tool), "{} names {tool}", role.key);
            }
            assert!(
                role.card.archetype.is_some(),
                "{} has no archetype",
                role.key
            );
            assert!(
                role.card.name_zh.is_some(),
                "{} has no Chinese name",
                role.key
            );
            // A hire in a Chinese company lists these: one for each English skill, and
            // written in Chinese (not only product names).
            assert_eq!(
                role.card.skills_zh.len(),
                role.card.skills.len(),
                "{}: {:?} vs {:?}",
                role.key,
                role.card.skills_zh,
                role.card.skills
            );
            assert!(
                role.card
                    .skills_zh
                    .iter()
                    .any(|s| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))),
                "{} has no Chinese skills: {:?}",
                role.key,
                role.card.skills_zh
            );
        }
    }

    #[test]
    fn catalogue_has_at_least_fifteen_distinct_roles() {
        let keys: HashSet<_> = CATALOGUE.iter().map(|r| r.key).collect();
        assert!(keys.len() >= 15, "only {} roles", keys.len());
        assert_eq!(keys.len(), CATALOGUE.len(), "duplicate keys");
    }

    #[test]
    fn titles_match_in_both_languages() {
        assert_eq!(
            match_title("frontend engineer").map(|r| r.key),
            Some("frontend_engineer")
        );
        assert_eq!(
            match_title("测试工程师").map(|r| r.key),
            Some("qa_engineer")
        );
        assert!(match_title("astronaut").is_none());
    }
}
