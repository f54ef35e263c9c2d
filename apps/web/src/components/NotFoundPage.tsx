import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <Center h="80vh">
      <Stack align="center">
        <Title order={1}>Page not found</Title>
        <Text c="dimmed">The page you asked for does not exist.</Text>
        <Button component={Link} to="/">
          Go to the home page
        </Button>
      </Stack>
    </Center>
  );
}
