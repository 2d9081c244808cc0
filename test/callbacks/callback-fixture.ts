import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parseBootstrap } from '@transfergate/all-in-one';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
export const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** One API key pair per callback format. */
export const CB_KEYS = {
  merchant: { apiKey: 'ak_cb_merchant', apiSecret: 'sk_cb_merchant_secret' },
  h2h: { apiKey: 'ak_cb_h2h_0001', apiSecret: 'sk_cb_h2h_secret_1' },
  infra: { apiKey: 'ak_cb_infra_01', apiSecret: 'sk_cb_infra_secret' },
  md5: { apiKey: 'ak_cb_md5_0001', apiSecret: 'sk_cb_md5_secret_1' },
};

export const CB_IBAN = 'TR330006100519786457841326';

/** A received callback. */
export interface ReceivedCallback {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: Record<string, unknown>;
  at: number;
}

/** How the receiver answers one request; undefined from the script means 200 {"ok":true}. */
export type Answer = (request: ReceivedCallback, response: ServerResponse) => void;

export const answers = {
  status:
    (status: number, body = '', headers: Record<string, string> = {}): Answer =>
    (_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain', ...headers });
      res.end(body);
    },
  /** Never answers (until the receiver closes). */
  hang: (): Answer => () => undefined,
};

/**
 * A real HTTP receiver on 127.0.0.1:0. Every request is recorded; answers come from a per-path
 * script (first in, first used), otherwise 200.
 */
export class CallbackReceiver {
  readonly received: ReceivedCallback[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private readonly sockets = new Set<Socket>();
  private readonly listeners = new Set<() => void>();
  private server!: Server;
  base = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          // recorded raw
        }
        const record: ReceivedCallback = { path: req.url ?? '', headers: req.headers, raw, body, at: Date.now() };
        this.received.push(record);
        const answer = this.scripts.get(record.path)?.shift();
        if (answer) answer(record, res);
        else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"ok":true}');
        }
        for (const listener of this.listeners) listener();
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Scripts the next answers for a path. */
  script(path: string, ...script: Answer[]): void {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...script]);
  }

  at(path: string): ReceivedCallback[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves once `predicate` holds over what was received. */
  async waitFor<T>(predicate: () => T | undefined | false, timeoutMs = 15_000, what = 'callbacks'): Promise<T> {
    const found = predicate();
    if (found) return found;
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = predicate();
        if (value) {
          clearTimeout(timer);
          this.listeners.delete(check);
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`timed out waiting for ${what}; received ${this.received.length}`));
      }, timeoutMs);
      this.listeners.add(check);
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Independent Standard Webhooks verification: v1,base64(HMAC-SHA256(secret, id.timestamp.body)). */
export function expectedWebhookSignature(secret: string, id: string, timestamp: string, raw: string): string {
  return `v1,${createHmac('sha256', secret).update(`${id}.${timestamp}.${raw}`).digest('base64')}`;
}

const infra = (base: string, slug: string, apiForm: string, callbackFormat: string) => ({
  name: `Callbacks ${slug}`,
  slug,
  apiForm,
  callbackFormat,
  callback_deposit: `${base}/${slug}/deposit`,
  callback_withdrawal: `${base}/${slug}/withdrawal`,
});

/** One infrastructure per callback format, all pointing at the receiver, and a provider on each (file form). */
export function callbackBootstrapFile(base: string) {
  return {
    infrastructures: [
      infra(base, 'cb-merchant', 'merchant', 'merchant'),
      infra(base, 'cb-h2h', 'h2h', 'h2h'),
      infra(base, 'cb-infra', 'infrastructure', 'infrastructure'),
      infra(base, 'cb-md5', 'h2h', 'md5'),
    ],
    merchants: [
      {
        name: 'Callbacks',
        minAmount: 1,
        maxAmount: 1000000,
        overdraftLimit: 10000000,
        providers: [
          { name: 'cb-merchant', infrastructure: 'cb-merchant', ...CB_KEYS.merchant },
          { name: 'cb-h2h', infrastructure: 'cb-h2h', ...CB_KEYS.h2h },
          { name: 'cb-infra', infrastructure: 'cb-infra', ...CB_KEYS.infra },
          { name: 'cb-md5', infrastructure: 'cb-md5', ...CB_KEYS.md5 },
        ],
      },
    ],
    bankAccounts: [
      {
        bank: 'Ziraat Bankası',
        iban: CB_IBAN,
        holderName: 'Transfer Ltd',
        minAmount: 1,
        maxAmount: 1000000,
        dailyLimit: 1000000000,
      },
    ],
  };
}

export function callbackBootstrap(base: string) {
  return parseBootstrap(callbackBootstrapFile(base), 'callbacks');
}

export function h2hRequest(key: { apiKey: string; apiSecret: string }, transactionId: string, amount: number) {
  return {
    apikey: key.apiKey,
    transaction_id: transactionId,
    amount,
    fullname: 'Ayşe Yılmaz',
    hash: sha256(`${key.apiKey}${transactionId}${key.apiSecret}${Math.round(amount)}`),
  };
}

export function infraRequest(transactionId: string, amount: number, extra: Record<string, string | number> = {}) {
  const guid = `3f2b8c1e-5d4a-4c3b-9a8f-${sha256(transactionId).slice(0, 12)}`;
  return {
    ApiKey: CB_KEYS.infra.apiKey,
    OperationGuid: guid,
    RequestId: transactionId,
    SecurityKey: sha256(`${CB_KEYS.infra.apiKey}${CB_KEYS.infra.apiSecret}${guid}`),
    Amount: amount,
    ...extra,
  };
}
