import { Button, Center, Group, Text } from '@mantine/core';
import { parseApiError } from '../../../api/client';
import { t } from '../texts';

/** The infinite query of a Detailed listing, as far as its footer needs it. */
interface Pages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage: () => unknown;
}

/**
 * Under a Detailed listing: how many entries show and whether more wait, "Load more", and what
 * went wrong when the next page failed (the rows already shown stay).
 */
export function LoadMoreFooter({ shown, pages }: { shown: number; pages: Pages }) {
  return (
    <>
      <Center mt="md">
        <Group gap="md">
          <Text size="sm" c="dimmed" aria-live="polite">
            {t.detailed.shown(shown, pages.hasNextPage)}
          </Text>
          {pages.hasNextPage && (
            <Button variant="default" onClick={() => pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
              {t.detailed.loadMore}
            </Button>
          )}
        </Group>
      </Center>
      {pages.isFetchNextPageError && (
        <Text size="sm" c="red.8" ta="center" mt="xs" role="alert">
          {parseApiError(pages.error).message}
        </Text>
      )}
    </>
  );
}
