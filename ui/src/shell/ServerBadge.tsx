import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useConnection } from "../ipc/queries";

/**
 * How often the shell refetches what is on screen when the company lives on a shared server: the
 * server's engine (and other desktops) change it without this app's events. Matches the server
 * engine's own resync (RESYNC_EVERY in crates/core/src/engine/resync.rs).
 */
export const SERVER_REFRESH_MS = 5_000;

/** On a shared server: keep every visible query in step with what others write. */
export function useServerRefresh(): void {
  const client = useQueryClient();
  const server = useConnection().data?.server ?? null;
  useEffect(() => {
    if (server === null) return;
    // Refetches the queries on screen; the rest are marked stale and refetch when shown.
    const timer = window.setInterval(() => void client.invalidateQueries(), SERVER_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [client, server]);
}

/** "Connected to server" in the header when the company is shared (nothing for a local company). */
export function ServerBadge() {
  const { t } = useTranslation();
  const server = useConnection().data?.server ?? null;
  if (server === null) return null;
  return (
    <span
      data-testid="server-badge"
      title={t("shell.serverHint", { server })}
      className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200"
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-emerald-500" />
      {t("shell.server")}
      <span className="sr-only">{t("shell.serverHint", { server })}</span>
    </span>
  );
}
