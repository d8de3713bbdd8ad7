import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from "@tanstack/react-query";
import type { ApprovalFilter } from "../bindings/ApprovalFilter";
import type { MailFilter } from "../bindings/MailFilter";
import { api } from "./api";

export const queryKeys = {
  org: ["org"] as const,
  company: ["company"] as const,
  roleTemplates: ["roleTemplates"] as const,
  /** Under `roleTemplates`: a card saved, imported or deleted changes what a hire can start from. */
  roleCards: ["roleTemplates", "cards"] as const,
  presets: ["presets"] as const,
  providers: ["providers"] as const,
  /** Under `providers`, so whatever refreshes the providers refreshes the install status too. */
  builtinStatus: ["providers", "builtin-status"] as const,
  /** Under `providers`: which model is in use, and which servers are added, follow the providers. */
  localModels: ["providers", "local-models"] as const,
  localServers: ["providers", "local-servers"] as const,
  /**
   * Under `providers`: imported provider URLs and CLI commands waiting for the boss follow the providers;
   * employee and company events refresh it too (a CLI command confirmed or changed, an import).
   */
  importedToConfirm: ["providers", "imported-to-confirm"] as const,
  connection: ["connection"] as const,
  /** Who uses this desktop: the signed-in person, whoever said so, or the boss. */
  deskUser: ["desk-user"] as const,
  routes: ["routes"] as const,
  /**
   * Under `routes`: whatever changes a route (the routes section's saves, `providers_changed`) refreshes it.
   * Employee events refresh it too (an employee's own backend, a hire, a firing).
   */
  thoughtModel: ["routes", "thought-model"] as const,
  prices: ["prices"] as const,
  spend: ["spend"] as const,
  webhookDestinations: ["webhook-destinations"] as const,
  /** The company's people besides the boss, with what each answers for. */
  people: ["people"] as const,
  /** Each person's proxy (card, conversation, what it wrote) sits under it. */
  proxies: ["proxy"] as const,
  proxy: (personId: number) => ["proxy", personId] as const,
  secretary: ["secretary"] as const,
  /** Everything about chats: the list and each opened chat sit under it. */
  chats: ["chats"] as const,
  chatList: ["chats", "list"] as const,
  chat: (chatId: number) => ["chats", "view", chatId] as const,
  /** Every employee's profile sits under it. */
  profiles: ["profile"] as const,
  profile: (employeeId: number) => ["profile", employeeId] as const,
  relationshipGraph: ["relationship-graph"] as const,
  /** Every mailbox listing sits under it, one per filter. */
  mailbox: ["mailbox"] as const,
  mailList: (filter: MailFilter) => ["mailbox", "list", filter.status, filter.kind, filter.employeeId] as const,
  dashboard: ["dashboard"] as const,
  /** The list of instructions and each opened trace sit under it. */
  traces: ["traces"] as const,
  traceList: ["traces", "list"] as const,
  trace: (traceId: string) => ["traces", "view", traceId] as const,
  deliverable: (taskId: number) => ["deliverables", taskId] as const,
  board: ["board"] as const,
  /** Every meeting's view sits under it (mail about a meeting may change its decisions). */
  meetings: ["meeting"] as const,
  meeting: (chatId: number) => ["meeting", chatId] as const,
  /** Every approval listing sits under it: the waiting ones, and the history per filter. */
  approvals: ["approvals"] as const,
  /** Each employee's tools-and-approvals card sits under it. */
  employeeTools: ["employee-tools"] as const,
  employeeToolsOf: (employeeId: number) => ["employee-tools", employeeId] as const,
  /** Under the employee's card, so whatever makes the card stale makes this stale too. */
  employeeNetworkOf: (employeeId: number) => ["employee-tools", employeeId, "network"] as const,
  approvalList: (filter: ApprovalFilter) =>
    filter.kind === "pending" ? (["approvals", "pending"] as const) : (["approvals", "history", filter.status, filter.employeeId] as const),
};

export function useOrg() {
  return useQuery({ queryKey: queryKeys.org, queryFn: api.getOrg });
}

export function useRoleTemplates() {
  return useQuery({ queryKey: queryKeys.roleTemplates, queryFn: api.listRoleTemplates, staleTime: Infinity });
}

/** Every role card, built-in first, with its whole text (Settings → Roles). */
export function useRoleCards() {
  return useQuery({ queryKey: queryKeys.roleCards, queryFn: api.listRoleCards });
}

/**
 * A command that changes the organisation. On success the org query is marked stale so it
 * refetches (the domain event does the same; whichever comes first wins, both are idempotent).
 */
export function useOrgMutation<TInput, TResult>(fn: (input: TInput) => Promise<TResult>) {
  return useInvalidatingMutation(fn, [queryKeys.org, queryKeys.company]);
}

/** A command whose success makes the given queries stale (they refetch; nothing is patched by hand). */
export function useInvalidatingMutation<TInput, TResult>(
  fn: (input: TInput) => Promise<TResult>,
  keys: ReadonlyArray<QueryKey>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}

// ---- Secretary ----

export function useSecretaryHistory() {
  return useQuery({ queryKey: queryKeys.secretary, queryFn: api.secretaryHistory });
}

/** What confirming or undoing an action can change: the conversation, the org and the company (policy, budget). */
export const SECRETARY_ACTION_KEYS = [queryKeys.secretary, queryKeys.org, queryKeys.company] as const;

// ---- Settings ----

/** Everyone besides the boss, by name, with their duties (department and employee ids). */
export function usePeople() {
  return useQuery({ queryKey: queryKeys.people, queryFn: api.listPeople });
}

export function usePresets() {
  return useQuery({ queryKey: queryKeys.presets, queryFn: api.listPresets, staleTime: Infinity });
}

export function useProviders() {
  return useQuery({ queryKey: queryKeys.providers, queryFn: api.listProviders });
}

export function useBuiltinStatus() {
  return useQuery({ queryKey: queryKeys.builtinStatus, queryFn: api.builtinStatus });
}

/** A person's proxy: its card, the conversation with it, and what it wrote in their name. */
export function useProxy(personId: number | null) {
  const enabled = personId !== null;
  const id = personId ?? 0;
  const card = useQuery({ queryKey: [...queryKeys.proxy(id), "card"], queryFn: () => api.proxyCard({ personId: id }), enabled });
  const conversation = useQuery({ queryKey: [...queryKeys.proxy(id), "conversation"], queryFn: () => api.proxyConversation({ personId: id }), enabled });
  const written = useQuery({ queryKey: [...queryKeys.proxy(id), "written"], queryFn: () => api.proxyWritten({ personId: id }), enabled });
  return { card, conversation, written };
}

/** Who uses this desktop (their queue, decisions and proxy). */
export function useDeskUser() {
  return useQuery({ queryKey: queryKeys.deskUser, queryFn: api.deskUser, staleTime: Infinity });
}

/** The person using this desktop (`undefined` for the boss, or while loading). */
export function useDeskPerson() {
  const desk = useDeskUser();
  const people = usePeople();
  const personId = desk.data?.personId ?? null;
  return personId === null ? undefined : people.data?.find((p) => p.id === personId);
}

/** Where the company lives; fixed for the app's life. */
export function useConnection() {
  return useQuery({ queryKey: queryKeys.connection, queryFn: api.connection, staleTime: Infinity });
}

export function useRoutes() {
  return useQuery({ queryKey: queryKeys.routes, queryFn: api.getRoutes });
}

export function useThoughtModel() {
  return useQuery({ queryKey: queryKeys.thoughtModel, queryFn: api.thoughtModel });
}

export function usePrices() {
  return useQuery({ queryKey: queryKeys.prices, queryFn: api.listPrices });
}

export function useWebhookDestinations() {
  return useQuery({ queryKey: queryKeys.webhookDestinations, queryFn: api.webhookDestinations });
}

export function useSpend() {
  return useQuery({ queryKey: queryKeys.spend, queryFn: api.getSpend });
}

export function useLocalModels() {
  return useQuery({ queryKey: queryKeys.localModels, queryFn: api.listLocalModels });
}

export function useLocalServers() {
  return useQuery({ queryKey: queryKeys.localServers, queryFn: api.detectLocalServers });
}

/** What an imported company brought that waits for the boss's confirmation. */
export function useImportedToConfirm() {
  return useQuery({ queryKey: queryKeys.importedToConfirm, queryFn: api.importedToConfirm });
}

/** The built-in model's file: its status sits under `providers`, so this refreshes both. */
export const BUILTIN_MODEL_KEYS = [queryKeys.providers] as const;

/** Providers and everything that depends on them. */
export const PROVIDER_KEYS = [queryKeys.providers, queryKeys.routes, queryKeys.prices] as const;

// ---- Chats and minds ----

export function useChats() {
  return useQuery({ queryKey: queryKeys.chatList, queryFn: api.listChats });
}

export function useChatView(chatId: number) {
  return useQuery({ queryKey: queryKeys.chat(chatId), queryFn: () => api.chatView({ chatId }) });
}

export function useEmployeeProfile(employeeId: number) {
  return useQuery({ queryKey: queryKeys.profile(employeeId), queryFn: () => api.employeeProfile({ employeeId }) });
}

export function useRelationshipGraph() {
  return useQuery({ queryKey: queryKeys.relationshipGraph, queryFn: api.relationshipGraph });
}

/** What a change to one employee's mind (a memory, a relationship) makes stale. */
export const mindKeys = (employeeId: number) => [queryKeys.profile(employeeId), queryKeys.relationshipGraph] as const;

// ---- Mailbox ----

/** What the navigation badge asks for: only unread items, so the answer stays small. */
export const UNREAD_MAIL: MailFilter = { status: "unread", kind: null, employeeId: null };

/** One listing of the mailbox. Changing the filter keeps the last list on screen until the new one is in. */
export function useMailbox(filter: MailFilter, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.mailList(filter),
    queryFn: () => api.listMail(filter),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** Unread items in the whole mailbox (0 while loading or when the mailbox cannot be read). */
export function useUnreadMail(): number {
  const mail = useQuery({ queryKey: queryKeys.mailList(UNREAD_MAIL), queryFn: () => api.listMail(UNREAD_MAIL), select: (m) => m.unread });
  return mail.data ?? 0;
}

// ---- Dashboard ----

export function useDashboard() {
  return useQuery({ queryKey: queryKeys.dashboard, queryFn: api.getDashboard });
}

// ---- Traces and work ----

export function useTraces() {
  return useQuery({ queryKey: queryKeys.traceList, queryFn: api.listTraces });
}

export function useTrace(traceId: string) {
  // An unknown id stays unknown: no point asking three times.
  return useQuery({ queryKey: queryKeys.trace(traceId), queryFn: () => api.getTrace({ id: traceId }), retry: false });
}

export function useDeliverable(taskId: number) {
  // A task without a saved document stays without one: no point asking three times.
  return useQuery({ queryKey: queryKeys.deliverable(taskId), queryFn: () => api.getDeliverable({ taskId }), retry: false });
}

export function useBoard() {
  return useQuery({ queryKey: queryKeys.board, queryFn: api.requirementsBoard });
}

/** What moving a requirement or changing its reviewer makes stale. */
export const BOARD_KEYS = [queryKeys.board, queryKeys.traces] as const;

// ---- Meetings ----

/** The meeting held in a chat (only ask for a chat of kind `meeting`). */
export function useMeeting(chatId: number) {
  return useQuery({ queryKey: queryKeys.meeting(chatId), queryFn: () => api.meetingView({ chatId }) });
}

/** What ending a meeting makes stale: the meeting, its chat (a closing note) and the mailbox (the minutes). */
export const meetingKeys = (chatId: number) =>
  [queryKeys.meeting(chatId), queryKeys.chat(chatId), queryKeys.chatList, queryKeys.mailbox] as const;

// ---- Approvals ----

const PENDING_APPROVALS: ApprovalFilter = { kind: "pending" };

/** One listing of the approvals. Changing the history filter keeps the last list on screen until the new one is in. */
export function useApprovals(filter: ApprovalFilter, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.approvalList(filter),
    queryFn: () => api.listApprovals(filter),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** Approvals waiting for the boss (0 while loading or when they cannot be read): the navigation badge. */
export function usePendingApprovalCount(): number {
  const pending = useQuery({ queryKey: queryKeys.approvalList(PENDING_APPROVALS), queryFn: () => api.listApprovals(PENDING_APPROVALS), select: (a) => a.length });
  return pending.data ?? 0;
}

/** What a decision makes stale: every listing, the dashboard's figure, the traces, and the requester (its status). */
export const APPROVAL_KEYS = [queryKeys.approvals, queryKeys.dashboard, queryKeys.traces, queryKeys.org, queryKeys.profiles] as const;

// ---- Tools and approvals of one employee ----

export function useEmployeeTools(employeeId: number) {
  return useQuery({ queryKey: queryKeys.employeeToolsOf(employeeId), queryFn: () => api.employeeTools({ employeeId }) });
}

/** Whether the sandbox of someone's commands has the network. */
export function useEmployeeNetwork(employeeId: number) {
  return useQuery({ queryKey: queryKeys.employeeNetworkOf(employeeId), queryFn: () => api.employeeNetworkAccess({ employeeId }) });
}

/** What saving someone's tools and approvals makes stale: their card, the org chart (side panel) and their profile. */
export const employeeToolsKeys = (employeeId: number) =>
  [queryKeys.employeeToolsOf(employeeId), queryKeys.org, queryKeys.profile(employeeId)] as const;
