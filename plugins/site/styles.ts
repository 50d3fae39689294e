/** The public site's styles, inlined into every page (mobile first; the dashboard's teal 700 #0f766e). */
export const SITE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;scroll-behavior:smooth;scroll-padding-top:3rem}
@media (min-width:700px){html{scroll-padding-top:7rem}}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Devanagari",sans-serif;color:#0f172a;background:#fff;line-height:1.55;overflow-x:hidden}
img,video{max-width:100%;height:auto;display:block}
a{color:#0f766e}
a:hover{color:#115e59}
:focus-visible{outline:2px solid #0f766e;outline-offset:2px}
h1,h2,h3{line-height:1.2;letter-spacing:-.01em;margin:0 0 .6rem}
h1{font-size:clamp(2rem,6vw,3.2rem)}
h2{font-size:clamp(1.5rem,4vw,2.1rem)}
h3{font-size:1.1rem}
p{margin:0 0 1rem}
ul,ol{margin:0;padding:0;list-style:none}
.wrap{max-width:72rem;margin:0 auto;padding:0 1rem}
.narrow{max-width:46rem}
.center{text-align:center}
.muted{color:#475569;font-size:.92rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem;z-index:100}
.skip:focus{left:.5rem}
.topbar{background:#fff;border-bottom:1px solid #e2e8f0}
.banner{position:sticky;top:0;z-index:51;margin:0;background:#0f766e;color:#fff;text-align:center;font-size:.8rem;padding:.3rem 1rem;line-height:1.3}
.header{display:flex;align-items:center;justify-content:space-between;gap:.5rem;min-height:3.5rem}
/* On a phone the hero's first button is the same call to action: the header keeps one row. */
@media (max-width:479px){.nav .btn-small{display:none}}
.brand{display:flex;align-items:center;gap:.5rem;font-weight:800;font-size:1.2rem;color:#0f172a;text-decoration:none}
.nav{display:flex;align-items:center;gap:.25rem .6rem;flex-wrap:wrap;font-size:.9rem}
.nav>a:not(.btn){color:#0f172a;text-decoration:none;padding:.5rem .1rem}
.lang{position:relative}
.lang summary{cursor:pointer;list-style:none;padding:.5rem .4rem;border-radius:.5rem}
.lang summary::-webkit-details-marker{display:none}
.lang ul{position:absolute;right:0;top:2.4rem;background:#fff;border:1px solid #e2e8f0;border-radius:.6rem;box-shadow:0 10px 30px rgba(15,23,42,.12);padding:.3rem;min-width:9rem;z-index:60}
.lang a{display:block;padding:.45rem .7rem;border-radius:.4rem;color:#0f172a;text-decoration:none}
.lang a:hover,.lang a[aria-current]{background:#f0fdfa}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:.4rem;min-height:2.75rem;padding:.6rem 1.15rem;border-radius:.7rem;background:#0f766e;color:#fff;font-weight:700;text-decoration:none;border:2px solid #0f766e;cursor:pointer;font:inherit;font-weight:700}
.btn:hover{background:#115e59;color:#fff}
.btn-ghost{background:#fff;color:#0f766e}
.btn-ghost:hover{background:#f0fdfa;color:#115e59}
.btn-small{min-height:2.4rem;padding:.35rem .8rem;font-size:.9rem}
.hero{display:grid;gap:2rem;padding-top:2.5rem;padding-bottom:2.5rem}
.highlight{display:block;color:#0f766e}
.lead{font-size:1.12rem;color:#334155}
.ctas{display:flex;flex-wrap:wrap;gap:.6rem;margin:1.2rem 0}
.ticks li{display:flex;gap:.5rem;align-items:flex-start;margin:.35rem 0}
.tick{flex:none;margin-top:.2rem}
.hero-media{display:grid;gap:1rem;justify-items:center}
.carousel{position:relative;margin:0;width:min(100%,360px);aspect-ratio:360/440}
.slide{position:absolute;inset:0;width:100%;height:100%;opacity:0;animation:fade 12s infinite}
.slide:nth-child(1){opacity:1;animation-delay:-1s}
.slide:nth-child(2){animation-delay:2s}
.slide:nth-child(3){animation-delay:5s}
.slide:nth-child(4){animation-delay:8s}
@keyframes fade{0%{opacity:0}8.33%{opacity:1}25%{opacity:1}33.33%{opacity:0}100%{opacity:0}}
@media (prefers-reduced-motion:reduce){.slide{animation:none}html{scroll-behavior:auto}}
.demo-video{width:min(100%,320px);border-radius:1rem;box-shadow:0 10px 30px rgba(15,23,42,.15);background:#0f172a;aspect-ratio:16/10}
.section{padding:3rem 0}
.section.wrap{padding:3rem 1rem}
.alt{background:#f8fafc}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:1rem;padding:1.2rem;box-shadow:0 1px 2px rgba(15,23,42,.04)}
.steps,.grid3,.bots,.examples{display:grid;gap:1rem;margin:1.2rem 0}
.split{display:grid;gap:2rem;align-items:center}
.examples li{font-weight:600}
.chips{border:0;padding:0;margin:1rem 0;display:flex;flex-wrap:wrap;gap:.5rem}
.chips input{position:absolute;opacity:0;width:1px;height:1px}
.chips label{display:inline-block;padding:.5rem .9rem;border-radius:999px;border:1px solid #99f6e4;background:#fff;cursor:pointer;min-height:2.5rem}
.chips input:checked+label{background:#0f766e;color:#fff;border-color:#0f766e}
.chips input:focus-visible+label{outline:2px solid #0f766e;outline-offset:2px}
.directory:has(#industry-health:checked) .bot:not([data-industry=health]),
.directory:has(#industry-education:checked) .bot:not([data-industry=education]),
.directory:has(#industry-entertainment:checked) .bot:not([data-industry=entertainment]){display:none}
.bot a{color:inherit;text-decoration:none;display:block}
.bot:hover{border-color:#5eead4}
.badge{align-self:flex-start;display:inline-block;background:#ccfbf1;color:#115e59;border-radius:999px;padding:.1rem .6rem;font-size:.78rem;font-weight:700;margin-bottom:.4rem}
.metric{color:#0f766e;font-weight:700}
blockquote{margin:0;color:#334155}
.phone{background:#0f172a;border-radius:2rem;padding:2rem 1.2rem;max-width:22rem;margin:0 auto;display:grid;gap:.8rem}
.pill{justify-self:start;background:#fde68a;color:#713f12;border-radius:999px;padding:.2rem .7rem;font-weight:700;font-size:.85rem}
.bubble{background:#fff;border-radius:1rem 1rem 1rem .2rem;padding:.8rem 1rem;margin:0}
.trial{font-weight:700;color:#115e59}
.plans{display:grid;gap:1rem;margin:1.5rem 0}
.plan{display:flex;flex-direction:column;gap:.4rem}
.plan .btn{margin-top:auto}
.popular{border:2px solid #0f766e}
.price{font-size:2.2rem;font-weight:800;margin:0}
.price span{font-size:1rem;font-weight:600;color:#475569}
.table-scroll{overflow-x:auto;margin:1rem 0;border:1px solid #e2e8f0;border-radius:1rem;background:#fff}
table{border-collapse:collapse;width:100%;min-width:40rem;font-size:.92rem}
th,td{padding:.7rem .8rem;text-align:left;border-bottom:1px solid #e2e8f0;vertical-align:top}
thead th{background:#f0fdfa}
td.ours{font-weight:700;color:#115e59;background:#f0fdfa}
.faq{border-bottom:1px solid #e2e8f0;padding:.4rem 0}
.faq summary{cursor:pointer;font-weight:700;padding:.6rem 0;min-height:2.75rem}
.footer{background:#0f172a;color:#cbd5e1;padding:2.5rem 0;font-size:.92rem}
.footer a{color:#99f6e4}
.footer .brand{color:#fff}
.footer h2{font-size:1rem;color:#fff}
.footer li{margin:.3rem 0}
.footer-grid{display:grid;gap:1.5rem}
.legal h2{font-size:1.25rem;margin-top:1.6rem}
.operator{background:#f0fdfa;border-radius:.7rem;padding:.8rem 1rem}
.facts{display:flex;flex-wrap:wrap;gap:1.5rem;margin:1rem 0}
.facts dt{font-size:.85rem;color:#475569}
.facts dt::first-letter{text-transform:uppercase}
.facts dd{margin:0;font-weight:800;font-size:1.3rem}
.btn[aria-pressed=true]{background:#0f766e;color:#fff}
.directory-head{display:flex;flex-wrap:wrap;align-items:flex-end;justify-content:space-between;gap:1rem}
.directory-tools{display:flex;flex-wrap:wrap;align-items:flex-end;justify-content:space-between;gap:1rem;margin:1.2rem 0}
.sorts{display:flex;flex-wrap:wrap;gap:.5rem}
.sorts a{display:inline-flex;align-items:center;min-height:2.5rem;padding:.4rem .9rem;border-radius:999px;border:1px solid #cbd5e1;background:#fff;color:#0f172a;text-decoration:none;font-weight:600;font-size:.92rem}
.sorts a[aria-current]{background:#0f766e;border-color:#0f766e;color:#fff}
.category-form{min-width:0;max-width:100%}
.category-form label{display:grid;gap:.25rem;font-size:.9rem;font-weight:600}
.category-form select{min-height:2.5rem;border:1px solid #cbd5e1;border-radius:.6rem;padding:.3rem .5rem;font:inherit;background:#fff;width:100%;max-width:22rem}
.cards{display:grid;gap:1rem}
.bot-card{display:flex;flex-direction:column;gap:.4rem;height:100%}
.bot-card h2{font-size:1.15rem;margin:0}
.bot-card h2 a{color:#0f172a;text-decoration:none}
.bot-card h2 a:hover{text-decoration:underline}
.bot-card p{margin:0}
.clamp{display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden;color:#334155;flex:1}
.counts{display:flex;gap:1rem;font-size:.92rem}
.actions{display:flex;flex-wrap:wrap;gap:.4rem;margin-top:.4rem}
.notice{border:1px dashed #cbd5e1;border-radius:1rem;padding:1.5rem;text-align:center;color:#475569}
.notice.error{border-style:solid;border-color:#fecaca;background:#fef2f2;color:#991b1b}
.assistant-fab{position:fixed;right:1rem;bottom:1rem;width:3.5rem;height:3.5rem;border-radius:50%;border:0;background:#0f766e;box-shadow:0 8px 24px rgba(15,23,42,.25);cursor:pointer;display:grid;place-items:center;z-index:70}
.assistant-fab:hover{background:#115e59}
.assistant-panel{position:fixed;right:1rem;bottom:1rem;width:320px;height:384px;max-width:calc(100vw - 2rem);max-height:calc(100dvh - 2rem);background:#fff;border:1px solid #e2e8f0;border-radius:1rem;box-shadow:0 16px 40px rgba(15,23,42,.25);display:flex;flex-direction:column;z-index:70;overflow:hidden}
.assistant-head{display:flex;align-items:center;gap:.25rem;background:#0f766e;color:#fff;padding:.35rem .5rem .35rem .9rem}
.assistant-head h2{font-size:1rem;margin:0;flex:1}
.assistant-head button{background:transparent;border:0;color:#fff;width:2.5rem;height:2.5rem;border-radius:.5rem;cursor:pointer;font-size:1.1rem}
.assistant-head button:hover{background:rgba(255,255,255,.15)}
.assistant-log{flex:1;overflow-y:auto;padding:.7rem;display:flex;flex-direction:column;gap:.5rem;font-size:.92rem}
.msg{max-width:85%;padding:.5rem .75rem;border-radius:.9rem;white-space:pre-line;overflow-wrap:anywhere}
.msg.bot{background:#f1f5f9;align-self:flex-start;border-bottom-left-radius:.2rem}
.msg.me{background:#0f766e;color:#fff;align-self:flex-end;border-bottom-right-radius:.2rem}
.typing{color:#475569;font-size:.85rem;align-self:flex-start}
.typing span{display:inline-block;animation:blink 1s infinite}
@keyframes blink{50%{opacity:.3}}
.assistant-form{display:flex;gap:.4rem;padding:.5rem;border-top:1px solid #e2e8f0}
.assistant-form input{flex:1;min-width:0;border:1px solid #cbd5e1;border-radius:.6rem;padding:.5rem .7rem;font:inherit}
.assistant-form button{min-height:2.5rem}
.assistant-bar{position:fixed;right:1rem;bottom:1rem;width:320px;max-width:calc(100vw - 2rem);border-radius:.8rem;overflow:hidden;box-shadow:0 8px 24px rgba(15,23,42,.25);z-index:70}
.assistant-bar .assistant-head h2 button{width:auto;height:auto;font-size:1rem;font-weight:700;padding:.4rem 0;text-align:left}
@media (min-width:700px){
  .topbar{position:sticky;top:1.85rem;z-index:50}
  .nav{gap:.25rem .9rem;font-size:.95rem}
  .hero{grid-template-columns:1.2fr 1fr;align-items:center;padding-top:4rem;padding-bottom:4rem}
  .steps,.grid3,.bots{grid-template-columns:repeat(3,1fr)}
  .cards{grid-template-columns:repeat(2,1fr)}
  .split{grid-template-columns:1fr 1fr}
  .plans{grid-template-columns:1fr 1fr;max-width:48rem;margin-left:auto;margin-right:auto}
  .footer-grid{grid-template-columns:2fr 1fr 1fr 1.5fr}
}
@media (min-width:1024px){.cards{grid-template-columns:repeat(3,1fr)}}
`;
