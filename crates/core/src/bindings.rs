//! Exports the TypeScript bindings of every type that crosses IPC to `ui/src/bindings/`.
//! `tests/bindings.rs` fails when the committed files are stale; regenerate with
//! `cargo run -p cubicle-cli -- dev export-bindings`.

use std::path::Path;

use ts_rs::{ExportError, TS};

use crate::chat::{ChatDto, ChatViewDto, CreateGroup, PostMessage};
use crate::dashboard::DashboardDto;
use crate::error::IpcError;
use crate::events::DomainEvent;
use crate::mailbox::{MailFilter, MailboxDto, SetMailStatus};
use crate::mind::profile::{EmployeeProfileDto, RelationshipGraphDto, ResetRelationships};
use crate::providers::ThoughtModelDto;
use crate::secretary::actions::HireEdits;
use crate::secretary::{Parse, SecretaryTurn};
use crate::types::*;

/// Writes one `.ts` file per type (and the types they reference) into `dir`.
pub fn export_all(dir: &Path) -> Result<(), ExportError> {
    let cfg = ts_rs::Config::new().with_out_dir(dir);
    OrgSnapshot::export_all(&cfg)?;
    RoleTemplateDto::export_all(&cfg)?;
    SetupCompany::export_all(&cfg)?;
    UpdateCompany::export_all(&cfg)?;
    NewDepartment::export_all(&cfg)?;
    RenameDepartment::export_all(&cfg)?;
    MoveDepartment::export_all(&cfg)?;
    DeleteDepartment::export_all(&cfg)?;
    SetDepartmentLead::export_all(&cfg)?;
    NewEmployee::export_all(&cfg)?;
    MoveEmployee::export_all(&cfg)?;
    SetManager::export_all(&cfg)?;
    FireEmployee::export_all(&cfg)?;
    SetEmployeeBackend::export_all(&cfg)?;
    IpcError::export_all(&cfg)?;
    DomainEvent::export_all(&cfg)?;
    Parse::export_all(&cfg)?;
    SecretaryTurn::export_all(&cfg)?;
    HireEdits::export_all(&cfg)?;
    PresetDto::export_all(&cfg)?;
    ProviderDto::export_all(&cfg)?;
    SaveProvider::export_all(&cfg)?;
    SetProviderKey::export_all(&cfg)?;
    ProviderRef::export_all(&cfg)?;
    TestProvider::export_all(&cfg)?;
    TestResult::export_all(&cfg)?;
    RouteDto::export_all(&cfg)?;
    SetRoute::export_all(&cfg)?;
    PriceDto::export_all(&cfg)?;
    SetPrice::export_all(&cfg)?;
    SetBudget::export_all(&cfg)?;
    SpendReport::export_all(&cfg)?;
    BuiltinStatus::export_all(&cfg)?;
    ConnectionDto::export_all(&cfg)?;
    SetBuiltinModel::export_all(&cfg)?;
    ThoughtModelDto::export_all(&cfg)?;
    ChatDto::export_all(&cfg)?;
    ChatViewDto::export_all(&cfg)?;
    PostMessage::export_all(&cfg)?;
    CreateGroup::export_all(&cfg)?;
    EmployeeProfileDto::export_all(&cfg)?;
    RelationshipGraphDto::export_all(&cfg)?;
    ResetRelationships::export_all(&cfg)?;
    MailFilter::export_all(&cfg)?;
    DashboardDto::export_all(&cfg)?;
    MailboxDto::export_all(&cfg)?;
    SetMailStatus::export_all(&cfg)?;
    crate::trace::TraceDto::export_all(&cfg)?;
    crate::trace::TraceSummaryDto::export_all(&cfg)?;
    crate::trace::TraceRef::export_all(&cfg)?;
    crate::work::board::BoardDto::export_all(&cfg)?;
    crate::work::board::SetRequirementStatus::export_all(&cfg)?;
    crate::work::board::SetReviewer::export_all(&cfg)?;
    crate::work::RequirementDto::export_all(&cfg)?;
    crate::work::deliverables::DeliverableRef::export_all(&cfg)?;
    crate::work::deliverables::DeliverableDto::export_all(&cfg)?;
    crate::work::TaskDto::export_all(&cfg)?;
    crate::meeting::view::MeetingViewDto::export_all(&cfg)?;
    crate::meeting::view::MeetingRef::export_all(&cfg)?;
    crate::approvals::ApprovalDto::export_all(&cfg)?;
    crate::models::LocalModelDto::export_all(&cfg)?;
    crate::models::LocalServerDto::export_all(&cfg)?;
    crate::models::AddLocalServer::export_all(&cfg)?;
    crate::models::LocalModelRef::export_all(&cfg)?;
    crate::models::UseLocalModelFor::export_all(&cfg)?;
    crate::approvals::ApprovalFilter::export_all(&cfg)?;
    crate::approvals::DecideApproval::export_all(&cfg)?;
    crate::approvals::DecideApprovals::export_all(&cfg)?;
    crate::approvals::DecisionResult::export_all(&cfg)?;
    crate::approvals::WebhookDestinations::export_all(&cfg)?;
    crate::approvals::DecidedVia::export_all(&cfg)?;
    crate::bundle::ImportReport::export_all(&cfg)?;
    crate::bundle::SavedBundle::export_all(&cfg)?;
    crate::approvals::ToolCallDto::export_all(&cfg)?;
    crate::tools::ToolSpec::export_all(&cfg)?;
    crate::approvals::EmployeeToolsDto::export_all(&cfg)?;
    crate::approvals::SetEmployeeTools::export_all(&cfg)?;
    crate::imported::ImportedToConfirm::export_all(&cfg)?;
    crate::imported::ConfirmImported::export_all(&cfg)?;
    crate::inputs::ChatRef::export_all(&cfg)?;
    crate::inputs::EmployeeRef::export_all(&cfg)?;
    crate::inputs::MemoryRef::export_all(&cfg)?;
    crate::inputs::SetNetworkAccess::export_all(&cfg)?;
    crate::inputs::SecretarySay::export_all(&cfg)?;
    crate::inputs::SecretaryActionRef::export_all(&cfg)?;
    crate::inputs::SecretaryConfirm::export_all(&cfg)?;
    Ok(())
}
