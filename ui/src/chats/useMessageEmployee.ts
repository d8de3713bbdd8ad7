import { api } from "../ipc/api";
import { queryKeys, useInvalidatingMutation } from "../ipc/queries";
import { navigate } from "../shell/route";

/** "Message": opens (or first creates) the boss's 1:1 chat with someone and goes there. */
export function useMessageEmployee() {
  const open = useInvalidatingMutation(api.openBossChat, [queryKeys.chatList]);
  const start = (employeeId: number) =>
    open.mutate({ employeeId }, { onSuccess: (chat) => navigate({ page: "chats", chatId: chat.id }) });
  return { start, isPending: open.isPending, error: open.error, reset: open.reset };
}
