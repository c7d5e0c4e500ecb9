/**
 * Pictures below the first screen load as they come near it (issue 12: blocking time on a phone).
 *
 * The games' art is drawn (SVG), and the browser makes each drawn picture a document of its own:
 * parsed, styled, laid out and painted on the page's main thread, 3–60 ms each on a slow phone.
 * Native `loading="lazy"` still fetches every picture within 1 250 px of the screen, which on a
 * phone is nearly the whole home page: twenty pictures drawn while the page starts, most of them
 * never seen. A deferred picture has no `src` in the page, only `data-deferred-art`; this observer
 * gives it its address once it is within NEAR of the screen (or of a rail's visible part).
 *
 * It runs twice over: as an inline script at the end of the body, so the pictures the server sent
 * appear as soon as they are parsed (before the scripts hydrate the page), and from DeferredImage
 * for pictures rendered in the browser. Observing a picture twice is harmless. The function is sent
 * to the browser as its source text (Function.prototype.toString), so it uses nothing from outside
 * itself.
 */
export function watchDeferredArt(images: ArrayLike<Element>): void {
  const NEAR = '300px';
  const host = window as Window & { deferredArtObserver?: IntersectionObserver };
  const reveal = (image: Element) => {
    const src = image.getAttribute('data-deferred-art');
    if (src && !image.getAttribute('src')) image.setAttribute('src', src);
  };
  if (typeof IntersectionObserver === 'undefined') {
    for (let i = 0; i < images.length; i++) reveal(images[i]!);
    return;
  }
  // scrollMargin widens what a horizontal rail counts as visible (browsers without it load a
  // rail's picture as it scrolls into view).
  const options = { rootMargin: NEAR, scrollMargin: NEAR } as IntersectionObserverInit;
  const observer = (host.deferredArtObserver ||= new IntersectionObserver((entries, self) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      self.unobserve(entry.target);
      reveal(entry.target);
    }
  }, options));
  for (let i = 0; i < images.length; i++) {
    if (!images[i]!.getAttribute('src')) observer.observe(images[i]!);
  }
}

/** Stops watching a picture that leaves the page before it came near the screen. */
export function unwatchDeferredArt(image: Element): void {
  (window as Window & { deferredArtObserver?: IntersectionObserver }).deferredArtObserver?.unobserve(image);
}

/** The inline script's text: every deferred picture the server sent, watched as soon as it is parsed. */
export const DEFERRED_ART_SCRIPT = `(${watchDeferredArt.toString()})(document.querySelectorAll('img[data-deferred-art]'))`;
