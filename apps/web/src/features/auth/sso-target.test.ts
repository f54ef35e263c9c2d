import { describe, expect, it } from 'vitest';
import { ssoTargetOf, ssoTexts } from './sso-target';

describe('what "Log in with SSO" sends', () => {
  it('sends a work e-mail as an e-mail', () => {
    expect(ssoTargetOf('  ada@corp.example ')).toEqual({ email: 'ada@corp.example' });
  });

  it('sends a workspace ID as the workspace, in any case', () => {
    expect(ssoTargetOf('0192F5C4-7B1E-7C3A-9D2E-5F6A7B8C9D0E')).toEqual({
      workspaceId: '0192f5c4-7b1e-7c3a-9d2e-5f6a7b8c9d0e',
    });
  });

  it('says what is wrong with anything else', () => {
    expect(ssoTargetOf('   ')).toEqual({ error: ssoTexts.empty });
    expect(ssoTargetOf('ada@')).toEqual({ error: ssoTexts.badEmail });
    expect(ssoTargetOf('ada@corp')).toEqual({ error: ssoTexts.badEmail });
    expect(ssoTargetOf('acme-corp')).toEqual({ error: ssoTexts.badWorkspace });
    expect(ssoTargetOf('0192f5c4-7b1e-7c3a-9d2e')).toEqual({ error: ssoTexts.badWorkspace });
  });
});
