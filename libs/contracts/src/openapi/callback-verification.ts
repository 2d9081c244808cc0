/**
 * How an integrator verifies a callback, with examples to copy: shown in /docs (the OpenAPI document's
 * description) and, the same text, in docs/integrators.md. The Node example is run by
 * test/callbacks/verification-examples.spec.ts as the receiver of real callbacks of several forms at
 * once (each verified with its own form's secret), and so is the Python one.
 */

/** A complete receiver: Standard Webhooks headers on every format, plus the MD5 format's own signature. */
export const CALLBACK_VERIFICATION_NODE = `// verify-callback.mjs: a callback receiver that checks the signatures. Node 18+, no packages.
// Each form's callbacks are signed with that form's provider's API secret, so the receiver picks the
// secret by the path of the callback URL it was sent to (the longest matching prefix). With --demo:
// CALLBACK_SECRETS='{"/callbacks/merchant/":"demo_merchant_secret","/callbacks/h2h/":"demo_h2h_secret","/callbacks/infra/":"demo_infra_secret"}' PORT=9999 node verify-callback.mjs
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

// Path prefix of a callback URL → the API secret of the provider those callbacks belong to.
const secrets = Object.entries(JSON.parse(process.env.CALLBACK_SECRETS ?? '{}'));
const TOLERANCE_SECONDS = 5 * 60; // refuse old messages (replays)

/** The secret for a request path; undefined when no callback URL of ours ends here. */
function secretFor(path) {
  const matches = secrets.filter(([prefix]) => path.startsWith(prefix));
  return matches.sort((a, b) => b[0].length - a[0].length)[0]?.[1];
}

/** Standard Webhooks, every format: v1,base64(HMAC-SHA256(secret, \`\${id}.\${timestamp}.\${rawBody}\`)). */
function standardWebhookValid(secret, headers, rawBody) {
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  if (!id || !Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest();
  // Space-separated signatures (key rotation): one valid v1 signature is enough.
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((entry) => {
      const [version, signature = ''] = entry.split(',');
      const given = Buffer.from(signature, 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** The MD5 format's own signature: MD5(transactionId + status + amount + type + secret), amount as sent. */
function md5SignatureValid(secret, body) {
  const expected = createHash('md5').update(\`\${body.transactionId}\${body.status}\${body.amount}\${body.type}\${secret}\`);
  const given = Buffer.from(String(body.signature).toLowerCase());
  const wanted = Buffer.from(expected.digest('hex'));
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const rawBody = Buffer.concat(chunks).toString('utf8'); // verify the bytes as received, then parse
    const path = new URL(request.url ?? '/', 'http://receiver').pathname;
    const secret = secretFor(path);
    let body;
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const valid =
      secret !== undefined &&
      typeof body === 'object' &&
      body !== null &&
      standardWebhookValid(secret, request.headers, rawBody) &&
      (body.signature === undefined || md5SignatureValid(secret, body));
    const id = request.headers['webhook-id'];
    if (!valid) {
      console.log(\`refused \${id} \${path}\`);
      response.writeHead(401).end();
      return;
    }
    // At-least-once: a retry carries the same webhook-id. Apply each id once, then answer 2xx.
    console.log(\`verified \${id} \${path} \${rawBody}\`);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
}).listen(Number(process.env.PORT ?? 8080), () => console.log('listening'));
`;

export const CALLBACK_VERIFICATION_PYTHON = `# verify_callback.py: the same receiver in Python 3, standard library only.
# Each form's callbacks are signed with that form's provider's API secret: the secret is picked by the
# path of the callback URL (the longest matching prefix). With --demo:
# CALLBACK_SECRETS='{"/callbacks/merchant/":"demo_merchant_secret","/callbacks/h2h/":"demo_h2h_secret","/callbacks/infra/":"demo_infra_secret"}' PORT=9999 python3 verify_callback.py
import base64, hashlib, hmac, json, os, time
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urlsplit

# Path prefix of a callback URL -> the API secret of the provider those callbacks belong to.
SECRETS = {prefix: secret.encode("utf-8") for prefix, secret in json.loads(os.environ["CALLBACK_SECRETS"]).items()}
TOLERANCE_SECONDS = 5 * 60  # refuse old messages (replays)


def secret_for(path: str):
    """The secret for a request path; None when no callback URL of ours ends here."""
    matches = sorted((prefix for prefix in SECRETS if path.startswith(prefix)), key=len, reverse=True)
    return SECRETS[matches[0]] if matches else None


def standard_webhook_valid(secret: bytes, headers, raw_body: bytes) -> bool:
    """Standard Webhooks, every format: v1,base64(HMAC-SHA256(secret, id.timestamp.raw_body))."""
    msg_id, timestamp = headers.get("webhook-id", ""), headers.get("webhook-timestamp", "")
    if not msg_id or not timestamp.isdigit() or abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    signed = f"{msg_id}.{timestamp}.".encode() + raw_body
    expected = base64.b64encode(hmac.new(secret, signed, hashlib.sha256).digest()).decode()
    entries = (entry.partition(",") for entry in headers.get("webhook-signature", "").split(" "))
    return any(version == "v1" and hmac.compare_digest(sig, expected) for version, _, sig in entries)


def md5_signature_valid(secret: bytes, body: dict) -> bool:
    """The MD5 format: MD5(transactionId + status + amount + type + secret), amount as sent."""
    text = f"{body['transactionId']}{body['status']}{body['amount']}{body['type']}".encode() + secret
    return hmac.compare_digest(str(body["signature"]).lower(), hashlib.md5(text).hexdigest())


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        raw_body = self.rfile.read(int(self.headers.get("content-length", 0)))  # verify these bytes
        path = urlsplit(self.path).path
        secret = secret_for(path)
        try:  # parse_float/parse_int=str keep the amount's text as sent, for the MD5 signature
            body = json.loads(raw_body, parse_float=str, parse_int=str)
        except ValueError:
            body = None
        valid = secret is not None and isinstance(body, dict) and standard_webhook_valid(secret, self.headers, raw_body)
        valid = valid and ("signature" not in body or md5_signature_valid(secret, body))
        # At-least-once: a retry carries the same webhook-id. Apply each id once, then answer 2xx.
        print(("verified " if valid else "refused ") + self.headers.get("webhook-id", "") + " " + path, flush=True)
        self.send_response(200 if valid else 401)
        self.end_headers()


HTTPServer(("0.0.0.0", int(os.environ.get("PORT", "8080"))), Receiver).serve_forever()
`;

export const CALLBACK_VERIFICATION_PHP = `<?php
// verify-callback.php: the same checks in PHP 8 (the route your callback URLs point at).
// Each form's callbacks are signed with that form's provider's API secret: the secret is picked by the
// path of the callback URL (the longest matching prefix), from CALLBACK_SECRETS as in the Node example.
$secrets = json_decode(getenv('CALLBACK_SECRETS') ?: '{}', true); // path prefix => API secret
$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH) ?: '/';
$prefixes = array_filter(array_keys($secrets), fn ($prefix) => str_starts_with($path, $prefix));
usort($prefixes, fn ($a, $b) => strlen($b) - strlen($a));
$secret = $prefixes ? $secrets[$prefixes[0]] : null;
$raw = file_get_contents('php://input'); // the bytes as received: verify them before decoding
$id = $_SERVER['HTTP_WEBHOOK_ID'] ?? '';
$timestamp = $_SERVER['HTTP_WEBHOOK_TIMESTAMP'] ?? '';
// Standard Webhooks, every format: v1,base64(HMAC-SHA256(secret, "id.timestamp.body")), within 5 minutes.
$expected = base64_encode(hash_hmac('sha256', "$id.$timestamp.$raw", (string) $secret, true));
$valid = $secret !== null && $id !== '' && ctype_digit($timestamp) && abs(time() - (int) $timestamp) <= 300;
$signatures = explode(' ', $_SERVER['HTTP_WEBHOOK_SIGNATURE'] ?? '');
$valid = $valid && count(array_filter($signatures, fn ($s) => hash_equals("v1,$expected", $s))) > 0;
$body = json_decode($raw, true);
if ($valid && is_array($body) && isset($body['signature'])) {
    // The MD5 format: MD5(transactionId + status + amount + type + secret), amount as it appears in the body.
    preg_match('/"amount"\\s*:\\s*([-0-9.eE+]+)/', $raw, $amount);
    $md5 = md5($body['transactionId'] . $body['status'] . ($amount[1] ?? '') . $body['type'] . $secret);
    $valid = hash_equals($md5, strtolower((string) $body['signature']));
}
// At-least-once: a retry carries the same webhook-id. Apply each id once, then answer 2xx.
http_response_code($valid && is_array($body) ? 200 : 401);
`;

/** Standard Webhooks libraries take the key as `whsec_` + base64 of its bytes: here, of the API secret's UTF-8. */
export const CALLBACK_VERIFICATION_LIBRARIES = `// Node (npm standardwebhooks)
import { Webhook } from 'standardwebhooks';
const webhook = new Webhook('whsec_' + Buffer.from(apiSecret, 'utf8').toString('base64'));
const payload = webhook.verify(rawBody, headers); // throws when the signature or timestamp is wrong

# Python (pip standardwebhooks)
from standardwebhooks.webhooks import Webhook
webhook = Webhook("whsec_" + base64.b64encode(api_secret.encode("utf-8")).decode())
payload = webhook.verify(raw_body, headers)

// PHP (composer standard-webhooks/standard-webhooks)
$webhook = new \\StandardWebhooks\\Webhook('whsec_' . base64_encode($apiSecret));
$payload = $webhook->verify($rawBody, $headers);
`;

/** The section as Markdown (the /docs description and docs/integrators.md use the same words and code). */
export function callbackVerificationMarkdown(): string {
  return [
    '**Verifying callbacks.** Every callback, in every format, carries Standard Webhooks headers: `webhook-id` ' +
      '(the same on every retry: deduplicate by it), `webhook-timestamp` (Unix seconds) and `webhook-signature` = ' +
      '`v1,` + base64(HMAC-SHA256(key, `<webhook-id>.<webhook-timestamp>.<raw body>`)), where the key is your ' +
      "provider's **API secret as UTF-8 bytes**. Verify the raw bytes before parsing them, refuse timestamps more than " +
      '5 minutes away, and answer 2xx within 15 s. The formats add their own checks: the **MD5** format carries ' +
      '`signature` = MD5(transactionId + status + amount + type + API secret), with the amount as its text in the ' +
      'body (`250`, `250.5`); the **Infrastructure** format echoes the `SecurityKey` of your request (compare it ' +
      'with the one you sent for that `OperationGuidBack`); the **Merchant** and **H2H** formats rely on the headers. ' +
      "Each provider signs with its own API secret, and each form's infrastructure has its own callback URLs: a " +
      'receiver for several forms picks the secret by the path the callback arrived at (the examples take ' +
      '`CALLBACK_SECRETS`, a JSON object of path prefix → API secret, and refuse a path they have no secret for).',
    'Node (no packages):',
    '```js\n' + CALLBACK_VERIFICATION_NODE + '```',
    'Python (standard library):',
    '```python\n' + CALLBACK_VERIFICATION_PYTHON + '```',
    'PHP:',
    '```php\n' + CALLBACK_VERIFICATION_PHP + '```',
    "With a Standard Webhooks library, give it the secret as `whsec_` + base64 of the API secret's UTF-8 bytes " +
      '(the libraries base64-decode what follows `whsec_` to get the key):',
    '```\n' + CALLBACK_VERIFICATION_LIBRARIES + '```',
  ].join('\n\n');
}
