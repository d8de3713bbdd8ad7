//! An employee's mind as stored: memories (with the caps, TTL, de-duplication and
//! visibility of SPEC §5), relationships (clamped affinity, short impressions), stamina
//! (SPEC §7) and the thoughts it had. The engine writes through [`Minds`]; the boss reads
//! it on the employee's profile and the relationship graph, and may delete a memory or
//! reset relationships there. Every write is followed by a `MindChanged` event.

use chrono::{DateTime, Utc};
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{employee_state, memory, thought};
use cubicle_store::{Db, DbErr, mind as q, models as mq, org as oq, work as wq};
use sea_orm::ActiveValue::{NotSet, Set};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::archetypes::persona_block;
use super::memory_rules::{self as rules, MemoryItem, MemoryKind, Viewer, Visibility};
use super::relationship_rules::{AFFINITY_DEFAULT, clip_impression, next_affinity};
use super::stamina::{Stamina, StaminaEvent, Zone};
use crate::chat::gates::SilenceReason;
use crate::chat::rfc3339;
use crate::clock::SharedClock;
use crate::error::{ErrorCode, IpcError};
use crate::events::{DomainEvent, EventBus};
use crate::org::EmployeeDto;
use crate::org::employee_dto;

pub use crate::chat::ThoughtDto;
use crate::chat::thought_dto;

/// How many of an employee's latest thoughts the profile shows.
const PROFILE_THOUGHTS: u64 = 30;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MemoryDto {
    pub id: i32,
    pub kind: MemoryKind,
    pub content: String,
    pub importance: i32,
    pub visibility: Visibility,
    pub expires_at: Option<String>,
    pub created_at: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RelationshipDto {
    pub other_id: i32,
    pub other_name: String,
    pub impression: String,
    pub affinity: i32,
    pub interactions: i32,
    pub updated_at: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StaminaDto {
    pub patience: f64,
    pub fatigue: f64,
    pub stress: f64,
    pub comfort: f64,
    pub zone: Zone,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PendingTaskDto {
    pub id: i32,
    pub description: String,
    pub created_at: String,
}

/// Everything the boss sees about one employee.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EmployeeProfileDto {
    pub employee: EmployeeDto,
    pub department_name: Option<String>,
    pub manager_name: Option<String>,
    /// The archetype's persona as the prompts carry it.
    pub persona: String,
    pub stamina: StaminaDto,
    pub memories: Vec<MemoryDto>,
    pub relationships: Vec<RelationshipDto>,
    pub pending_tasks: Vec<PendingTaskDto>,
    pub spend_today_usd: f64,
    pub spend_total_usd: f64,
    pub thoughts: Vec<ThoughtDto>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphNodeDto {
    pub id: i32,
    pub name: String,
    pub title: String,
    pub department_id: Option<i32>,
    pub department_name: Option<String>,
}

/// One employee's view of another (relationships are directed: Alice may like Bob more
/// than Bob likes Alice).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphEdgeDto {
    pub from: i32,
    pub to: i32,
    pub affinity: i32,
    pub impression: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RelationshipGraphDto {
    pub nodes: Vec<GraphNodeDto>,
    pub edges: Vec<GraphEdgeDto>,
}

/// Reset one relationship (`other_id`), or all of an employee's when it is `None`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ResetRelationships {
    pub employee_id: i32,
    pub other_id: Option<i32>,
}

#[derive(Debug, thiserror::Error)]
pub enum MindError {
    #[error("{what} {id} does not exist")]
    NotFound { what: &'static str, id: i32 },
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl From<MindError> for IpcError {
    fn from(e: MindError) -> Self {
        let code = match &e {
            MindError::NotFound { .. } => ErrorCode::NotFound,
            MindError::Storage(inner) => {
                tracing::error!(error = %inner, "storage error");
                ErrorCode::Storage
            }
        };
        IpcError::new(code, e.to_string())
    }
}

pub type MindResult<T> = Result<T, MindError>;

/// A memory the model asked to add (one of its `memoryOps`).
#[derive(Clone, Debug, PartialEq)]
pub struct NewMemory {
    pub kind: MemoryKind,
    pub content: String,
    pub importance: Option<i32>,
    pub ttl_hours: Option<i64>,
    pub visibility: Visibility,
    pub requirement_id: Option<i32>,
    pub source_chat_id: Option<i32>,
}

#[derive(Clone, Debug)]
pub struct Minds {
    db: Db,
    bus: EventBus,
    clock: SharedClock,
}

impl Minds {
    pub fn new(db: Db, bus: EventBus, clock: SharedClock) -> Self {
        Self { db, bus, clock }
    }

    // ---------- what the boss reads ----------

    pub async fn profile(&self, employee_id: i32) -> MindResult<EmployeeProfileDto> {
        let e = oq::find_employee(&self.db, employee_id)
            .await?
            .ok_or(MindError::NotFound {
                what: "employee",
                id: employee_id,
            })?;
        let department_name = match e.department_id {
            Some(d) => oq::find_department(&self.db, d).await?.map(|d| d.name),
            None => None,
        };
        let manager_name = match e.manager_id {
            Some(m) => oq::find_employee(&self.db, m).await?.map(|m| m.name),
            None => None,
        };
        let stamina = self.stamina(employee_id).await?;
        let memories = q::memories(&self.db, employee_id)
            .await?
            .iter()
            .rev()
            .map(memory_dto)
            .collect();
        let relationships = self.relationships(employee_id).await?;
        let pending_tasks = wq::pending_tasks(&self.db)
            .await?
            .into_iter()
            .filter(|t| t.owner_id == employee_id)
            .map(|t| PendingTaskDto {
                id: t.id,
                description: t.description,
                created_at: rfc3339(t.created_at),
            })
            .collect();
        // "Today" as the budget counts it: since local midnight.
        let day_start = crate::gateway::start_of_day(self.clock.now());
        let thoughts = q::thoughts_of(&self.db, employee_id, PROFILE_THOUGHTS)
            .await?
            .iter()
            .map(|t| thought_dto(t, &e.name))
            .collect();
        Ok(EmployeeProfileDto {
            persona: persona_block(e.archetype),
            employee: employee_dto(&e),
            department_name,
            manager_name,
            stamina: stamina_dto(stamina),
            memories,
            relationships,
            pending_tasks,
            spend_today_usd: mq::spent_by_employee(&self.db, employee_id, Some(day_start)).await?,
            spend_total_usd: mq::spent_by_employee(&self.db, employee_id, None).await?,
            thoughts,
        })
    }

    /// Who knows whom in the company, for the relationship graph (current staff only).
    pub async fn graph(&self) -> MindResult<RelationshipGraphDto> {
        let Some(company) = oq::find_company(&self.db).await? else {
            return Ok(RelationshipGraphDto {
                nodes: vec![],
                edges: vec![],
            });
        };
        let departments = oq::list_departments(&self.db, company.id).await?;
        let staff = oq::list_employees(&self.db, company.id, false).await?;
        let nodes: Vec<GraphNodeDto> = staff
            .iter()
            .map(|e| GraphNodeDto {
                id: e.id,
                name: e.name.clone(),
                title: e.title.clone(),
                department_id: e.department_id,
                department_name: e
                    .department_id
                    .and_then(|d| departments.iter().find(|x| x.id == d))
                    .map(|d| d.name.clone()),
            })
            .collect();
        let current = |id: i32| nodes.iter().any(|n| n.id == id);
        let edges = q::all_relationships(&self.db)
            .await?
            .into_iter()
            .filter(|r| current(r.employee_id) && current(r.other_employee_id))
            .map(|r| GraphEdgeDto {
                from: r.employee_id,
                to: r.other_employee_id,
                affinity: r.affinity,
                impression: r.impression,
            })
            .collect();
        Ok(RelationshipGraphDto { nodes, edges })
    }

    pub async fn relationships(&self, employee_id: i32) -> MindResult<Vec<RelationshipDto>> {
        let mut out = Vec::new();
        for r in q::relationships_of(&self.db, employee_id).await? {
            let other_name = oq::find_employee(&self.db, r.other_employee_id)
                .await?
                .map(|o| o.name)
                .unwrap_or_default();
            out.push(RelationshipDto {
                other_id: r.other_employee_id,
                other_name,
                impression: r.impression,
                affinity: r.affinity,
                interactions: r.interactions,
                updated_at: rfc3339(r.updated_at),
            });
        }
        Ok(out)
    }

    /// The boss deletes one memory (what the employee should not keep).
    pub async fn delete_memory(&self, id: i32) -> MindResult<()> {
        let m = q::find_memory(&self.db, id)
            .await?
            .ok_or(MindError::NotFound { what: "memory", id })?;
        q::delete_memory(&self.db, id).await?;
        self.changed(m.employee_id);
        Ok(())
    }

    /// The boss resets one relationship, or all of an employee's (SPEC §5).
    pub async fn reset_relationships(&self, input: ResetRelationships) -> MindResult<()> {
        if oq::find_employee(&self.db, input.employee_id)
            .await?
            .is_none()
        {
            return Err(MindError::NotFound {
                what: "employee",
                id: input.employee_id,
            });
        }
        match input.other_id {
            Some(other) => {
                q::delete_relationship(&self.db, input.employee_id, other).await?;
            }
            None => {
                q::delete_relationships_of(&self.db, input.employee_id).await?;
            }
        }
        self.changed(input.employee_id);
        Ok(())
    }

    // ---------- what the engine writes ----------

    pub async fn stamina(&self, employee_id: i32) -> Result<Stamina, DbErr> {
        Ok(q::employee_state(&self.db, employee_id)
            .await?
            .map(|s| Stamina::new(s.patience, s.fatigue, s.stress))
            .unwrap_or_default())
    }

    /// Applies a stamina event (SPEC §7) and returns the new state.
    pub async fn stamina_event(
        &self,
        employee_id: i32,
        event: StaminaEvent,
    ) -> Result<Stamina, DbErr> {
        let mut s = self.stamina(employee_id).await?;
        s.apply(event);
        q::upsert_employee_state(
            &self.db,
            employee_state::ActiveModel {
                employee_id: Set(employee_id),
                patience: Set(s.patience),
                fatigue: Set(s.fatigue),
                stress: Set(s.stress),
                updated_at: Set(self.clock.now()),
                ..Default::default()
            },
        )
        .await?;
        self.changed(employee_id);
        Ok(s)
    }

    /// What a thought leaves in the employee's gauges — the stamina its repeated
    /// messages cost — written in the caller's transaction (the end of a pending
    /// thought, SPEC §10; its mood is on the thought's own row). Announce it with
    /// [`Minds::announce`].
    pub(crate) async fn settle_in(
        conn: &impl cubicle_store::ConnectionTrait,
        employee_id: i32,
        repetitions: u32,
        now: DateTime<Utc>,
    ) -> Result<(), DbErr> {
        let mut s = q::employee_state(conn, employee_id)
            .await?
            .map(|s| Stamina::new(s.patience, s.fatigue, s.stress))
            .unwrap_or_default();
        for _ in 0..repetitions {
            s.apply(StaminaEvent::Repetition);
        }
        q::upsert_employee_state(
            conn,
            employee_state::ActiveModel {
                employee_id: Set(employee_id),
                patience: Set(s.patience),
                fatigue: Set(s.fatigue),
                stress: Set(s.stress),
                updated_at: Set(now),
                ..Default::default()
            },
        )
        .await?;
        Ok(())
    }

    /// Tells the app a thought was recorded (after the transaction that wrote it).
    pub(crate) fn announce(&self, row: &thought::Model) {
        self.bus.publish(DomainEvent::ThoughtRecorded {
            employee_id: row.employee_id,
            chat_id: row.chat_id,
        });
        self.changed(row.employee_id);
    }

    /// Adds a memory unless it repeats one already kept, then applies the caps: the
    /// least important long-term entries go; short-term entries beyond 20 are archived
    /// to long-term with lowered importance. `None` when it was a duplicate.
    pub async fn remember(
        &self,
        employee_id: i32,
        department_id: Option<i32>,
        m: NewMemory,
    ) -> Result<Option<i32>, DbErr> {
        let content = m.content.trim();
        if content.is_empty() {
            return Ok(None);
        }
        let existing = q::memories(&self.db, employee_id).await?;
        let texts: Vec<&str> = existing.iter().map(|e| e.content.as_str()).collect();
        if rules::is_duplicate(content, &texts) {
            return Ok(None);
        }
        let now = self.clock.now();
        let row = q::insert_memory(
            &self.db,
            memory::ActiveModel {
                id: NotSet,
                employee_id: Set(employee_id),
                kind: Set(m.kind),
                content: Set(content.chars().take(MEMORY_MAX_CHARS).collect()),
                importance: Set(rules::clamp_importance(
                    m.importance.unwrap_or(rules::DEFAULT_IMPORTANCE),
                )),
                visibility: Set(m.visibility),
                department_id: Set(department_id),
                requirement_id: Set(m.requirement_id),
                source_chat_id: Set(m.source_chat_id),
                expires_at: Set((m.kind == MemoryKind::ShortTerm)
                    .then(|| rules::short_term_expires_at(now, m.ttl_hours))),
                created_at: Set(now),
            },
        )
        .await?;
        self.enforce_caps(employee_id, now).await?;
        self.changed(employee_id);
        Ok(Some(row.id))
    }

    /// Forgets one of its own memories (a `delete` op); another's memory is never touched.
    pub async fn forget(&self, employee_id: i32, memory_id: i32) -> Result<bool, DbErr> {
        match q::find_memory(&self.db, memory_id).await? {
            Some(m) if m.employee_id == employee_id => {
                q::delete_memory(&self.db, memory_id).await?;
                self.changed(employee_id);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Archives expired short-term entries and applies the caps (the scheduler's
    /// memory-expiry wake-up). Returns when the next short-term entry expires.
    pub async fn expire(&self, employee_id: i32) -> Result<Option<DateTime<Utc>>, DbErr> {
        let now = self.clock.now();
        self.enforce_caps(employee_id, now).await?;
        let items = self.items(employee_id).await?;
        Ok(items
            .iter()
            .filter(|m| m.kind == MemoryKind::ShortTerm)
            .filter_map(|m| m.expires_at)
            .min())
    }

    async fn enforce_caps(&self, employee_id: i32, now: DateTime<Utc>) -> Result<(), DbErr> {
        let items = self.items(employee_id).await?;
        let short: Vec<MemoryItem> = items
            .iter()
            .filter(|m| m.kind == MemoryKind::ShortTerm)
            .cloned()
            .collect();
        let mut archive = rules::short_term_expired(&short, now);
        let live: Vec<MemoryItem> = short
            .iter()
            .filter(|m| !archive.contains(&m.id))
            .cloned()
            .collect();
        archive.extend(rules::short_term_overflow(&live));
        for id in &archive {
            if let Some(m) = short.iter().find(|m| m.id == *id) {
                q::update_memory_kind_importance(
                    &self.db,
                    m.id,
                    MemoryKind::LongTerm,
                    rules::archived_importance(m.importance),
                    None,
                )
                .await?;
            }
        }
        let long: Vec<MemoryItem> = self
            .items(employee_id)
            .await?
            .into_iter()
            .filter(|m| m.kind == MemoryKind::LongTerm)
            .collect();
        let evict = rules::long_term_evictions(&long);
        if !evict.is_empty() {
            q::delete_memories(&self.db, &evict).await?;
        }
        Ok(())
    }

    /// What the employee may recall in a chat: its own memories and what colleagues
    /// shared with its team or the company, filtered by visibility first, then ranked by
    /// relevance to `context` (importance, recency, keyword overlap), at most `cap`.
    pub async fn recall(
        &self,
        viewer: &Viewer,
        context: &str,
        cap: usize,
    ) -> Result<Vec<MemoryItem>, DbErr> {
        let mut items = self.items(viewer.employee_id).await?;
        items.extend(
            q::visible_memories_candidates_for(
                &self.db,
                viewer.employee_id,
                viewer.department_id,
                &viewer.requirement_ids,
            )
            .await?
            .iter()
            .map(memory_item),
        );
        let now = self.clock.now();
        Ok(rules::retrieve(&items, viewer, context, now, cap)
            .into_iter()
            .cloned()
            .collect())
    }

    /// Updates what `employee_id` thinks of `other_id`: the impression is clipped to
    /// 200 characters and affinity moves toward the model's number by at most 15.
    pub async fn relate(
        &self,
        employee_id: i32,
        other_id: i32,
        impression: Option<&str>,
        proposed_affinity: Option<i32>,
    ) -> Result<i32, DbErr> {
        let affinity = Self::relate_in(
            &self.db,
            employee_id,
            other_id,
            impression,
            proposed_affinity,
            self.clock.now(),
        )
        .await?;
        self.changed(employee_id);
        Ok(affinity)
    }

    /// [`Minds::relate`] once under `key` (a pending thought's effect, SPEC §10): the
    /// change and its key are one transaction, so an affinity step is never taken twice.
    /// `None` when it was taken before.
    pub async fn relate_keyed(
        &self,
        employee_id: i32,
        other_id: i32,
        impression: Option<&str>,
        proposed_affinity: Option<i32>,
        key: &str,
    ) -> Result<Option<i32>, DbErr> {
        let now = self.clock.now();
        let txn = self.db.begin_write().await?;
        if !cubicle_store::effect::claim(&txn, key, now).await? {
            return Ok(None);
        }
        let affinity = Self::relate_in(
            &txn,
            employee_id,
            other_id,
            impression,
            proposed_affinity,
            now,
        )
        .await?;
        txn.commit().await?;
        self.changed(employee_id);
        Ok(Some(affinity))
    }

    async fn relate_in(
        conn: &impl cubicle_store::ConnectionTrait,
        employee_id: i32,
        other_id: i32,
        impression: Option<&str>,
        proposed_affinity: Option<i32>,
        now: DateTime<Utc>,
    ) -> Result<i32, DbErr> {
        let before = q::relationship(conn, employee_id, other_id).await?;
        let current = before.as_ref().map_or(AFFINITY_DEFAULT, |r| r.affinity);
        let affinity = next_affinity(current, proposed_affinity.unwrap_or(current));
        let impression = match impression.map(clip_impression) {
            Some(i) if !i.is_empty() => i,
            _ => before.map(|r| r.impression).unwrap_or_default(),
        };
        q::upsert_relationship(conn, employee_id, other_id, &impression, affinity, now).await?;
        Ok(affinity)
    }

    /// Impressions `employee_id` holds of these colleagues (only those present).
    pub async fn impressions(
        &self,
        employee_id: i32,
        of: &[i32],
    ) -> Result<Vec<(i32, String, i32)>, DbErr> {
        Ok(q::relationships_of(&self.db, employee_id)
            .await?
            .into_iter()
            .filter(|r| of.contains(&r.other_employee_id))
            .map(|r| (r.other_employee_id, r.impression, r.affinity))
            .collect())
    }

    /// How many thoughts were had since `since`, and how many of them were dropped because
    /// the model's answer was unusable or the call failed.
    pub async fn thought_counts_since(&self, since: DateTime<Utc>) -> Result<ThoughtCounts, DbErr> {
        let rows = q::thoughts_since(&self.db, since).await?;
        let dropped = rows
            .iter()
            .filter(|t| {
                matches!(
                    t.silenced_by,
                    Some(SilenceReason::Malformed | SilenceReason::ModelError)
                )
            })
            .count();
        Ok(ThoughtCounts {
            total: rows.len() as u64,
            dropped: dropped as u64,
        })
    }

    pub async fn record_thought(&self, t: thought::ActiveModel) -> Result<thought::Model, DbErr> {
        let row = q::insert_thought(&self.db, t).await?;
        self.bus.publish(DomainEvent::ThoughtRecorded {
            employee_id: row.employee_id,
            chat_id: row.chat_id,
        });
        Ok(row)
    }

    async fn items(&self, employee_id: i32) -> Result<Vec<MemoryItem>, DbErr> {
        Ok(q::memories(&self.db, employee_id)
            .await?
            .iter()
            .map(memory_item)
            .collect())
    }

    fn changed(&self, employee_id: i32) {
        self.bus.publish(DomainEvent::MindChanged { employee_id });
    }
}

/// A memory longer than this is a document, not a memory.
pub const MEMORY_MAX_CHARS: usize = 500;

pub(crate) fn memory_item(m: &memory::Model) -> MemoryItem {
    MemoryItem {
        id: m.id,
        owner_id: m.employee_id,
        kind: m.kind,
        content: m.content.clone(),
        importance: m.importance,
        visibility: m.visibility,
        department_id: m.department_id,
        requirement_id: m.requirement_id,
        created_at: m.created_at,
        expires_at: m.expires_at,
    }
}

fn memory_dto(m: &memory::Model) -> MemoryDto {
    let item = memory_item(m);
    MemoryDto {
        id: m.id,
        kind: item.kind,
        content: item.content,
        importance: item.importance,
        visibility: item.visibility,
        expires_at: m.expires_at.map(rfc3339),
        created_at: rfc3339(m.created_at),
    }
}

pub fn stamina_dto(s: Stamina) -> StaminaDto {
    StaminaDto {
        patience: s.patience,
        fatigue: s.fatigue,
        stress: s.stress,
        comfort: s.comfort(),
        zone: s.zone(),
    }
}

/// Thoughts had over a span, and those the model could not carry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThoughtCounts {
    pub total: u64,
    pub dropped: u64,
}
