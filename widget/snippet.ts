/**
 * The embeddable snippet the /charla-web screen generates (spec 001 §7 "Embeddable snippet"): it
 * waits for the page body (polling every 100 ms), mounts `<div id="charla-widget">` carrying the key
 * and the app host, and loads `<host>/widget.js`, trying again every 2 seconds when loading fails.
 * Plain ES5 inside, so it runs on any page; no browser API is used here, so the dashboard and the
 * server may import it.
 */

/** Spec 001 §9: widget script retry 2000 ms, body poll 100 ms. */
export const SNIPPET_RETRY_MS = 2000;
export const SNIPPET_BODY_POLL_MS = 100;

/** A JSON string literal that is safe inside an HTML <script> element. */
const scriptString = (value: string) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/**
 * The snippet for a bot key, loading the widget from `origin` (the app's public address, e.g.
 * "https://charla.example.com"; a trailing slash is dropped).
 */
export function embedSnippet(origin: string, key: string): string {
  const host = origin.replace(/\/+$/, '');
  return `<!-- Charla chat widget -->
<script>
(function (d, host, key) {
  function load() {
    var s = d.createElement('script');
    s.src = host + '/widget.js';
    s.async = true;
    s.onerror = function () {
      s.parentNode && s.parentNode.removeChild(s);
      setTimeout(load, ${SNIPPET_RETRY_MS});
    };
    d.body.appendChild(s);
  }
  function mount() {
    if (!d.body) return setTimeout(mount, ${SNIPPET_BODY_POLL_MS});
    if (!d.getElementById('charla-widget')) {
      var c = d.createElement('div');
      c.id = 'charla-widget';
      c.setAttribute('data-charla-key', key);
      c.setAttribute('data-charla-host', host);
      d.body.appendChild(c);
    }
    load();
  }
  mount();
})(document, ${scriptString(host)}, ${scriptString(key)});
</script>`;
}
