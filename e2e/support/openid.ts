/**
 * The OpenID provider of the single sign-on journey (e2e/sso.spec.ts): the journey runs it (the
 * real oidc-provider of the API tests) on a port of its own beside the server's, and the server
 * is configured with it as a social provider (OIDC_PROVIDERS, set by playwright.config.ts) before
 * it starts. Discovery is lazy, so other journeys never need it running.
 */
export const openIdPort = (serverPort: number) => serverPort + 100;
export const openIdIssuer = (serverPort: number) => `http://127.0.0.1:${openIdPort(serverPort)}`;

export const SOCIAL = { id: 'e2e', name: 'Test ID', clientId: 'sundial-e2e', clientSecret: 'sundial-e2e-secret' };
/** A second client at the same provider, for a workspace's own SSO. */
export const WORKSPACE_CLIENT = { clientId: 'sundial-e2e-workspace', clientSecret: 'sundial-e2e-workspace-secret' };

/** OIDC_PROVIDERS for the server on `serverPort`. */
export const socialProvidersSetting = (serverPort: number) =>
  JSON.stringify([
    {
      id: SOCIAL.id,
      name: SOCIAL.name,
      issuer: openIdIssuer(serverPort),
      clientId: SOCIAL.clientId,
      clientSecret: SOCIAL.clientSecret,
    },
  ]);
