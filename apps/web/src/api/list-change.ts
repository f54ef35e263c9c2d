import { useMutation, useQueryClient } from '@tanstack/react-query';

/** A mutation after which the list kept under `queryKey` is read again. */
export function useListChange<T, R>(queryKey: readonly string[], call: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
}
