//! Exports the TypeScript bindings of every type that crosses IPC to `ui/src/bindings/`.
//! `tests/bindings.rs` fails when the committed files are stale; regenerate with
//! `cargo run -p cubicle-cli -- dev export-bindings`.

use std::path::Path;

use ts_rs::{Config, ExportError, TS};

use crate::app::{ConnectionDto, ConnectionSource};
use crate::chat::{ChatDto, ChatViewDto, CreateGroup, PostMessage};
use crate::dashboard::DashboardDto;
use crate::error::IpcError;
use crate::events::DomainEvent;
use crate::mailbox::{MailFilter, MailboxDto, SetMailStatus};
use crate::mind::minds::{EmployeeProfileDto, RelationshipGraphDto, ResetRelationships};
use crate::org::{
    DeleteDepartment, FireEmployee, MoveDepartment, MoveEmployee, NewDepartment, NewEmployee,
    OrgSnapshot, RenameDepartment, RoleTemplateDto, SetBudget, SetDepartmentLead,
    SetEmployeeBackend, SetManager, SetupCompany, UpdateCompany,
};
use crate::providers::ThoughtModelDto;
use crate::providers::{
    BuiltinStatus, PresetDto, PriceDto, ProviderDto, ProviderRef, RouteDto, SaveProvider,
    SetBuiltinModel, SetPrice, SetProviderKey, SetRoute, SpendReport, TestProvider, TestResult,
};
use crate::secretary::actions::HireEdits;
use crate::secretary::{Parse, SecretaryTurn};
use crate::sign_in::{ServerSignIn, SignedIn};

/// Writes one `.ts` file per type (and the types they reference) into `dir`, and the
/// tools' words as data (`toolTable.ts`, from [`crate::types::tool_name::words_module`]).
pub fn export_all(dir: &Path) -> Result<(), ExportError> {
    let cfg = Config::new().with_out_dir(dir);
    EXPORTS.iter().try_for_each(|export| export(&cfg))?;
    std::fs::write(
        dir.join("toolTable.ts"),
        crate::types::tool_name::words_module(),
    )?;
    Ok(())
}

/// Exports one type and the types it references.
type Export = fn(&Config) -> Result<(), ExportError>;

/// Every type that crosses IPC.
const EXPORTS: &[Export] = &[
    OrgSnapshot::export_all,
    RoleTemplateDto::export_all,
    SetupCompany::export_all,
    UpdateCompany::export_all,
    NewDepartment::export_all,
    RenameDepartment::export_all,
    MoveDepartment::export_all,
    DeleteDepartment::export_all,
    SetDepartmentLead::export_all,
    NewEmployee::export_all,
    MoveEmployee::export_all,
    SetManager::export_all,
    FireEmployee::export_all,
    SetEmployeeBackend::export_all,
    IpcError::export_all,
    DomainEvent::export_all,
    Parse::export_all,
    SecretaryTurn::export_all,
    HireEdits::export_all,
    PresetDto::export_all,
    ProviderDto::export_all,
    SaveProvider::export_all,
    SetProviderKey::export_all,
    ProviderRef::export_all,
    TestProvider::export_all,
    TestResult::export_all,
    RouteDto::export_all,
    SetRoute::export_all,
    PriceDto::export_all,
    SetPrice::export_all,
    SetBudget::export_all,
    SpendReport::export_all,
    BuiltinStatus::export_all,
    ConnectionDto::export_all,
    ConnectionSource::export_all,
    ServerSignIn::export_all,
    SignedIn::export_all,
    SetBuiltinModel::export_all,
    ThoughtModelDto::export_all,
    ChatDto::export_all,
    ChatViewDto::export_all,
    PostMessage::export_all,
    CreateGroup::export_all,
    EmployeeProfileDto::export_all,
    RelationshipGraphDto::export_all,
    crate::proxy::ProxyCard::export_all,
    crate::proxy::ProxyLineDto::export_all,
    crate::proxy::ProxyTurn::export_all,
    crate::proxy::WrittenLine::export_all,
    crate::proxy::SayToProxy::export_all,
    crate::proxy::CorrectProxyLine::export_all,
    crate::roles::RoleCardDto::export_all,
    crate::roles::SaveRoleCard::export_all,
    crate::roles::DuplicateRoleCard::export_all,
    crate::roles::RoleCardRef::export_all,
    crate::roles::RosterUpload::export_all,
    crate::roles::RoleImport::export_all,
    crate::roles::RoleExport::export_all,
    crate::people::PersonDto::export_all,
    crate::people::NewPerson::export_all,
    crate::people::UpdatePerson::export_all,
    crate::people::PersonRef::export_all,
    crate::people::DeskUser::export_all,
    crate::people::UseDeskAs::export_all,
    crate::people::Approver::export_all,
    ResetRelationships::export_all,
    MailFilter::export_all,
    DashboardDto::export_all,
    MailboxDto::export_all,
    SetMailStatus::export_all,
    crate::trace::TraceDto::export_all,
    crate::trace::TraceSummaryDto::export_all,
    crate::trace::TraceRef::export_all,
    crate::work::board::BoardDto::export_all,
    crate::work::board::SetRequirementStatus::export_all,
    crate::work::board::SetReviewer::export_all,
    crate::work::RequirementDto::export_all,
    crate::work::deliverables::DeliverableRef::export_all,
    crate::work::deliverables::DeliverableDto::export_all,
    crate::work::TaskDto::export_all,
    crate::meeting::view::MeetingViewDto::export_all,
    crate::meeting::view::MeetingRef::export_all,
    crate::approvals::ApprovalDto::export_all,
    crate::models::LocalModelDto::export_all,
    crate::models::LocalServerDto::export_all,
    crate::models::AddLocalServer::export_all,
    crate::models::LocalModelRef::export_all,
    crate::models::UseLocalModelFor::export_all,
    crate::approvals::ApprovalFilter::export_all,
    crate::approvals::DecideApproval::export_all,
    crate::approvals::DecideApprovals::export_all,
    crate::approvals::DecisionResult::export_all,
    crate::approvals::WebhookDestinations::export_all,
    crate::approvals::DecidedVia::export_all,
    crate::bundle::ImportReport::export_all,
    crate::bundle::SavedBundle::export_all,
    crate::approvals::ToolCallDto::export_all,
    crate::tools::ToolSpec::export_all,
    crate::types::ToolName::export_all,
    crate::types::ToolWords::export_all,
    crate::approvals::EmployeeToolsDto::export_all,
    crate::approvals::SetEmployeeTools::export_all,
    crate::imported::ImportedToConfirm::export_all,
    crate::imported::ConfirmImported::export_all,
    crate::inputs::ChatRef::export_all,
    crate::inputs::EmployeeRef::export_all,
    crate::inputs::MemoryRef::export_all,
    crate::inputs::SetNetworkAccess::export_all,
    crate::inputs::SecretarySay::export_all,
    crate::inputs::SecretaryActionRef::export_all,
    crate::inputs::SecretaryConfirm::export_all,
];
