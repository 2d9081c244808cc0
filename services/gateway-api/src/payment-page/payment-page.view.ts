import { PAGE_VIEW, type PageView } from './deposit-status.js';
import { formatCountdown } from './format.js';
import { html, type SafeHtml } from './html.js';
import { TEXTS, type Texts } from './i18n.js';
import type { Lang } from './language.js';
import { renderDocument } from './layout.js';
import type { PaymentPageModel } from './page-model.js';

/**
 * The payment page's markup. Every state's section is rendered and the ones not current are
 * `hidden`, so the inline script switches state by toggling attributes: no text lives in the script
 * and both languages stay server-side. Values pass through `html`, which escapes them.
 */
export function renderPaymentPage(model: PaymentPageModel, lang: Lang, nonce: string): string {
  const t = TEXTS[lang];
  const current = PAGE_VIEW[model.state];
  const live = current === 'pay' || current === 'waiting';
  const final = model.state === 'approved' || model.state === 'rejected';
  const show = (...views: PageView[]) =>
    views.includes(current) ? html`data-show="${views.join(' ')}"` : html`data-show="${views.join(' ')}" hidden`;

  const body = html`<div
    id="pp"
    data-state="${model.state}"
    data-status-url="${model.token}/status"
    data-seconds-left="${model.secondsLeft}"
  >
    ${model.merchantName && html`<p class="payee" id="payee">${t.payee(model.merchantName)}</p>`}
    ${statusSections(t, show)}
    <section class="card">
      <div class="label" ${show('pay')}>${t.amountToSend}</div>
      <div class="label" ${show('waiting', 'approved', 'rejected', 'expired')}>${t.amount}</div>
      <div class="row">
        <span class="amount" id="v-amount">${model.amountText}</span
        >${live && copyButton(t, model.amountCopy, 'v-amount', show('pay', 'waiting'))}
      </div>
      <p class="timer" ${show('pay')}>${t.timeLeft}: <b id="countdown">${formatCountdown(model.secondsLeft)}</b></p>
      <p class="refline" ${show('approved', 'rejected', 'expired')}>${t.reference}: <b>${model.reference}</b></p>
    </section>
    ${current === 'pay' && bankPicker(t, model, show('pay'))} ${live && accountDetails(t, model, show)}
    ${current === 'pay' && reportForm(t, model, lang, show('pay'))}
    ${
      model.returnUrl &&
      html`<p class="back">
        <a id="back-to-merchant" href="${model.returnUrl}" rel="noreferrer"
          >${t.backTo(model.merchantName ?? new URL(model.returnUrl).host)}</a
        >
      </p>`
    }
  </div>`;
  return renderDocument({
    lang,
    texts: t,
    nonce,
    body,
    footer: true,
    withScript: !final,
    ...(current === 'waiting' ? { refreshSeconds: 15 } : {}),
  });
}

export function renderNotFoundPage(lang: Lang, nonce: string): string {
  const t = TEXTS[lang];
  return renderDocument({
    lang,
    texts: t,
    nonce,
    footer: false,
    withScript: false,
    body: notice('bad', '?', t.notFoundTitle, t.notFoundBody),
  });
}

export function renderErrorPage(lang: Lang, nonce: string): string {
  const t = TEXTS[lang];
  return renderDocument({
    lang,
    texts: t,
    nonce,
    footer: false,
    withScript: false,
    body: notice('warn', '!', t.errorTitle, t.errorBody),
  });
}

type Show = (...views: PageView[]) => SafeHtml;

function statusSections(t: Texts, show: Show): SafeHtml {
  return html`<section class="card status wait" role="status" ${show('waiting')}>
      <div class="spinner" aria-hidden="true"></div>
      <div>
        <h2>${t.waitingTitle}</h2>
        <p>${t.waitingBody}</p>
        <noscript><p>${t.refreshHint}</p></noscript>
      </div>
    </section>
    <section class="card status ok" role="status" ${show('approved')}>
      <div class="icon" aria-hidden="true">✓</div>
      <div>
        <h2>${t.approvedTitle}</h2>
        <p>${t.approvedBody}</p>
      </div>
    </section>
    <section class="card status bad" role="status" ${show('rejected')}>
      <div class="icon" aria-hidden="true">✕</div>
      <div>
        <h2>${t.rejectedTitle}</h2>
        <p>${t.rejectedBody}</p>
      </div>
    </section>
    <section class="card status warn" role="status" ${show('expired')}>
      <div class="icon" aria-hidden="true">!</div>
      <div>
        <h2>${t.expiredTitle}</h2>
        <p>${t.expiredBody}</p>
      </div>
    </section>`;
}

function notice(tone: 'bad' | 'warn', icon: string, title: string, text: string): SafeHtml {
  return html`<section class="card status ${tone}" role="alert">
    <div class="icon" aria-hidden="true">${icon}</div>
    <div>
      <h2>${title}</h2>
      <p>${text}</p>
    </div>
  </section>`;
}

/** Copy buttons are hidden until the script runs (.nojs); aria-controls names the value to select as a fallback. */
function copyButton(t: Texts, value: string, targetId: string, visibility?: SafeHtml): SafeHtml {
  return html`<button
    type="button"
    class="copy"
    ${visibility}
    data-copy="${value}"
    data-label="${t.copy}"
    data-copied="${t.copied}"
    data-failed="${t.copyFailed}"
    aria-controls="${targetId}"
  >
    ${t.copy}
  </button>`;
}

/** Picking needs no server call: it only selects which transfer-speed hint the script shows. */
function bankPicker(t: Texts, model: PaymentPageModel, visibility: SafeHtml): SafeHtml {
  const options = model.banks.map(
    (bank) =>
      html`<label class="bank"
        ><input type="radio" name="bank" form="report" value="${bank.code}" data-kind="${bank.kind}" /><span
          >${bank.name}${bank.kind === 'same' && html`<span class="badge">${t.receivingBankBadge}</span>`}</span
        ></label
      >`,
  );
  return html`<section class="card" ${visibility}>
    <fieldset>
      <legend>${t.chooseBank}</legend>
      <div class="banks">
        ${options}<label class="bank"
          ><input type="radio" name="bank" form="report" value="other" data-kind="${model.otherKind}" /><span
            >${t.otherBank}</span
          ></label
        >
      </div>
      <p class="hint" data-hint="same" hidden>${t.hintSameBank}</p>
      <p class="hint" data-hint="fast" hidden>${t.hintFast}</p>
      <p class="hint" data-hint="eft" hidden>${t.hintEft}</p>
    </fieldset>
  </section>`;
}

/** While paying it is an instruction; once reported, the same data is a receipt. */
function accountDetails(t: Texts, model: PaymentPageModel, show: Show): SafeHtml {
  const { account } = model;
  return html`<section class="card" ${show('pay', 'waiting')}>
    <h2 ${show('pay')}>${t.sendTo}</h2>
    <h2 ${show('waiting')}>${t.detailsTitle}</h2>
    <dl>
      <div class="field">
        <dt>${t.bank}</dt>
        <dd>${account.bank}${account.fast && html`<span class="badge">FAST</span>`}</dd>
      </div>
      <div class="field">
        <dt>${t.holder}</dt>
        <dd class="row">
          <span id="v-holder">${account.holderName}</span>${copyButton(t, account.holderName, 'v-holder')}
        </dd>
      </div>
      <div class="field">
        <dt>${t.iban}</dt>
        <dd class="row">
          <span class="mono" id="v-iban">${account.ibanGrouped}</span>${copyButton(t, account.ibanCopy, 'v-iban')}
        </dd>
      </div>
      <div class="field">
        <dt>${t.reference}</dt>
        <dd class="row">
          <span class="mono" id="v-ref">${model.reference}</span>${copyButton(t, model.reference, 'v-ref')}
        </dd>
        <dd class="small">${t.referenceHint}</dd>
      </div>
    </dl>
    <p class="note">${t.payFrom(model.customerName)}</p>
  </section>`;
}

/**
 * A plain form post, so reporting works without JavaScript. text/plain because the body is a few
 * `name=value` lines (the bank picked above, which joins the form by its `form` attribute, and the
 * time typed here, both optional) and Fastify parses text/plain out of the box (urlencoded would need
 * a parser plugin); the action is relative ("<token>/reported" from /payment/<token>) so a path
 * prefix in front of us still works.
 */
function reportForm(t: Texts, model: PaymentPageModel, lang: Lang, visibility: SafeHtml): SafeHtml {
  return html`<form
    class="card"
    id="report"
    method="post"
    enctype="text/plain"
    action="${model.token}/reported?lang=${lang}"
    ${visibility}
  >
    <p class="step">${t.reportHint}</p>
    <label class="sent-at">${t.sentAtLabel} <input type="time" name="sentAt" id="sent-at" autocomplete="off" /></label>
    <button type="submit" class="primary">${t.reportButton}</button>
  </form>`;
}
