/**
 * Paint first, then load the scripts (issue 12: a phone sees the lobby in under two seconds).
 *
 * Every page is whole as the server sends it: its links work and its text reads before any script
 * runs. React Router writes the scripts that hydrate it as modulepreload hints in the head, so on a
 * slow phone line the stylesheet, the page and its art share the line with 130 KB of JavaScript
 * (six connections over HTTP/1.1), and the first paint waits for bytes it does not need. The
 * server (paint-first.server.ts) takes those hints, and the translation table's preload, out of the
 * document and puts them in the page's module script behind this gate: the browser paints what it
 * has, then fetches the scripts and the table together and hydrates. The price is that hydration
 * starts after the first paint rather than beside it; links and forms work before it as they do
 * today while the scripts are on their way.
 *
 * This function is sent to the browser as its source text (Function.prototype.toString), so it
 * uses nothing from outside itself.
 */
export function startAfterFirstPaint(links: string, moduleScript: string, nonce: string): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    document.head.insertAdjacentHTML('beforeend', links);
    const script = document.createElement('script');
    script.type = 'module';
    // 'strict-dynamic' trusts scripts a trusted script loads, not inline text it writes: the page's nonce goes on it.
    script.nonce = nonce;
    script.textContent = moduleScript;
    document.body.append(script);
  };
  // A tab opened in the background paints nothing until it is shown: nothing to wait for.
  if (document.visibilityState !== 'visible') return start();
  // A browser without paint timing: no paint to wait for.
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) return start();
  try {
    new PerformanceObserver((entries, observer) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      // The entry comes once the painted frame is on the screen; the scripts go out right after it.
      setTimeout(start, 0);
    }).observe({ type: 'paint', buffered: true });
  } catch {
    return start();
  }
  // A page that paints nothing contentful still hydrates.
  setTimeout(start, 3000);
}
