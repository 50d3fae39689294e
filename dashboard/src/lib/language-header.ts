/**
 * Issue 29 "Language": every call the dashboard makes to its own server names the interface
 * language (`x-app-language`), so the server's refusals come back in it (engine/http/error-language.ts)
 * whichever screen made the call. Calls to other origins and calls that set the header already are
 * left as they are.
 */

/** Wraps `window.fetch` once; `language()` is the interface language at the time of each call. */
export function sendInterfaceLanguage(language: () => string): void {
  const w = window as typeof window & { __charlaLanguageHeader?: boolean };
  if (w.__charlaLanguageHeader) return;
  w.__charlaLanguageHeader = true;
  const original = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    if (input instanceof Request) return original(input, init);
    const url = new URL(String(input), window.location.href);
    if (url.origin !== window.location.origin) return original(input, init);
    const headers = new Headers(init?.headers);
    if (!headers.has('x-app-language')) headers.set('x-app-language', language());
    return original(input, { ...init, headers });
  };
}
