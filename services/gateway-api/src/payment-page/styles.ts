/**
 * The whole stylesheet, inlined (with the response nonce) so the page costs one request and works
 * offline of any CDN. Mobile first: one column, 48px touch targets, system fonts.
 */
export const STYLES = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#eef1f5;color:#17202e;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:30rem;margin:0 auto;padding:12px}
[hidden]{display:none!important}
.top{display:flex;align-items:center;justify-content:space-between;gap:12px;margin:6px 4px 14px}
h1{font-size:1.15rem;line-height:1.25;margin:0}
h2,legend{font-size:1rem;font-weight:650;margin:0 0 10px;padding:0}
.lang{flex:none;font-size:.9rem;color:#1451b8;padding:7px 12px;border:1px solid #c9d3e3;border-radius:999px;text-decoration:none;background:#fff}
.card{background:#fff;border-radius:14px;padding:16px;margin:0 0 12px;box-shadow:0 1px 3px rgba(16,24,40,.08)}
.label{color:#5b6576;font-size:.85rem}
.row{display:flex;align-items:center;justify-content:space-between;gap:10px}
.amount{font-size:2rem;font-weight:750;letter-spacing:-.01em;font-variant-numeric:tabular-nums}
.timer{margin:10px 0 0;color:#5b6576;font-size:.95rem}
.timer b{font-variant-numeric:tabular-nums;color:#17202e}
.timer.low b{color:#b42318}
.refline{margin:8px 0 0;color:#5b6576;font-size:.95rem}
.refline b{color:#17202e;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.payee{margin:0 0 12px;font-weight:600}
.back{margin:16px 0 0;text-align:center}
fieldset{border:0;margin:0;padding:0;min-width:0}
.banks{display:grid;gap:8px}
.bank{display:flex;align-items:center;gap:10px;padding:11px 12px;border:1px solid #d5dbe5;border-radius:10px;min-height:48px;cursor:pointer}
.bank:has(input:checked){border-color:#1451b8;background:#f0f5ff}
.bank input{flex:none;width:20px;height:20px;margin:0;accent-color:#1451b8}
.badge{display:inline-block;font-size:.72rem;font-weight:650;padding:2px 8px;border-radius:999px;background:#e7f6ec;color:#157f3b;margin-left:6px;vertical-align:1px}
.hint{margin:10px 0 0;padding:10px 12px;border-radius:10px;background:#f0f5ff;color:#173f8a;font-size:.92rem}
dl{margin:0}
.field{padding:10px 0;border-top:1px solid #edf0f4}
.field:first-child{border-top:0;padding-top:0}
.field:last-child{padding-bottom:0}
dt{color:#5b6576;font-size:.85rem}
dd{margin:2px 0 0;font-weight:600;overflow-wrap:anywhere}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:1rem;letter-spacing:.01em}
.small{margin:6px 0 0;color:#5b6576;font-size:.85rem;font-weight:400}
.copy{flex:none;font:inherit;font-size:.85rem;font-weight:650;color:#1451b8;background:#fff;border:1px solid #c9d3e3;border-radius:8px;padding:8px 10px;min-height:40px;min-width:6.2rem;cursor:pointer}
.copy.done{color:#157f3b;border-color:#9fd8b4;background:#e7f6ec}
.nojs .copy{display:none}
.note{margin:12px 0 0;padding:10px 12px;border-radius:10px;background:#fff8e6;color:#6b4e00;font-size:.9rem}
.step{margin:0 0 10px;font-weight:650}
.sent-at{display:flex;align-items:center;justify-content:space-between;gap:10px;margin:0 0 12px;color:#3a4453;font-size:.95rem}
.sent-at input{font:inherit;padding:8px 10px;border:1px solid #c9d3e3;border-radius:8px;min-height:44px}
.primary{display:block;width:100%;font:inherit;font-size:1.05rem;font-weight:700;color:#fff;background:#1451b8;border:0;border-radius:12px;padding:14px;min-height:52px;cursor:pointer}
.primary:disabled{opacity:.6}
.status{display:flex;gap:12px;align-items:flex-start}
.status h2{margin:0 0 4px}
.status p{margin:0;color:#3a4453}
.icon{flex:none;width:36px;height:36px;border-radius:50%;display:flex;align-items:center;justify-content:center;font-weight:800;font-size:1.1rem;color:#fff;background:#1451b8}
.ok{background:#e7f6ec}.ok .icon{background:#157f3b}
.bad{background:#fdecea}.bad .icon{background:#b42318}
.warn{background:#fff4e0}.warn .icon{background:#b86e00}
.wait{background:#f0f5ff}
.spinner{flex:none;width:32px;height:32px;margin:2px;border:4px solid #c9d3e3;border-top-color:#1451b8;border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation:none}}
.offscreen{position:fixed;top:0;left:-9999px;opacity:0}
:focus-visible{outline:3px solid #8fb3ff;outline-offset:2px}
footer{text-align:center;color:#7a8494;font-size:.8rem;padding:4px 8px 20px}
`
  .trim()
  .replace(/\n/g, '');
