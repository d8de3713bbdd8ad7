//! The domain event bus: every committed change is announced here, once.

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;
use ts_rs::TS;

/// One committed change. Internally tagged so the UI can switch on `type`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum DomainEvent {
    CompanyUpdated {
        company_id: i32,
    },
    DepartmentCreated {
        department_id: i32,
    },
    DepartmentUpdated {
        department_id: i32,
    },
    DepartmentDeleted {
        department_id: i32,
    },
    EmployeeHired {
        employee_id: i32,
    },
    EmployeeUpdated {
        employee_id: i32,
    },
    EmployeeFired {
        employee_id: i32,
    },
    /// A person was invited, changed (their duties too) or removed.
    PeopleChanged {
        person_id: i32,
    },
    /// A person's conversation with their proxy got new lines.
    ProxyConversation {
        person_id: i32,
    },
    /// Tasks or requirements were created or withdrawn.
    WorkChanged,
    /// A message was posted in a chat.
    ChatMessagePosted {
        chat_id: i32,
        message_id: i32,
    },
    /// A chat was created or removed, or its members changed.
    ChatChanged {
        chat_id: i32,
    },
    /// The boss read a chat up to its latest message.
    ChatRead {
        chat_id: i32,
    },
    /// An employee had a thought (spoken or not).
    ThoughtRecorded {
        employee_id: i32,
        chat_id: Option<i32>,
    },
    /// An employee's memories, relationships or stamina changed.
    MindChanged {
        employee_id: i32,
    },
    /// The mailbox gained an item or an item changed status.
    MailChanged,
    /// The secretary's reply so far, while its model writes it (`text` is all of it
    /// until now, so a missed event loses nothing). The finished turn is the source of truth.
    SecretaryReplyDelta {
        stream_id: u32,
        text: String,
    },
    /// Providers, keys, routes or prices changed.
    ProvidersChanged,
    /// New rows in the cost ledger.
    SpendRecorded,
    /// A model call was refused because today's budget is spent.
    BudgetExceeded {
        spent_usd: f64,
        budget_usd: f64,
    },
    /// Something was refused or stopped that only the boss can fix (a webhook host, a
    /// tool list, the day's budget) and its mail, with the one place that fixes it, was
    /// just filed — once a day per employee and cause: raise a desktop notification
    /// that opens that place.
    FixNeeded {
        mail_id: i32,
    },
    /// An employee's action waits for the boss (SPEC §8): raise the notification.
    ApprovalRequested {
        approval_id: i32,
    },
    /// An approval was approved, rejected or expired, or its action finished running.
    ApprovalDecided {
        approval_id: i32,
    },
    /// A catalogue model's download moved on (at most 4 times a second while bytes flow),
    /// finished, failed, or the model was installed, removed or put to use.
    LocalModelChanged {
        model_id: String,
    },
}

/// Slow subscribers lag (and are told so) rather than slowing the writer down.
const BUS_CAPACITY: usize = 1024;

#[derive(Clone, Debug)]
pub struct EventBus {
    tx: broadcast::Sender<DomainEvent>,
}

impl Default for EventBus {
    fn default() -> Self {
        Self::new()
    }
}

impl EventBus {
    pub fn new() -> Self {
        let (tx, _) = broadcast::channel(BUS_CAPACITY);
        Self { tx }
    }

    /// Announces a committed change. Having no subscriber is normal (the CLI).
    pub fn publish(&self, event: DomainEvent) {
        tracing::debug!(?event, "domain event");
        let _ = self.tx.send(event);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<DomainEvent> {
        self.tx.subscribe()
    }
}
