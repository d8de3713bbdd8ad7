//! What a thought's ops come to before anything touches the database (SPEC §4, §5, §6,
//! §8): the model's loose JSON, already parsed into a [`Thought`], becomes a plan whose
//! every value is within the rules — importance 1–10, affinity 1–100, a short-term TTL of
//! at most a month, texts cut to what is stored, at most three tool calls and none of
//! them approved. Pure, so a fuzzer can throw hostile thoughts at it; `ops::apply_ops`
//! carries the plan out.

use std::collections::HashMap;

use cubicle_store::entity::employee;

use crate::mind::memory_rules::{self, MemoryKind, Visibility};
use crate::mind::minds::MEMORY_MAX_CHARS;
use crate::mind::relationship_rules::{AFFINITY_MAX, AFFINITY_MIN, clip_impression};
use crate::mind::thought::{
    MemoryOp, MemoryVerb, RelationshipOp, TaskOp, TaskVerb, Thought, ToolCallOp,
};
use crate::tools::ToolCall;
use crate::types::read_name;
use crate::work::{TaskKind, clip_task_text};

/// Tool calls one thought may make.
pub const MAX_TOOL_CALLS: usize = 3;

/// The rolling chat summary is a paragraph, not a transcript.
pub const SUMMARY_MAX_CHARS: usize = 600;

/// Everything a thought asks for besides speaking, in the order it asked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpsPlan {
    pub memory: Vec<MemoryPlan>,
    pub relationships: Vec<RelationshipPlan>,
    pub tasks: Vec<TaskPlan>,
    /// Requests only: each goes through the approval policy (SPEC §8, fail closed).
    pub tool_calls: Vec<ToolCall>,
    /// The new rolling summary of the chat, trimmed and cut.
    pub summary: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MemoryPlan {
    Add {
        kind: MemoryKind,
        /// Trimmed, non-empty, at most [`MEMORY_MAX_CHARS`] characters.
        content: String,
        /// 1–10.
        importance: i32,
        /// Short-term lifetime, 1 h to a month; `None` is the default TTL.
        ttl_hours: Option<i64>,
        visibility: Visibility,
    },
    Delete {
        id: i32,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct RelationshipPlan {
    /// A current colleague, never the thinker.
    pub other: i32,
    /// Clipped to the stored length; `None` keeps the old impression.
    pub impression: Option<String>,
    /// The affinity proposed, 1–100 (the step toward it is bounded when applied).
    pub affinity: Option<i32>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TaskPlan {
    Create {
        /// Non-empty, cut to the stored length.
        description: String,
        kind: TaskKind,
        condition: Option<String>,
        /// As the model wrote it (`#chat`, a colleague, the boss); resolved when applied.
        report_to: Option<String>,
        /// The colleague the thinker gives this task to (never the thinker); whether it
        /// may is decided when applied (a requirement's owner, in its group).
        assignee: Option<i32>,
    },
    Finish {
        id: i32,
        resolved: bool,
        result: Option<String>,
    },
}

/// The plan for thought `t` of employee `me`, with `staff` for resolving colleagues.
pub fn plan(t: &Thought, me: i32, staff: &HashMap<i32, employee::Model>) -> OpsPlan {
    OpsPlan {
        memory: t.memory_ops.iter().filter_map(memory_plan).collect(),
        relationships: t
            .relationship_ops
            .iter()
            .filter_map(|op| relationship_plan(op, me, staff))
            .collect(),
        tasks: t
            .task_ops
            .iter()
            .filter_map(|op| task_plan(op, me, staff))
            .collect(),
        // Whatever the thought claims, a tool call is a request: `ToolCall` has no way to
        // say it was approved, and nobody has backed it yet.
        tool_calls: t
            .tool_calls
            .iter()
            .take(MAX_TOOL_CALLS)
            .filter_map(tool_call)
            .collect(),
        summary: t
            .memory_summary
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.chars().take(SUMMARY_MAX_CHARS).collect()),
    }
}

/// A memory to add (non-empty, within bounds) or one to delete; `None` for anything else.
fn memory_plan(op: &MemoryOp) -> Option<MemoryPlan> {
    match op.op {
        MemoryVerb::Add => {
            let content = op.content.as_deref().unwrap_or_default().trim();
            if content.is_empty() {
                return None;
            }
            let kind = read_name(&op.kind).unwrap_or(MemoryKind::ShortTerm);
            Some(MemoryPlan::Add {
                kind,
                content: content.chars().take(MEMORY_MAX_CHARS).collect(),
                importance: memory_rules::clamp_importance(
                    op.importance
                        .map_or(memory_rules::DEFAULT_IMPORTANCE, |i| i.round() as i32),
                ),
                ttl_hours: op
                    .ttl
                    .map(|h| (h.round() as i64).clamp(1, memory_rules::MAX_SHORT_TERM_TTL_HOURS)),
                visibility: op
                    .visibility
                    .as_deref()
                    .and_then(read_name)
                    .unwrap_or(Visibility::Private),
            })
        }
        MemoryVerb::Delete => op
            .id
            .and_then(|i| i32::try_from(i).ok())
            .map(|id| MemoryPlan::Delete { id }),
        MemoryVerb::Unknown(_) => None,
    }
}

/// A new view of a current colleague (by id, else by name), never of the thinker.
fn relationship_plan(
    op: &RelationshipOp,
    me: i32,
    staff: &HashMap<i32, employee::Model>,
) -> Option<RelationshipPlan> {
    let target = op
        .employee_id
        .and_then(|i| i32::try_from(i).ok())
        .filter(|id| staff.get(id).is_some_and(|e| e.fired_at.is_none()))
        .or_else(|| op.name.as_deref().and_then(|n| find_by_name(staff, n)));
    let other = target.filter(|id| *id != me)?;
    Some(RelationshipPlan {
        other,
        impression: op
            .impression
            .as_deref()
            .map(clip_impression)
            .filter(|i| !i.is_empty()),
        affinity: op
            .affinity
            .map(|a| (a.round() as i32).clamp(AFFINITY_MIN, AFFINITY_MAX)),
    })
}

/// A task to create (with a description) or one to resolve or fail; `None` otherwise.
fn task_plan(op: &TaskOp, me: i32, staff: &HashMap<i32, employee::Model>) -> Option<TaskPlan> {
    match op.op {
        TaskVerb::Create => {
            let d = op.description.as_deref().filter(|d| !d.trim().is_empty())?;
            Some(TaskPlan::Create {
                description: clip_task_text(d),
                kind: op.kind.as_deref().and_then(read_name).unwrap_or_default(),
                condition: op
                    .condition
                    .as_deref()
                    .filter(|c| !c.trim().is_empty())
                    .map(clip_task_text),
                report_to: op.report_to.clone(),
                assignee: op
                    .assignee
                    .as_deref()
                    .and_then(|n| find_by_name(staff, n))
                    .filter(|id| *id != me),
            })
        }
        TaskVerb::Resolve | TaskVerb::Fail => {
            let id = op.id.and_then(|i| i32::try_from(i).ok())?;
            Some(TaskPlan::Finish {
                id,
                resolved: op.op == TaskVerb::Resolve,
                result: op.result.as_deref().map(clip_task_text),
            })
        }
        TaskVerb::Unknown(_) => None,
    }
}

/// A request to run a named tool; `None` when no tool is named.
pub(super) fn tool_call(call: &ToolCallOp) -> Option<ToolCall> {
    let tool = call.tool.trim();
    if tool.is_empty() {
        return None;
    }
    Some(ToolCall::new(
        tool,
        serde_json::Value::Object(call.args.clone()),
        &call.reason,
    ))
}

/// A colleague by name: exact (any case), then first name, then a unique prefix.
pub fn find_by_name(staff: &HashMap<i32, employee::Model>, name: &str) -> Option<i32> {
    let n = name.trim().to_lowercase();
    if n.is_empty() {
        return None;
    }
    let current: Vec<&employee::Model> = staff.values().filter(|e| e.fired_at.is_none()).collect();
    if let Some(e) = current.iter().find(|e| e.name.to_lowercase() == n) {
        return Some(e.id);
    }
    let first: Vec<&&employee::Model> = current
        .iter()
        .filter(|e| {
            e.name
                .split_whitespace()
                .next()
                .is_some_and(|f| f.to_lowercase() == n)
        })
        .collect();
    if let [one] = first.as_slice() {
        return Some(one.id);
    }
    let prefix: Vec<&&employee::Model> = current
        .iter()
        .filter(|e| e.name.to_lowercase().starts_with(&n))
        .collect();
    match prefix.as_slice() {
        [one] => Some(one.id),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An op whose verb the model made up is read as `Unknown` and dropped alone: the
    /// thought still parses, and the ops beside it still count.
    #[test]
    fn an_unknown_op_drops_alone_and_its_neighbours_stand() {
        let t: Thought = serde_json::from_value(serde_json::json!({
            "shouldSpeak": false,
            "memoryOps": [
                {"op": "forget", "type": "long_term", "content": "the old plan"},
                {"op": "add", "type": "long_term", "content": "likes tea", "importance": 6},
                {"op": "Add", "content": "a verb in the wrong case is no verb"}
            ],
            "taskOps": [
                {"op": "explode", "id": 2},
                {"op": "resolve", "id": 3, "result": "done"},
                {"description": "no op at all"}
            ]
        }))
        .expect("one bad op does not fail the thought");
        assert_eq!(t.memory_ops[0].op, MemoryVerb::Unknown("forget".to_owned()));
        assert_eq!(t.task_ops[0].op, TaskVerb::Unknown("explode".to_owned()));
        assert_eq!(t.task_ops[2].op, TaskVerb::default());

        let p = plan(&t, 1, &HashMap::new());
        assert_eq!(
            p.memory,
            [MemoryPlan::Add {
                kind: MemoryKind::LongTerm,
                content: "likes tea".to_owned(),
                importance: 6,
                ttl_hours: None,
                visibility: Visibility::Private,
            }]
        );
        assert_eq!(
            p.tasks,
            [TaskPlan::Finish {
                id: 3,
                resolved: true,
                result: Some("done".to_owned()),
            }]
        );
        // Written back as the model wrote it.
        assert_eq!(
            serde_json::to_value(&t.task_ops[0].op).unwrap(),
            serde_json::json!("explode")
        );
        assert_eq!(
            serde_json::to_value(TaskVerb::Fail).unwrap(),
            serde_json::json!("fail")
        );
    }
}
