import { HttpException, Logger } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import { escapeHtml, html } from '../../services/gateway-api/src/payment-page/html.js';
import {
  amountForCopy,
  formatCountdown,
  formatTry,
  groupIban,
} from '../../services/gateway-api/src/payment-page/format.js';
import { chooseLanguage } from '../../services/gateway-api/src/payment-page/language.js';
import { PaymentPageErrorFilter } from '../../services/gateway-api/src/payment-page/payment-page-error.filter.js';

/** The pure pieces of the payment page: formatting from kuruş, language choice, escaping, the error page. */
describe('payment page formatting', () => {
  it('formats integer kuruş as Turkish lira without float error', () => {
    expect(formatTry(125050n)).toBe('₺1.250,50');
    expect(formatTry(1n)).toBe('₺0,01');
    expect(formatTry(30n)).toBe('₺0,30');
    // 2^53 is about 9e15 kuruş; the formatter gets a decimal string, so the last kuruş stays exact.
    expect(formatTry(123456789012345n)).toBe('₺1.234.567.890.123,45');
    expect(amountForCopy(125050n)).toBe('1250,50');
    expect(amountForCopy(25000n)).toBe('250,00');
  });

  it('groups an IBAN in fours and formats the countdown', () => {
    expect(groupIban('TR330006100519786457841326')).toBe('TR33 0006 1005 1978 6457 8413 26');
    expect(formatCountdown(1799)).toBe('29:59');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-5)).toBe('00:00');
    expect(formatCountdown(3900)).toBe('1:05:00');
  });

  it('chooses the language: ?lang, then Accept-Language by q, then Turkish', () => {
    expect(chooseLanguage(undefined, undefined)).toBe('tr');
    expect(chooseLanguage('en', 'tr-TR')).toBe('en');
    expect(chooseLanguage('EN', undefined)).toBe('en');
    expect(chooseLanguage('de', 'en-GB')).toBe('en');
    expect(chooseLanguage(['en', 'tr'], undefined)).toBe('tr');
    expect(chooseLanguage(undefined, 'de-DE,tr;q=0.5,en;q=0.9')).toBe('en');
    expect(chooseLanguage(undefined, 'en;q=0, tr')).toBe('tr');
    expect(chooseLanguage(undefined, 'fr, de')).toBe('tr');
    expect(chooseLanguage(undefined, ',,;;q=x')).toBe('tr');
  });

  it('escapes every interpolation unless it is html already', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    const name = '<script>alert(1)</script>';
    expect(html`<p title="${name}">${name}${html`<b>${name}</b>`}${[name, false, null, undefined]}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(1)&lt;/script&gt;">&lt;script&gt;alert(1)&lt;/script&gt;' +
        '<b>&lt;script&gt;alert(1)&lt;/script&gt;</b>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
  });
});

describe('payment page error filter', () => {
  function run(exception: unknown, url: string, headers: Record<string, string> = {}) {
    const sent: { status?: number; headers?: Record<string, string>; body?: unknown } = {};
    const reply = {
      status(code: number) {
        sent.status = code;
        return reply;
      },
      headers(values: Record<string, string>) {
        sent.headers = values;
        return reply;
      },
      send(body: unknown) {
        sent.body = body;
        return reply;
      },
    };
    const request = { url, method: 'GET', headers, query: Object.fromEntries(new URL(url, 'http://x').searchParams) };
    const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as ArgumentsHost;
    new PaymentPageErrorFilter().catch(exception, host);
    return sent;
  }

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['error', 'warn']));

  it('turns an unexpected failure into a friendly HTML page with no details', () => {
    const sent = run(new Error('connection refused at 10.0.0.5'), '/payment/abc?lang=en');
    expect(sent.status).toBe(500);
    expect(sent.headers!['content-type']).toBe('text/html; charset=utf-8');
    expect(sent.headers!['cache-control']).toBe('no-store');
    expect(String(sent.body)).toContain('Something went wrong');
    expect(String(sent.body)).not.toContain('connection refused');
  });

  it('keeps a framework status and answers the status poll in JSON', () => {
    expect(String(run(new HttpException('nope', 404), '/payment/abc', { 'accept-language': 'tr' }).body)).toContain(
      'Ödeme sayfası bulunamadı',
    );
    const poll = run(new Error('db down'), '/payment/abc/status');
    expect(poll.status).toBe(500);
    expect(poll.headers!['content-type']).toMatch(/^application\/json/);
    expect(poll.body).toMatchObject({ errorCode: 'unavailable' });
  });
});
