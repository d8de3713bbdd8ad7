import { useTranslation } from "react-i18next";
import type { ApprovalStatus } from "../bindings/ApprovalStatus";
import { Badge, type Tone } from "../components/ui";

/** Waiting amber, approved green; rejected and expired grey (nothing happened). */
export const STATUS_TONE: Record<ApprovalStatus, Tone> = { waiting: "amber", approved: "green", rejected: "slate", expired: "slate" };

export function ApprovalStatusChip({ status, testId }: { status: ApprovalStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge tone={STATUS_TONE[status]} data-testid={testId} data-status={status}>
      {t(`approvals.status.${status}`)}
    </Badge>
  );
}
