import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";

export const queryKeys = {
  org: ["org"] as const,
  company: ["company"] as const,
  roleTemplates: ["roleTemplates"] as const,
};

export function useOrg() {
  return useQuery({ queryKey: queryKeys.org, queryFn: api.getOrg });
}

export function useRoleTemplates() {
  return useQuery({ queryKey: queryKeys.roleTemplates, queryFn: api.listRoleTemplates, staleTime: Infinity });
}

/**
 * A command that changes the organisation. On success the org query is marked stale so it
 * refetches (the domain event does the same; whichever comes first wins, both are idempotent).
 */
export function useOrgMutation<TInput, TResult>(fn: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.org }),
        client.invalidateQueries({ queryKey: queryKeys.company }),
      ]);
    },
  });
}
