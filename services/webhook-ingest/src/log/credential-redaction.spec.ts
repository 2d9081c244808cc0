import { REDACTED, isCredentialName, redactCredentialFields, redactCredentialText } from './credential-redaction.js';

const CREDENTIAL_NAMES = [
  'secretKey',
  'secret_key',
  'privateKey',
  'private-key',
  'pwd',
  'PWD',
  'credential',
  'Credentials',
  'apiSecret',
  'api_secret',
  'ApiKey',
  'password',
  'passwd',
  'pass',
  'SecurityKey',
  'Hash',
  'signature',
  'access_token',
  'Authorization',
  'ns:apiSecret',
  'api%5Fsecret',
  'client_secret',
];
const PLAIN_NAMES = ['transactionId', 'status', 'amount', 'user', 'username', 'passport', 'note', 'reference'];

describe('credential redaction in the webhook log', () => {
  it('knows credential names by pattern, in any case and spelling, and leaves other names alone', () => {
    expect(CREDENTIAL_NAMES.filter((name) => !isCredentialName(name))).toEqual([]);
    expect(PLAIN_NAMES.filter((name) => isCredentialName(name))).toEqual([]);
  });

  it('blanks credential fields of a JSON body at any depth', () => {
    const body = {
      transactionId: 'T-1',
      secretKey: 's1',
      nested: { privateKey: 'p1', pwd: 'p2', list: [{ credential: 'c1' }], user: 'u' },
    };
    const stored = JSON.parse(JSON.stringify(body, redactCredentialFields)) as typeof body;
    expect(stored).toEqual({
      transactionId: 'T-1',
      secretKey: REDACTED,
      nested: { privateKey: REDACTED, pwd: REDACTED, list: [{ credential: REDACTED }], user: 'u' },
    });
  });

  it('blanks them in form-encoded text', () => {
    const text = 'transactionId=T-1&secretKey=s1&privateKey=p1&pwd=p2&credential=c1&api%5Fsecret=a1&status=ok';
    const stored = redactCredentialText(text);
    for (const secret of ['s1', 'p1', 'p2', 'c1', 'a1']) expect(stored).not.toMatch(new RegExp(`=${secret}\\b`));
    expect(stored).toContain('transactionId=T-1');
    expect(stored).toContain('status=ok');
  });

  it('blanks them in XML elements (text and CDATA, any prefix), attributes, and an element cut off at the end', () => {
    const xml =
      '<?xml version="1.0"?><cb><transactionId>T-1</transactionId><apiSecret>sk-live-123</apiSecret>' +
      '<auth><ns:privateKey type="rsa">pk-456</ns:privateKey><pwd><![CDATA[pw-789]]></pwd></auth>' +
      '<user credential="cred-000">ali</user><status>approved</status><secretKey>cut-off-';
    const stored = redactCredentialText(xml);
    for (const secret of ['sk-live-123', 'pk-456', 'pw-789', 'cred-000', 'cut-off-']) {
      expect(stored).not.toContain(secret);
    }
    expect(stored).toContain('<apiSecret>[redacted]</apiSecret>');
    expect(stored).toContain('<transactionId>T-1</transactionId>');
    expect(stored).toContain('<status>approved</status>');
    expect(stored).toContain('<user credential="[redacted]">ali</user>');
  });

  it('blanks them in broken JSON kept as text', () => {
    const stored = redactCredentialText('{"transactionId":"x","secretKey": "hunter2", \'pwd\':\'p\', credential=c9');
    expect(stored).toBe(
      '{"transactionId":"x","secretKey": "[redacted]", \'pwd\':\'[redacted]\', credential=[redacted]',
    );
  });
});
