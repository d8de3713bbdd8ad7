import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import type { IpcError } from "../bindings/IpcError";
import { api } from "../ipc/api";
import { toIpcError } from "../ipc/errors";
import { PROVIDER_KEYS } from "../ipc/queries";

/** An error with any trace of the key taken out (a backend should never echo it; this makes sure). */
function redact(error: unknown, key: string): unknown {
  const ipc = toIpcError(error);
  if (ipc) {
    const clean: IpcError = { code: ipc.code, message: key ? ipc.message.split(key).join("•••") : ipc.message };
    return clean;
  }
  if (error instanceof Error) return new Error(key ? error.message.split(key).join("•••") : error.message);
  return typeof error === "string" && key ? error.split(key).join("•••") : error;
}

/**
 * Sends an API key to the backend's keychain.
 *
 * Deliberately not a TanStack `useMutation`: a mutation keeps its variables (the key) in the
 * mutation cache for minutes. Here the key lives only in this call's arguments; the component
 * state holds whether a call is running and its (redacted) error, nothing else.
 */
export function useSetProviderKey() {
  const client = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const running = useRef(false);

  const submit = useCallback(
    async (providerId: string, key: string): Promise<boolean> => {
      if (running.current) return false;
      running.current = true;
      setPending(true);
      setError(null);
      try {
        await api.setProviderKey({ providerId, key });
        await Promise.all(PROVIDER_KEYS.map((queryKey) => client.invalidateQueries({ queryKey })));
        return true;
      } catch (e: unknown) {
        setError(redact(e, key));
        return false;
      } finally {
        running.current = false;
        setPending(false);
      }
    },
    [client],
  );

  const reset = useCallback(() => setError(null), []);
  return { submit, pending, error, reset };
}
