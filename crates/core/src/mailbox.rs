//! The boss's mailbox (SPEC §6, §11): what employees report when a task is done, what
//! escalates when a task runs late (or a meeting needs the boss's decision), when the
//! budget stops the work, and the minutes of meetings. Items are
//! unread, read or archived; the boss filters them by employee and kind and opens the
//! chat each came from.

use cubicle_store::BeginWrite as _;
use cubicle_store::entity::mail;
use cubicle_store::{Db, DbErr, mailbox as q, org as oq};
use sea_orm::ActiveValue::{NotSet, Set};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::chat::rfc3339;
use crate::clock::SharedClock;
use crate::error::{ErrorCode, IpcError};
use crate::events::{DomainEvent, EventBus};
use crate::types::Language;

/// The newest items a listing returns.
const LIST_LIMIT: u64 = 500;
/// Mail bodies are reports, not documents.
const BODY_MAX_CHARS: usize = 4000;

pub use cubicle_store::enums::{MailKind, MailStatus};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MailDto {
    pub id: i32,
    pub kind: MailKind,
    pub employee_id: Option<i32>,
    /// The employee's name (also for people who have left); empty when none.
    pub employee_name: String,
    /// The chat to open for the whole story.
    pub chat_id: Option<i32>,
    pub task_id: Option<i32>,
    pub title: String,
    pub body: String,
    pub status: MailStatus,
    pub created_at: String,
    /// The boss instruction this item belongs to: opens its trace view.
    pub trace_id: Option<String>,
    /// The one place in the app that fixes what this item reports (SPEC §17): a route
    /// such as `#settings/webhooks/hooks.example.com`, `#settings/budget` or
    /// `#employee/7`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fix_href: Option<String>,
}

/// What the mailbox shows: each filter applies when given (`status: None` = everything
/// but archived).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MailFilter {
    pub status: Option<MailStatus>,
    pub kind: Option<MailKind>,
    pub employee_id: Option<i32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MailboxDto {
    pub items: Vec<MailDto>,
    /// Unread items in the whole mailbox (for the navigation badge).
    pub unread: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetMailStatus {
    pub mail_id: i32,
    pub status: MailStatus,
}

/// A new item, as the engine files it.
#[derive(Clone, Debug, PartialEq)]
pub struct NewMail {
    pub kind: MailKind,
    pub employee_id: Option<i32>,
    pub chat_id: Option<i32>,
    pub task_id: Option<i32>,
    pub title: String,
    pub body: String,
    /// The boss instruction this item belongs to (SPEC §10).
    pub trace_id: Option<String>,
}

/// How a body keeps the route that fixes what it reports (its last line): the mail
/// table has no column for it, and a body read anywhere else still says where to go.
const FIX_MARK: &str = "\n\n→ ";

impl NewMail {
    /// The same item with the one place in the app that fixes what it reports (a route:
    /// `#settings/webhooks/<host>`); shown as a link in the mailbox.
    pub fn with_fix(mut self, href: &str) -> Self {
        let room = BODY_MAX_CHARS.saturating_sub(href.chars().count() + FIX_MARK.len());
        let body: String = self.body.chars().take(room).collect();
        self.body = format!("{body}{FIX_MARK}{href}");
        self
    }
}

/// A body and the route at its end, if it has one (see [`NewMail::with_fix`]); an item
/// about the budget is fixed in Settings' budget whatever its body.
fn split_fix(kind: MailKind, body: &str) -> (String, Option<String>) {
    if let Some((text, href)) = body.rsplit_once(FIX_MARK)
        && href.starts_with('#')
        && !href.is_empty()
        && !href.chars().any(char::is_whitespace)
    {
        return (text.to_owned(), Some(href.to_owned()));
    }
    let budget = (kind == MailKind::Budget).then(|| crate::gateway::BUDGET_FIX.to_owned());
    (body.to_owned(), budget)
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("mail {0} does not exist")]
    NotFound(i32),
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl From<MailError> for IpcError {
    fn from(e: MailError) -> Self {
        let code = match &e {
            MailError::NotFound(_) => ErrorCode::NotFound,
            MailError::Storage(inner) => {
                tracing::error!(error = %inner, "storage error");
                ErrorCode::Storage
            }
        };
        IpcError::new(code, e.to_string())
    }
}

#[derive(Clone, Debug)]
pub struct Mailbox {
    db: Db,
    bus: EventBus,
    clock: SharedClock,
}

impl Mailbox {
    pub fn new(db: Db, bus: EventBus, clock: SharedClock) -> Self {
        Self { db, bus, clock }
    }

    pub async fn list(&self, filter: MailFilter) -> Result<MailboxDto, MailError> {
        let rows = q::list_mail(
            &self.db,
            filter.status,
            filter.kind,
            filter.employee_id,
            LIST_LIMIT,
        )
        .await?;
        let names = crate::chat::Names::load(&self.db).await?;
        let items = rows
            .iter()
            .filter(|m| filter.status.is_some() || m.status != MailStatus::Archived)
            .map(|m| mail_dto(m, m.employee_id.map_or("", |id| names.person(id))))
            .collect();
        Ok(MailboxDto {
            items,
            unread: u32::try_from(q::count_unread(&self.db).await?).unwrap_or(u32::MAX),
        })
    }

    /// One item, as the mailbox lists it; `None` when there is no such item.
    pub async fn get(&self, id: i32) -> Result<Option<MailDto>, DbErr> {
        let Some(m) = q::find_mail(&self.db, id).await? else {
            return Ok(None);
        };
        let names = crate::chat::Names::load(&self.db).await?;
        let name = m.employee_id.map_or("", |id| names.person(id)).to_owned();
        Ok(Some(mail_dto(&m, &name)))
    }

    pub async fn set_status(&self, input: SetMailStatus) -> Result<(), MailError> {
        if q::set_mail_status(&self.db, input.mail_id, input.status).await? == 0 {
            return Err(MailError::NotFound(input.mail_id));
        }
        self.bus.publish(DomainEvent::MailChanged);
        Ok(())
    }

    /// Files a new item (unread).
    pub async fn file(&self, m: NewMail) -> Result<MailDto, DbErr> {
        self.file_once(m, None)
            .await?
            .ok_or_else(|| DbErr::Custom("an unkeyed mail was skipped".into()))
    }

    /// Files `m` once under `key` (a pending thought's effect, SPEC §10): the item and
    /// its key are one transaction. `None` when it was filed before.
    pub async fn file_keyed(&self, m: NewMail, key: &str) -> Result<Option<MailDto>, DbErr> {
        self.file_once(m, Some(key)).await
    }

    async fn file_once(&self, m: NewMail, key: Option<&str>) -> Result<Option<MailDto>, DbErr> {
        let txn = self.db.begin_write().await?;
        if let Some(key) = key
            && !cubicle_store::effect::claim(&txn, key, self.clock.now()).await?
        {
            return Ok(None);
        }
        let row = q::insert_mail(
            &txn,
            mail::ActiveModel {
                id: NotSet,
                kind: Set(m.kind),
                employee_id: Set(m.employee_id),
                chat_id: Set(m.chat_id),
                task_id: Set(m.task_id),
                title: Set(m.title.chars().take(200).collect()),
                body: Set(m.body.chars().take(BODY_MAX_CHARS).collect()),
                status: Set(MailStatus::Unread),
                trace_id: Set(m.trace_id),
                created_at: Set(self.clock.now()),
            },
        )
        .await?;
        if let Some(key) = key {
            cubicle_store::effect::set_row(&txn, key, row.id).await?;
        }
        txn.commit().await?;
        self.bus.publish(DomainEvent::MailChanged);
        let name = match row.employee_id {
            Some(id) => oq::find_employee(&self.db, id)
                .await?
                .map(|e| e.name)
                .unwrap_or_default(),
            None => String::new(),
        };
        Ok(Some(mail_dto(&row, &name)))
    }

    /// The company's language (English before it is set up): the engine writes mail
    /// titles in it.
    pub async fn language(&self) -> Result<Language, DbErr> {
        Ok(oq::find_company(&self.db)
            .await?
            .map_or(Language::En, |c| c.language))
    }

    /// Whether an item of this kind (about this task) was filed since local midnight:
    /// one budget stop a day, one escalation per task.
    pub async fn filed_today(&self, kind: MailKind, task_id: Option<i32>) -> Result<bool, DbErr> {
        q::mail_since(
            &self.db,
            kind,
            task_id,
            crate::gateway::start_of_day(self.clock.now()),
        )
        .await
    }
}

fn mail_dto(m: &mail::Model, employee_name: &str) -> MailDto {
    let (body, fix_href) = split_fix(m.kind, &m.body);
    MailDto {
        id: m.id,
        kind: m.kind,
        employee_id: m.employee_id,
        employee_name: employee_name.to_owned(),
        chat_id: m.chat_id,
        task_id: m.task_id,
        title: m.title.clone(),
        body,
        status: m.status,
        created_at: rfc3339(m.created_at),
        trace_id: m.trace_id.clone(),
        fix_href,
    }
}
