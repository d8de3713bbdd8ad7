// The only module (with ./events) that talks to the Rust backend. Names and argument
// shapes follow the IPC contract: each mutating command takes one argument named `input`.
import { invoke } from "@tauri-apps/api/core";
import type { CompanyDto } from "../bindings/CompanyDto";
import type { DeleteDepartment } from "../bindings/DeleteDepartment";
import type { DepartmentDto } from "../bindings/DepartmentDto";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { FireEmployee } from "../bindings/FireEmployee";
import type { MoveDepartment } from "../bindings/MoveDepartment";
import type { MoveEmployee } from "../bindings/MoveEmployee";
import type { NewDepartment } from "../bindings/NewDepartment";
import type { NewEmployee } from "../bindings/NewEmployee";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { RenameDepartment } from "../bindings/RenameDepartment";
import type { RoleTemplateDto } from "../bindings/RoleTemplateDto";
import type { SetDepartmentLead } from "../bindings/SetDepartmentLead";
import type { SetEmployeeBackend } from "../bindings/SetEmployeeBackend";
import type { SetManager } from "../bindings/SetManager";
import type { SetupCompany } from "../bindings/SetupCompany";
import type { UpdateCompany } from "../bindings/UpdateCompany";
import type { ActionDto } from "../bindings/ActionDto";
import type { HireEdits } from "../bindings/HireEdits";
import type { SecretaryMessageDto } from "../bindings/SecretaryMessageDto";
import type { SecretaryTurn } from "../bindings/SecretaryTurn";
import type { BuiltinStatus } from "../bindings/BuiltinStatus";
import type { ConnectionDto } from "../bindings/ConnectionDto";
import type { PresetDto } from "../bindings/PresetDto";
import type { PriceDto } from "../bindings/PriceDto";
import type { ProviderDto } from "../bindings/ProviderDto";
import type { ProviderRef } from "../bindings/ProviderRef";
import type { RouteDto } from "../bindings/RouteDto";
import type { SaveProvider } from "../bindings/SaveProvider";
import type { SetBuiltinModel } from "../bindings/SetBuiltinModel";
import type { ThoughtModelDto } from "../bindings/ThoughtModelDto";
import type { SetBudget } from "../bindings/SetBudget";
import type { SetPrice } from "../bindings/SetPrice";
import type { SetProviderKey } from "../bindings/SetProviderKey";
import type { SetRoute } from "../bindings/SetRoute";
import type { SpendReport } from "../bindings/SpendReport";
import type { TestProvider } from "../bindings/TestProvider";
import type { TestResult } from "../bindings/TestResult";
import type { ChatDto } from "../bindings/ChatDto";
import type { ChatMessageDto } from "../bindings/ChatMessageDto";
import type { ChatViewDto } from "../bindings/ChatViewDto";
import type { CreateGroup } from "../bindings/CreateGroup";
import type { EmployeeProfileDto } from "../bindings/EmployeeProfileDto";
import type { PostMessage } from "../bindings/PostMessage";
import type { RelationshipGraphDto } from "../bindings/RelationshipGraphDto";
import type { ResetRelationships } from "../bindings/ResetRelationships";
import type { MailboxDto } from "../bindings/MailboxDto";
import type { MailFilter } from "../bindings/MailFilter";
import type { SetMailStatus } from "../bindings/SetMailStatus";
import type { DashboardDto } from "../bindings/DashboardDto";
import type { TraceSummaryDto } from "../bindings/TraceSummaryDto";
import type { TraceDto } from "../bindings/TraceDto";
import type { TraceRef } from "../bindings/TraceRef";
import type { BoardDto } from "../bindings/BoardDto";
import type { RequirementDto } from "../bindings/RequirementDto";
import type { SetRequirementStatus } from "../bindings/SetRequirementStatus";
import type { SetReviewer } from "../bindings/SetReviewer";
import type { DeliverableDto } from "../bindings/DeliverableDto";
import type { DeliverableRef } from "../bindings/DeliverableRef";
import type { MeetingRef } from "../bindings/MeetingRef";
import type { MeetingViewDto } from "../bindings/MeetingViewDto";
import type { ApprovalDto } from "../bindings/ApprovalDto";
import type { ApprovalFilter } from "../bindings/ApprovalFilter";
import type { DecideApproval } from "../bindings/DecideApproval";
import type { DecideApprovals } from "../bindings/DecideApprovals";
import type { DecisionResult } from "../bindings/DecisionResult";
import type { WebhookDestinations } from "../bindings/WebhookDestinations";
import type { EmployeeToolsDto } from "../bindings/EmployeeToolsDto";
import type { SetEmployeeTools } from "../bindings/SetEmployeeTools";
import type { ImportReport } from "../bindings/ImportReport";
import type { SavedBundle } from "../bindings/SavedBundle";
import type { AddLocalServer } from "../bindings/AddLocalServer";
import type { LocalModelDto } from "../bindings/LocalModelDto";
import type { LocalModelRef } from "../bindings/LocalModelRef";
import type { UseLocalModelFor } from "../bindings/UseLocalModelFor";
import type { LocalServerDto } from "../bindings/LocalServerDto";
import type { ConfirmImported } from "../bindings/ConfirmImported";
import type { ImportedToConfirm } from "../bindings/ImportedToConfirm";

export const api = {
  getOrg: () => invoke<OrgSnapshot>("get_org"),
  listRoleTemplates: () => invoke<RoleTemplateDto[]>("list_role_templates"),
  setupCompany: (input: SetupCompany) => invoke<CompanyDto>("setup_company", { input }),
  updateCompany: (input: UpdateCompany) => invoke<CompanyDto>("update_company", { input }),
  createDepartment: (input: NewDepartment) => invoke<DepartmentDto>("create_department", { input }),
  renameDepartment: (input: RenameDepartment) => invoke<DepartmentDto>("rename_department", { input }),
  moveDepartment: (input: MoveDepartment) => invoke<DepartmentDto>("move_department", { input }),
  deleteDepartment: (input: DeleteDepartment) => invoke<null>("delete_department", { input }),
  setDepartmentLead: (input: SetDepartmentLead) => invoke<DepartmentDto>("set_department_lead", { input }),
  hireEmployee: (input: NewEmployee) => invoke<EmployeeDto>("hire_employee", { input }),
  moveEmployee: (input: MoveEmployee) => invoke<EmployeeDto>("move_employee", { input }),
  setManager: (input: SetManager) => invoke<EmployeeDto>("set_manager", { input }),
  fireEmployee: (input: FireEmployee) => invoke<EmployeeDto>("fire_employee", { input }),
  /** The employee's own provider + model; `provider: null` (or "") goes back to the company default. */
  setEmployeeBackend: (input: SetEmployeeBackend) => invoke<EmployeeDto>("set_employee_backend", { input }),

  // Settings: model providers, routes, prices, budget, spend.
  listPresets: () => invoke<PresetDto[]>("list_presets"),
  listProviders: () => invoke<ProviderDto[]>("list_providers"),
  saveProvider: (input: SaveProvider) => invoke<ProviderDto>("save_provider", { input }),
  deleteProvider: (input: ProviderRef) => invoke<null>("delete_provider", { input }),
  /**
   * The one place an API key crosses IPC, towards the backend only. Callers pass it straight
   * from the input element: never keep it in React state, a query/mutation cache, or a log.
   */
  setProviderKey: (input: SetProviderKey) => invoke<ProviderDto>("set_provider_key", { input }),
  deleteProviderKey: (input: ProviderRef) => invoke<ProviderDto>("delete_provider_key", { input }),
  testProvider: (input: TestProvider) => invoke<TestResult>("test_provider", { input }),
  builtinStatus: () => invoke<BuiltinStatus>("builtin_status"),
  /** Whether the company lives on a shared server (`host:port/database`, never credentials). */
  connection: () => invoke<ConnectionDto>("connection"),
  /** Another GGUF file for the built-in model; `path: null` goes back to the bundled one. */
  setBuiltinModel: (input: SetBuiltinModel) => invoke<BuiltinStatus>("set_builtin_model", { input }),
  getRoutes: () => invoke<RouteDto[]>("get_routes"),
  /** Which model answers the employees' thoughts: the company's route, and who is on the bundled model. */
  thoughtModel: () => invoke<ThoughtModelDto>("thought_model"),
  setRoute: (input: SetRoute) => invoke<RouteDto>("set_route", { input }),
  listPrices: () => invoke<PriceDto[]>("list_prices"),
  setPrice: (input: SetPrice) => invoke<PriceDto>("set_price", { input }),
  setBudget: (input: SetBudget) => invoke<CompanyDto>("set_budget", { input }),
  getSpend: () => invoke<SpendReport>("get_spend"),

  // Local models: the catalogue with each model's state; downloads report progress as `local_model_changed`.
  listLocalModels: () => invoke<LocalModelDto[]>("list_local_models"),
  /** Starts or resumes a download (a running or installed model is left as it is). */
  startModelDownload: (input: LocalModelRef) => invoke<LocalModelDto>("start_model_download", { input }),
  /** Stops a running download and keeps its bytes for a resume. */
  pauseModelDownload: (input: LocalModelRef) => invoke<LocalModelDto>("pause_model_download", { input }),
  /** Stops a download and deletes its partial file. */
  cancelModelDownload: (input: LocalModelRef) => invoke<LocalModelDto>("cancel_model_download", { input }),
  /** An installed (verified) model becomes the built-in model. */
  useLocalModel: (input: LocalModelRef) => invoke<BuiltinStatus>("use_local_model", { input }),
  /** One kind of work (employees' thoughts) to an installed model; the built-in model keeps the rest. */
  useLocalModelFor: (input: UseLocalModelFor) => invoke<RouteDto>("use_local_model_for", { input }),
  /** Ollama, LM Studio or llama.cpp servers answering on their default ports. */
  detectLocalServers: () => invoke<LocalServerDto[]>("detect_local_servers"),
  addLocalServer: (input: AddLocalServer) => invoke<ProviderDto>("add_local_server", { input }),

  // The secretary: the boss talks, proposals come back as action cards that change nothing until confirmed.
  /** The conversation, oldest first (the last 200 messages). */
  secretaryHistory: () => invoke<SecretaryMessageDto[]>("secretary_history"),
  /** One turn: the boss's message and the secretary's reply (written in the company's language). */
  secretarySay: (input: SecretarySay) => invoke<SecretaryTurn>("secretary_say", { input }),
  /** Applies a proposed action (a hire may carry the boss's edits): `applied` with a diff, or `failed`. */
  secretaryConfirm: (input: SecretaryConfirm) => invoke<ActionDto>("secretary_confirm", { input }),
  secretaryCancel: (input: SecretaryActionRef) => invoke<ActionDto>("secretary_cancel", { input }),
  /** Reverses an applied action; `invalid_input` once its undo window has passed. */
  secretaryUndo: (input: SecretaryActionRef) => invoke<ActionDto>("secretary_undo", { input }),

  // Chats: the boss reads every chat, posts in any of them, and may peek at the members' inner thoughts.
  /** Every chat, the most recently active first, each with the boss's unread count. */
  listChats: () => invoke<ChatDto[]>("list_chats"),
  /** One chat: its last 200 messages and its members' thoughts about it, both oldest first. */
  chatView: (input: ChatRef) => invoke<ChatViewDto>("chat_view", { input }),
  /** The boss posts (at most 4000 characters; `invalid_input` when empty). Posting also marks the chat read. */
  postMessage: (input: PostMessage) => invoke<ChatMessageDto>("post_message", { input }),
  markChatRead: (input: ChatRef) => invoke<null>("mark_chat_read", { input }),
  /** The boss's 1:1 chat with an employee, created on first use. */
  openBossChat: (input: EmployeeRef) => invoke<ChatDto>("open_boss_chat", { input }),
  createGroup: (input: CreateGroup) => invoke<ChatDto>("create_group", { input }),

  // Minds: what an employee remembers, feels and thinks of the others.
  employeeProfile: (input: EmployeeRef) => invoke<EmployeeProfileDto>("employee_profile", { input }),
  deleteMemory: (input: MemoryRef) => invoke<null>("delete_memory", { input }),
  /** One relationship (`otherId`), or all of the employee's (`otherId: null`). */
  resetRelationships: (input: ResetRelationships) => invoke<null>("reset_relationships", { input }),
  relationshipGraph: () => invoke<RelationshipGraphDto>("relationship_graph"),

  // The mailbox: reports, escalations and budget stops addressed to the boss.
  /**
   * The newest first (at most 500); each filter applies when set, and `status: null` is everything but
   * the archive. `unread` counts the whole mailbox, whatever the filter.
   */
  listMail: (input: MailFilter) => invoke<MailboxDto>("list_mail", { input }),
  /** Unread, read or archived; `not_found` for an unknown item. */
  setMailStatus: (input: SetMailStatus) => invoke<null>("set_mail_status", { input }),

  // The dashboard: what is going on right now.
  /** Pending tasks (the most urgent, then the oldest, first) and the latest activity (newest first). */
  getDashboard: () => invoke<DashboardDto>("get_dashboard"),

  // Traces: each boss instruction and everything done under it (SPEC §10).
  /** The latest instructions, newest first, each with its model calls and what they cost. */
  listTraces: () => invoke<TraceSummaryDto[]>("list_traces"),
  /** One instruction's whole story, oldest first; `not_found` for an unknown id. */
  getTrace: (input: TraceRef) => invoke<TraceDto>("get_trace", { input }),

  // Work: requirements and the task trees under them.
  /** One column per requirement status (open → in progress → done → cancelled). */
  requirementsBoard: () => invoke<BoardDto>("requirements_board"),
  setRequirementStatus: (input: SetRequirementStatus) => invoke<RequirementDto>("set_requirement_status", { input }),
  /** `reviewerId: null` removes the reviewer; `not_found` for an unknown or fired employee. */
  setReviewer: (input: SetReviewer) => invoke<RequirementDto>("set_reviewer", { input }),
  /** A task's saved deliverable (the document a report links); `not_found` when there is none. */
  getDeliverable: (input: DeliverableRef) => invoke<DeliverableDto>("get_deliverable", { input }),

  // Meetings (SPEC §9): a chat of kind `meeting`, its moderator and the decisions taken in it.
  /** The meeting held in a chat: who has the floor, the decisions, the moderator's reasons; `not_found` for any other chat. */
  meetingView: (input: MeetingRef) => invoke<MeetingViewDto>("meeting_view", { input }),
  /** The boss ends a meeting now: the minutes are taken; `invalid_input` when it is already closed. */
  closeMeeting: (input: MeetingRef) => invoke<MeetingViewDto>("close_meeting", { input }),

  // Approvals (SPEC §8): actions an employee asked for that wait for the boss.
  /** Waiting ones oldest first (`pending`), or decided ones newest first (`history`, each filter when set). */
  listApprovals: (input: ApprovalFilter) => invoke<ApprovalDto[]>("list_approvals", { input }),
  /**
   * The first decision wins and, when it approves, runs the action once. The same decision again returns
   * the approval unchanged; the other way is `already_decided`; past its time, `approval_expired`.
   */
  decideApproval: (input: DecideApproval) => invoke<ApprovalDto>("decide_approval", { input }),
  /** Several at once, each bound to the seal its card showed; what came of each, in order. */
  decideApprovals: (input: DecideApprovals) => invoke<DecisionResult[]>("decide_approvals", { input }),
  /** The hosts employees' webhooks may reach (`host` or `host:port`), in the order added. */
  webhookDestinations: () => invoke<WebhookDestinations>("webhook_destinations"),
  /**
   * Replaces the whole list; each entry is normalised (a pasted URL keeps only its host and explicit port)
   * and the stored list comes back. `invalid_input` for an entry that is not a host, and nothing changes.
   */
  setWebhookDestinations: (input: WebhookDestinations) => invoke<WebhookDestinations>("set_webhook_destinations", { input }),

  /** The first frame with the app is painted: the shell logs the start-up time (scripts/startup.sh). */
  uiFirstPaint: () => invoke<void>("ui_first_paint"),
  // One employee's tools and approvals: their own policy (or the company's), tool whitelist and CLI command.
  /** With the company's policy, the tool catalogue and the folder `run_cli` runs in; `not_found` for an unknown id. */
  employeeTools: (input: EmployeeRef) => invoke<EmployeeToolsDto>("employee_tools", { input }),
  /**
   * Replaces all three at once, or changes nothing: `invalid_input` for an unknown tool, a blank CLI command,
   * or `run_cli` without a command; `already_fired` for someone who left.
   */
  setEmployeeTools: (input: SetEmployeeTools) => invoke<EmployeeToolsDto>("set_employee_tools", { input }),
  /** Whether the sandbox their commands (`run_shell`, `run_cli`) run in has the network: off by default. */
  employeeNetworkAccess: (input: EmployeeRef) => invoke<boolean>("employee_network_access", { input }),
  /** Switches it at once; a call approved under the other setting is refused when it comes to run. */
  setEmployeeNetworkAccess: (input: SetNetworkAccess) => invoke<void>("set_employee_network_access", { input }),
  /** Exports and saves the bundle as `fileName` in the user's Downloads folder (never over a file); says where. */
  saveCompanyBundle: (fileName: string) => invoke<SavedBundle>("save_company_bundle", { fileName }),
  /** Reads a bundle into an empty database only (`database_not_empty` otherwise), all or nothing. */
  importCompany: (json: string) => invoke<ImportReport>("import_company", { json }),
  /** Provider URLs and CLI commands that came in with an imported company and are not used until confirmed. */
  importedToConfirm: () => invoke<ImportedToConfirm>("imported_to_confirm"),
  /** Confirms one, exactly as shown: `invalid_input` when it changed since (nothing is confirmed). */
  confirmImported: (input: ConfirmImported) => invoke<ImportedToConfirm>("confirm_imported", { input }),
};

// Plain Rust input structs of the chat and mind commands (no generated bindings).
export interface ChatRef {
  chatId: number;
}
export interface SetNetworkAccess {
  employeeId: number;
  allowed: boolean;
}
export interface EmployeeRef {
  employeeId: number;
}
export interface MemoryRef {
  memoryId: number;
}

// The secretary commands' inputs are plain Rust structs without generated bindings.
export interface SecretarySay {
  text: string;
}
export interface SecretaryActionRef {
  actionId: number;
}
export interface SecretaryConfirm extends SecretaryActionRef {
  edits: HireEdits | null;
}

export type Api = typeof api;
