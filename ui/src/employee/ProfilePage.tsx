import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { EmployeeProfileDto } from "../bindings/EmployeeProfileDto";
import type { PendingTaskDto } from "../bindings/PendingTaskDto";
import type { ThoughtDto } from "../bindings/ThoughtDto";
import { ChatIcon, ChevronLeftIcon } from "../components/icons";
import { Badge, Button, ErrorState, LoadingState, Spinner, type Tone } from "../components/ui";
import { errorKey } from "../ipc/errors";
import { useChats, useEmployeeProfile } from "../ipc/queries";
import { collapseFailures, entryKey } from "../chats/format";
import { FailedThoughts, ThoughtCard } from "../chats/ThoughtCard";
import { useMessageEmployee } from "../chats/useMessageEmployee";
import { Avatar } from "../org/Avatar";
import { StatusDot } from "../org/nodes";
import { formatUsd } from "../settings/format";
import { chatHref, profileHref, routeHref } from "../shell/route";
import { Card, CardEmpty } from "./Card";
import { formatDate, formatDateTime, formatRelative, taskUrgency, type Urgency } from "./format";
import { MemoriesCard } from "./MemoriesCard";
import { RelationshipsCard } from "./RelationshipsCard";
import { StaminaCard } from "./StaminaCard";
import { ToolsCard } from "./ToolsCard";

/** How many recent thoughts show before "Show all". */
const THOUGHTS_SHOWN = 6;

/** `#employee/<id>`: who someone is, how they are doing, what they remember and think of the others. */
export function ProfilePage({ employeeId }: { employeeId: number }) {
  const profile = useEmployeeProfile(employeeId);
  if (profile.isPending) return <LoadingState className="h-full" />;
  if (profile.isError) return <ErrorState className="h-full" error={profile.error} onRetry={() => void profile.refetch()} />;
  return <Profile profile={profile.data} />;
}

function Profile({ profile }: { profile: EmployeeProfileDto }) {
  const { t, i18n } = useTranslation();
  const e = profile.employee;
  const message = useMessageEmployee();
  const fired = e.status === "fired" || e.firedAt !== null;

  return (
    <div data-testid="profile-page" data-employee-id={e.id} className="flex h-full min-h-0 flex-col">
      <div className="flex shrink-0 flex-wrap items-center justify-between gap-4 border-b border-slate-200 bg-white/60 px-6 py-4">
        <div className="flex min-w-0 items-center gap-4">
          <Avatar name={e.name} size={56} />
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <h2 data-testid="profile-name" className="truncate text-lg font-semibold tracking-tight text-slate-900">
                {e.name}
              </h2>
              <span className="inline-flex items-center gap-1.5 rounded-full bg-slate-50 px-2 py-0.5 text-xs text-slate-600 ring-1 ring-slate-200 ring-inset">
                <StatusDot status={e.status} />
                {t(`status.${e.status}`)}
              </span>
            </div>
            <p data-testid="profile-title" className="text-sm text-slate-600">
              {e.title}
            </p>
            <p className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-500">
              <span data-testid="profile-department">{profile.departmentName ?? t("org.unassigned")}</span>
              <span data-testid="profile-manager">
                {e.managerId !== null && profile.managerName ? (
                  <>
                    {t("profile.reportsTo")}{" "}
                    <a href={profileHref(e.managerId)} className="font-medium text-slate-700 hover:underline">
                      {profile.managerName}
                    </a>
                  </>
                ) : (
                  t("employee.noManager")
                )}
              </span>
              <span data-testid="profile-archetype">{t(`archetype.${e.archetype}`)}</span>
              <span>{t("profile.hired", { date: formatDate(e.hiredAt, i18n.language) })}</span>
            </p>
          </div>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <a
            href={routeHref({ page: "org" })}
            className="inline-flex h-9 items-center gap-1.5 rounded-lg px-3 text-sm font-medium text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
          >
            <ChevronLeftIcon />
            {t("profile.backToOrg")}
          </a>
          {!fired && (
            <Button
              variant="primary"
              data-testid="profile-message-button"
              disabled={message.isPending}
              onClick={() => message.start(e.id)}
            >
              {message.isPending ? <Spinner className="border-slate-500 border-t-white" /> : <ChatIcon />}
              {t("profile.message")}
            </Button>
          )}
        </div>
      </div>

      {message.error !== null && (
        <div role="alert" className="flex items-center justify-between gap-3 bg-rose-50 px-6 py-2 text-sm text-rose-700">
          <span>{t("profile.messageFailed", { name: e.name, message: t(errorKey(message.error)) })}</span>
          <button type="button" className="text-xs font-medium underline" onClick={() => message.reset()}>
            {t("common.close")}
          </button>
        </div>
      )}

      <div className="relative min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto grid max-w-6xl items-start gap-6 px-6 py-6 lg:grid-cols-[minmax(0,1fr)_21rem]">
          <div className="min-w-0 space-y-6">
            <PersonaCard profile={profile} />
            <ToolsCard employeeId={e.id} name={e.name} fired={fired} />
            <MemoriesCard employeeId={e.id} name={e.name} memories={profile.memories} />
            <RelationshipsCard employeeId={e.id} name={e.name} relationships={profile.relationships} />
            <ThoughtsCard name={e.name} thoughts={profile.thoughts} />
          </div>
          <div className="min-w-0 space-y-6">
            <StaminaCard stamina={profile.stamina} name={e.name} />
            <SpendCard today={profile.spendTodayUsd} total={profile.spendTotalUsd} />
            <BackendCard employee={e} />
            <TasksCard name={e.name} tasks={profile.pendingTasks} />
          </div>
        </div>
      </div>
    </div>
  );
}

function PersonaCard({ profile }: { profile: EmployeeProfileDto }) {
  const { t } = useTranslation();
  const e = profile.employee;
  return (
    <Card title={t("profile.persona.title")} description={t(`archetype.${e.archetype}`)} testId="profile-persona">
      {/* The prompts carry the archetype in English; the boss reads it in the app's language. */}
      <div data-testid="profile-persona-text" className="space-y-1 text-sm leading-relaxed text-slate-700">
        <p>{t(`profile.persona.archetypes.${e.archetype}.trait`)}</p>
        <p>
          <span className="font-medium text-slate-700">{t("profile.persona.tone")}</span>
          {t("common.colon")}
          {t(`profile.persona.archetypes.${e.archetype}.tone`)}
        </p>
        <p>
          <span className="font-medium text-slate-700">{t("profile.persona.quirk")}</span>
          {t("common.colon")}
          {t(`profile.persona.archetypes.${e.archetype}.quirk`)}
        </p>
      </div>
      {e.speakingStyle.trim() !== "" && (
        <p className="mt-3 text-sm text-slate-600">
          <span className="font-medium text-slate-700">{t("profile.persona.style")}</span> <q className="italic">{e.speakingStyle}</q>
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-1.5">
        <span className="mr-1 text-xs font-medium text-slate-500">{t("employee.skills")}</span>
        {e.skills.length === 0 ? (
          <span className="text-xs text-slate-400">{t("employee.noSkills")}</span>
        ) : (
          e.skills.map((s) => (
            <span key={s} className="rounded-md bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
              {s}
            </span>
          ))
        )}
      </div>
    </Card>
  );
}

function SpendCard({ today, total }: { today: number; total: number }) {
  const { t, i18n } = useTranslation();
  return (
    <Card title={t("profile.spend.title")} testId="profile-spend" padded={false}>
      <dl className="grid grid-cols-2 divide-x divide-slate-100">
        <div className="px-5 py-4">
          <dt className="text-xs font-medium text-slate-500">{t("profile.spend.today")}</dt>
          <dd data-testid="profile-spend-today" className="mt-1 text-xl font-semibold tracking-tight text-slate-900 tabular-nums">
            {formatUsd(today, i18n.language)}
          </dd>
        </div>
        <div className="px-5 py-4">
          <dt className="text-xs font-medium text-slate-500">{t("profile.spend.total")}</dt>
          <dd data-testid="profile-spend-total" className="mt-1 text-xl font-semibold tracking-tight text-slate-900 tabular-nums">
            {formatUsd(total, i18n.language)}
          </dd>
        </div>
      </dl>
    </Card>
  );
}

function BackendCard({ employee }: { employee: EmployeeDto }) {
  const { t } = useTranslation();
  const { provider, model } = employee.backend;
  return (
    <Card title={t("employee.backend")} testId="profile-backend">
      {provider === "" ? (
        <div data-testid="profile-backend-value" data-company-default="true">
          <p className="text-sm font-medium text-slate-800">{t("employee.backendCompanyDefault")}</p>
          <p className="mt-0.5 text-xs text-slate-500">{t("employee.backendCompanyDefaultHint")}</p>
        </div>
      ) : (
        <p data-testid="profile-backend-value" data-company-default="false" className="font-mono text-sm text-slate-800">
          {provider} / {model || <span className="font-sans text-slate-400">{t("employee.backendDefaultModel")}</span>}
        </p>
      )}
      <p className="mt-2 text-xs text-slate-400">{t("profile.backendHint")}</p>
    </Card>
  );
}

const URGENCY_TONE: Record<Urgency, Tone> = { normal: "slate", aging: "amber", overdue: "rose", critical: "rose" };

function TasksCard({ name, tasks }: { name: string; tasks: PendingTaskDto[] }) {
  const { t, i18n } = useTranslation();
  const now = Date.now();
  return (
    <Card title={t("profile.tasks.title")} testId="profile-tasks" padded={false}>
      {tasks.length === 0 ? (
        <CardEmpty testId="tasks-empty">{t("profile.tasks.empty", { name })}</CardEmpty>
      ) : (
        <ul className="divide-y divide-slate-100">
          {tasks.map((task) => {
            const urgency = taskUrgency(task.createdAt, now);
            return (
              <li key={task.id} data-testid={`task-${task.id}`} className="px-5 py-3">
                <p className="text-sm break-words text-slate-800">{task.description}</p>
                <p className="mt-1 flex items-center gap-2 text-xs text-slate-500">
                  <Badge tone={URGENCY_TONE[urgency]}>{t(`profile.tasks.urgency.${urgency}`)}</Badge>
                  <span>{t("profile.tasks.since", { when: formatRelative(task.createdAt, now, i18n.language) })}</span>
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

function ThoughtsCard({ name, thoughts }: { name: string; thoughts: ThoughtDto[] }) {
  const { t, i18n } = useTranslation();
  const chats = useChats();
  const [all, setAll] = useState(false);
  // The boss's 1:1 chat is named after the employee: on their own profile, say what it is instead.
  const chatName = (id: number) => {
    const chat = chats.data?.find((c) => c.id === id);
    return chat?.kind === "boss" ? t("chats.kind.boss") : chat?.name;
  };
  // Newest first, whatever order they come in; a run of failed thoughts is one line.
  const sorted = [...thoughts].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
  const entries = collapseFailures(sorted.map((thought) => ({ kind: "thought" as const, at: Date.parse(thought.createdAt), thought })));
  const shown = all ? entries : entries.slice(0, THOUGHTS_SHOWN);
  return (
    <Card title={t("profile.thoughts.title")} description={t("profile.thoughts.description", { name })} testId="profile-thoughts">
      {sorted.length === 0 ? (
        <p data-testid="thoughts-empty" className="py-2 text-center text-sm text-slate-500">
          {t("profile.thoughts.empty", { name })}
        </p>
      ) : (
        <>
          <ul className="space-y-2.5">
            {shown.map((entry) => {
              if (entry.kind === "failures") {
                return (
                  <li key={entryKey(entry)}>
                    <FailedThoughts thoughts={entry.thoughts} failure={entry.failure} nameOf={() => name} showWho={false} />
                  </li>
                );
              }
              if (entry.kind !== "thought") return null;
              const thought = entry.thought;
              const where = thought.chatId === null ? null : chatName(thought.chatId);
              return (
                <li key={thought.id}>
                  <ThoughtCard
                    thought={thought}
                    name={name}
                    testId={`profile-thought-${thought.id}`}
                    context={
                      <>
                        <time dateTime={thought.createdAt}>{formatDateTime(thought.createdAt, i18n.language)}</time>
                        {thought.chatId !== null && (
                          <>
                            {" · "}
                            <a href={chatHref(thought.chatId)} className="font-medium text-slate-500 hover:text-slate-700 hover:underline">
                              {where ?? t("profile.thoughts.openChat")}
                            </a>
                          </>
                        )}
                      </>
                    }
                  />
                </li>
              );
            })}
          </ul>
          {entries.length > THOUGHTS_SHOWN && (
            <Button variant="ghost" className="mt-2 h-8 w-full text-xs" onClick={() => setAll((v) => !v)}>
              {all ? t("profile.thoughts.showFewer") : t("profile.thoughts.showAll", { count: entries.length })}
            </Button>
          )}
        </>
      )}
    </Card>
  );
}
