/**
 * The DNS server of the single sign-on journey (e2e/sso.spec.ts): the journey runs the API tests'
 * test DNS server (apps/api/test/dns-server.ts) on a UDP port of its own beside the server's, and
 * the server is told of it (DNS_SERVERS, set by playwright.config.ts) before it starts. Other
 * journeys never look a domain up, so they never need it running.
 */
export const dnsPort = (serverPort: number) => serverPort + 101;
export const dnsServersSetting = (serverPort: number) => `127.0.0.1:${dnsPort(serverPort)}`;
