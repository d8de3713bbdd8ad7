import { useTranslation } from "react-i18next";
import type { ApprovalStatus } from "../bindings/ApprovalStatus";
import { Badge, type Tone } from "../components/ui";

/** Waiting amber; a decision in a neutral tone (approved indigo, rejected and expired grey): what came of it is a chip of its own. */
export const STATUS_TONE: Record<ApprovalStatus, Tone> = { waiting: "amber", approved: "indigo", rejected: "slate", expired: "slate" };

export function ApprovalStatusChip({ status, testId }: { status: ApprovalStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge tone={STATUS_TONE[status]} data-testid={testId} data-status={status}>
      {t(`approvals.status.${status}`)}
    </Badge>
  );
}
