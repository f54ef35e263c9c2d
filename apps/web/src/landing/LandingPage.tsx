import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';

/** Whether this document itself was loaded at "/" (then the server sent the app, not the site). */
function documentLoadedAtRoot(): boolean {
  const entry = performance.getEntriesByType('navigation')[0];
  return entry ? new URL(entry.name).pathname === '/' : false;
}

/**
 * The public site is static HTML the server sends for "/" (src/landing/render.tsx). When the app
 * navigates to "/" on its own (after logging out, say), load that page for real.
 */
export function LandingPage() {
  const loop = documentLoadedAtRoot();
  useEffect(() => {
    if (!loop) window.location.replace('/');
  }, [loop]);
  if (!loop) return null;
  return (
    <Container size="sm" py="xl">
      <Stack align="flex-start">
        <Title order={1}>Sundial</Title>
        <Text>The public site has not been built. Run npm run build to prerender it.</Text>
        <Button component="a" href="/signuppage">
          Sign up
        </Button>
        <Button component="a" href="/loginpage" variant="subtle">
          Sign in
        </Button>
      </Stack>
    </Container>
  );
}
