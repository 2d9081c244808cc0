/**
 * The page's only script, inlined with the response nonce. It is progressive: without it the page
 * still shows everything and the report form still posts. It adds copy buttons, the live countdown,
 * the bank hint, and a status poll that flips the visible section without a reload.
 *
 * Plain ES2017 with no interpolated data: everything it needs comes from data-* attributes the
 * server escaped, so no customer text is ever spliced into script source.
 */
export const CLIENT_SCRIPT = `
(function () {
  'use strict';
  var root = document.getElementById('pp');
  if (!root) return;
  document.documentElement.classList.remove('nojs');
  var VIEW = { awaiting_payment: 'pay', payment_reported: 'waiting', held: 'waiting', approved: 'approved', rejected: 'rejected', expired: 'expired' };
  var FINAL = { approved: true, rejected: true };
  var state = root.getAttribute('data-state');
  var statusUrl = root.getAttribute('data-status-url');
  var deadline = Date.now() + Number(root.getAttribute('data-seconds-left') || 0) * 1000;
  var pollUntil = Date.now() + 60 * 60 * 1000;

  function show(next) {
    if (!VIEW[next]) return;
    state = next;
    root.setAttribute('data-state', next);
    var view = VIEW[next];
    var parts = root.querySelectorAll('[data-show]');
    for (var i = 0; i < parts.length; i++) {
      parts[i].hidden = (' ' + parts[i].getAttribute('data-show') + ' ').indexOf(' ' + view + ' ') < 0;
    }
  }

  var countdown = document.getElementById('countdown');
  function pad(n) { return n < 10 ? '0' + n : String(n); }
  function tick() {
    var left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    if (countdown) {
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      countdown.textContent = (h > 0 ? h + ':' + pad(m) : pad(m)) + ':' + pad(s);
      countdown.parentNode.classList.toggle('low', left < 300);
    }
    // The server says the same once the clock passes expiresAt; do not wait for the next poll.
    if (left === 0 && (state === 'awaiting_payment' || state === 'payment_reported')) show('expired');
  }
  if (countdown) { tick(); setInterval(tick, 1000); }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.className = 'offscreen';
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      document.body.removeChild(area);
      if (ok) resolve(); else reject(new Error('copy failed'));
    });
  }
  function selectText(node) {
    if (!node || !window.getSelection) return;
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  function flash(button, label, done) {
    var original = button.getAttribute('data-label');
    button.textContent = label;
    button.classList.toggle('done', done);
    clearTimeout(button._t);
    button._t = setTimeout(function () { button.textContent = original; button.classList.remove('done'); }, 2500);
  }
  root.addEventListener('click', function (event) {
    var button = event.target.closest ? event.target.closest('[data-copy]') : null;
    if (!button) return;
    copyText(button.getAttribute('data-copy')).then(function () {
      flash(button, button.getAttribute('data-copied'), true);
    }, function () {
      // Last resort: select the value so a long-press copies it.
      selectText(document.getElementById(button.getAttribute('aria-controls')));
      flash(button, button.getAttribute('data-failed'), false);
    });
  });

  root.addEventListener('change', function (event) {
    var input = event.target;
    if (input.name !== 'bank') return;
    var hints = root.querySelectorAll('[data-hint]');
    for (var i = 0; i < hints.length; i++) hints[i].hidden = hints[i].getAttribute('data-hint') !== input.getAttribute('data-kind');
  });

  var form = document.getElementById('report');
  if (form) form.addEventListener('submit', function () {
    var button = form.querySelector('button');
    // Disable after this tick so the submission itself still goes out.
    setTimeout(function () { button.disabled = true; }, 0);
  });

  function schedule() {
    if (FINAL[state] || Date.now() > pollUntil) return;
    setTimeout(poll, state === 'expired' ? 15000 : 4000);
  }
  function poll() {
    fetch(statusUrl, { cache: 'no-store', credentials: 'omit', headers: { accept: 'application/json' } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) {
        if (!body) return;
        if (typeof body.secondsLeft === 'number') deadline = Date.now() + body.secondsLeft * 1000;
        if (body.state !== state) show(body.state);
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(schedule);
  }
  schedule();
})();
`
  .trim()
  // Indentation is for the reader of this file; the phone need not download it.
  .replace(/\n\s+/g, '\n');
