import { useTranslation } from "react-i18next";
import type { TaskDto } from "../bindings/TaskDto";
import { Badge } from "../components/ui";
import { TASK_TONE, isTaskStatus } from "../work/format";

/**
 * A task's status as a chip. A task resolved with a deliverable that does not address it is not
 * "Done": it says it needs review, and why (on hover and to screen readers).
 */
export function TaskStatusChip({ task }: { task: Pick<TaskDto, "id" | "status" | "needsReview"> }) {
  const { t } = useTranslation();
  if (task.status === "resolved" && task.needsReview !== null) {
    const why = t(`work.needsReview.${task.needsReview}`);
    return (
      <Badge tone="amber" data-testid={`task-status-${task.id}`} data-needs-review={task.needsReview} title={why} aria-label={`${t("work.needsReview.label")}: ${why}`}>
        {t("work.needsReview.label")}
      </Badge>
    );
  }
  if (!isTaskStatus(task.status)) return null;
  return (
    <Badge tone={TASK_TONE[task.status]} data-testid={`task-status-${task.id}`}>
      {t(`work.taskStatus.${task.status}`)}
    </Badge>
  );
}
