import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ThoughtDto } from "../bindings/ThoughtDto";
import { ThoughtIcon } from "../components/icons";
import { isSilenceReason, isThoughtFailure, type ThoughtFailure } from "./format";

/** What came of a thought: spoke up, chose silence (and why), or was kept silent by a gate (and which). */
export function thoughtOutcome(thought: ThoughtDto, t: (key: string, options?: Record<string, unknown>) => string): string {
  if (thought.spoke) return t("chats.thought.spoke");
  const reason = thought.reason.trim();
  if (thought.shouldSpeak) {
    const gate = thought.silencedBy;
    if (gate === null) return t("chats.thought.wantedButSilent");
    // A reason that is no gate (a thought that failed) is shown as stored rather than hidden.
    const why = isSilenceReason(gate) ? t(`chats.silence.${gate}`) : gate;
    return t("chats.thought.silencedBy", { reason: why });
  }
  return reason === "" ? t("chats.thought.choseSilence") : t("chats.thought.choseSilenceBecause", { reason });
}

/** Interest and saturation (1–10) of a thought, when the model gave them. */
export function ThoughtMeters({ thought }: { thought: ThoughtDto }) {
  const { t } = useTranslation();
  const parts: string[] = [];
  if (thought.interest !== null) parts.push(t("chats.thought.interest", { value: thought.interest }));
  if (thought.saturation !== null) parts.push(t("chats.thought.saturation", { value: thought.saturation }));
  if (parts.length === 0) return null;
  return <span className="tabular-nums">{parts.join(" · ")}</span>;
}

/**
 * One inner thought, never posted: muted, italic and dashed so it can't be mistaken for a message.
 * `name` is who thought it; `context` an optional line above (the chat it was about, the time).
 */
export function ThoughtCard({
  thought,
  name,
  context,
  testId,
}: {
  thought: ThoughtDto;
  name: string;
  context?: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  const silent = !thought.spoke;
  const failure = thought.silencedBy;
  if (isThoughtFailure(failure)) {
    // No thought at all: say why in words; the raw error (paths, codes) is there on hover.
    return (
      <div
        data-testid={testId}
        data-spoke={false}
        data-failed={failure}
        title={thought.reason || undefined}
        className="rounded-xl border border-dashed border-slate-300 bg-slate-50/60 px-3.5 py-2 text-xs text-slate-500"
      >
        {context && <div className="mb-1 text-[11px] text-slate-400">{context}</div>}
        <p data-testid={testId ? `${testId}-outcome` : undefined}>
          <ThoughtIcon className="mr-1.5 inline-block -translate-y-px text-slate-400" />
          {t("chats.thought.failed", { name, why: t(`chats.failure.${failure}`) })}
        </p>
      </div>
    );
  }
  return (
    <div
      data-testid={testId}
      data-spoke={thought.spoke}
      className="rounded-xl border border-dashed border-slate-300 bg-slate-50/80 px-3.5 py-2.5 text-sm text-slate-500"
    >
      {context && <div className="mb-1 text-[11px] text-slate-400">{context}</div>}
      <p className="break-words whitespace-pre-wrap italic">
        <ThoughtIcon className="mr-1.5 inline-block -translate-y-px text-slate-400" />
        <span className="font-medium text-slate-600 not-italic">{t("chats.thought.label", { name })}</span>{" "}
        {thought.innerThoughts || <span className="text-slate-400">{t("chats.thought.blank")}</span>}
      </p>
      <p className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs text-slate-400">
        <span
          data-testid={testId ? `${testId}-outcome` : undefined}
          className={silent ? "font-medium text-slate-500" : "font-medium text-emerald-700"}
        >
          {thoughtOutcome(thought, t)}
        </span>
        <ThoughtMeters thought={thought} />
      </p>
    </div>
  );
}

/** Several thoughts in a row that failed the same way, as one quiet line: who, how often, why. */
export function FailedThoughts({
  thoughts,
  failure,
  nameOf,
  showWho = true,
}: {
  thoughts: ThoughtDto[];
  failure: ThoughtFailure;
  nameOf: (id: number) => string;
  /** Off where it is obvious (one employee's own profile). */
  showWho?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const names = [...new Set(thoughts.map((x) => nameOf(x.employeeId)))];
  const first = thoughts[0];
  return (
    <div
      data-testid={first ? `chat-failed-thoughts-${first.id}` : undefined}
      data-failed={failure}
      title={first?.reason || undefined}
      className="rounded-xl border border-dashed border-slate-300 bg-slate-50/60 px-3.5 py-2 text-xs text-slate-500"
    >
      <p>
        <ThoughtIcon className="mr-1.5 inline-block -translate-y-px text-slate-400" />
        {t("chats.thought.failedMany", { count: thoughts.length, why: t(`chats.failure.${failure}`) })}
      </p>
      {showWho && (
        <p className="mt-0.5 pl-[22px] text-slate-400">
          {t("chats.thought.failedWho", { names: new Intl.ListFormat(i18n.language, { type: "conjunction" }).format(names) })}
        </p>
      )}
    </div>
  );
}
