import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useDeliverable } from "../ipc/queries";
import { ErrorState, LoadingState, Modal } from "../components/ui";

/**
 * The report's link line, as the engine writes it (`Deliverable: employees/3/deliverables/task-12-….md`,
 * `交付物：…`): the label, and the file's path, which opens the document. The task id in the file
 * name is all that is asked for; the backend finds the file itself.
 */
const LINK = /^(Deliverable: |交付物：)(\S*\/task-(\d+)(?:-[^/\s]*)?\.md)$/;

export function parseDeliverableLine(line: string): { label: string; path: string; taskId: number } | null {
  const m = LINK.exec(line);
  if (!m) return null;
  return { label: m[1]!, path: m[2]!, taskId: Number(m[3]) };
}

/** A report's deliverable line: the path as a button that opens the document in a dialog. */
export function DeliverableLine({ label, path, taskId, onDark }: { label: string; path: string; taskId: number; onDark: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      {label}
      <button
        type="button"
        onClick={() => setOpen(true)}
        data-testid={`deliverable-link-${taskId}`}
        title={t("chats.deliverable.open")}
        className={`break-all underline decoration-dotted underline-offset-2 ${onDark ? "text-white" : "text-indigo-700 hover:text-indigo-900"}`}
      >
        {path}
      </button>
      {open && <DeliverableDialog taskId={taskId} onClose={() => setOpen(false)} />}
    </>
  );
}

function DeliverableDialog({ taskId, onClose }: { taskId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const query = useDeliverable(taskId);
  return (
    <Modal title={t("chats.deliverable.title", { id: taskId })} description={query.data?.path} onClose={onClose} testId="deliverable-dialog">
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <pre data-testid="deliverable-text" className="max-h-[50vh] overflow-y-auto rounded-lg bg-slate-50 p-3 font-sans text-sm whitespace-pre-wrap text-slate-800">
            {query.data.text}
          </pre>
          {query.data.cut && <p className="mt-2 text-xs text-slate-500">{t("chats.deliverable.cut")}</p>}
        </>
      )}
    </Modal>
  );
}
