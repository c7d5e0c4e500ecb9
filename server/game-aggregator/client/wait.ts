/** Small timing helpers of the client's animations. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/** Element from an HTML string (trusted, built by the client itself). */
export function html<T extends Element = HTMLElement>(markup: string): T {
  const template = document.createElement('template');
  template.innerHTML = markup.trim();
  return template.content.firstElementChild as T;
}
