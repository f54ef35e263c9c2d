import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/** An identity provider's signing key and its self-signed certificate (made with openssl). */
export function makeSigningKey(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'saml-idp-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '2',
        '-subj',
        '/CN=Test IdP',
      ],
      { cwd: dir, stdio: 'ignore', timeout: 30_000 },
    );
    return {
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a service provider's redirect to the identity provider asks: its request's id and the relay state. */
export function readAuthnRequest(redirectUrl: string): { requestId: string; relayState: string } {
  const url = new URL(redirectUrl);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const requestId = xml.match(/\sID="([^"]+)"/)?.[1];
  if (!requestId) throw new Error(`no request id in ${xml}`);
  return { requestId, relayState: url.searchParams.get('RelayState') ?? '' };
}

export interface AssertionInput {
  key: string;
  cert: string;
  issuer: string;
  /** The response's own Issuer, when it is not the assertion's. */
  responseIssuer?: string;
  audience: string;
  acsUrl: string;
  /** The request answered; undefined: an unsolicited (identity-provider-started) response. */
  inResponseTo: string | undefined;
  nameId: string;
  email: string;
  /** Seconds from now the assertion stops being valid (negative: already expired). */
  validForSeconds?: number;
  /** Leave the assertion unsigned. */
  unsigned?: boolean;
  destination?: string;
}

/**
 * A SAML 2.0 response as an identity provider posts it (base64), its assertion signed with the
 * key (RSA-SHA256, exclusive canonicalisation, enveloped signature after the assertion's Issuer).
 */
export function samlResponse(input: AssertionInput): string {
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const until = iso(now + (input.validForSeconds ?? 300) * 1000);
  const issued = input.validForSeconds !== undefined && input.validForSeconds < 0 ? now - 3_600_000 : now;
  const id = (prefix: string) => `${prefix}${crypto.randomUUID().replaceAll('-', '')}`;
  const answers = input.inResponseTo === undefined ? '' : ` InResponseTo="${input.inResponseTo}"`;
  const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id('_a')}" Version="2.0" IssueInstant="${iso(issued)}"><saml:Issuer>${input.issuer}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${input.nameId}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${answers} NotOnOrAfter="${until}" Recipient="${input.acsUrl}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(issued - 60_000)}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${input.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(issued)}" SessionIndex="${id('_s')}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${input.email}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion>`;
  const response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id('_r')}" Version="2.0" IssueInstant="${iso(issued)}" Destination="${input.destination ?? input.acsUrl}"${answers}><saml:Issuer>${input.responseIssuer ?? input.issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
  if (input.unsigned) return Buffer.from(response).toString('base64');
  const signer = new SignedXml({
    privateKey: input.key,
    publicCert: input.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(response, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return Buffer.from(signer.getSignedXml()).toString('base64');
}
