/**
 * Issue 12 (a phone sees the lobby in under two seconds): the scripts that hydrate a page are
 * fetched after its first paint. These tests hold the server's rewrite of a document React Router
 * wrote: the hints leave the head, the module script carries them and its own text to the gate,
 * nothing else in the document changes, and the stream gives the same bytes however it is cut.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { holdHydrationUntilPainted, paintFirstStream } from './paint-first.server';

const NONCE = 'n0nce+/AbC=';
const PRELOADS = [
  `<link rel="modulepreload" href="/assets/entry.client-A1.js" nonce="${NONCE}"/>`,
  `<link rel="modulepreload" href="/assets/site-B2.js" nonce="${NONCE}"/>`,
];
const TABLE_PRELOAD = `<link rel="preload" as="fetch" crossorigin="anonymous" fetchPriority="low" href="/platform/translations/it.json?v=V1" data-translations="V1"/>`;
const MODULE_TEXT = `;\nimport * as route0 from "/assets/root-C3.js";\nwindow.__reactRouterRouteModules = {"root":route0};\nimport("/assets/entry.client-A1.js");`;

/** A document shaped as React Router writes one: hints in the head, the module script after the page. */
function documentWith({ body = '<main><h1>Slot più belle — €5</h1></main>', tail = '' } = {}): string {
  return (
    `<!DOCTYPE html><html lang="it"><head><meta charSet="utf-8"/><link rel="stylesheet" href="/assets/app.css"/>` +
    `<link rel="preload" as="image" href="/art/a.svg"/>${TABLE_PRELOAD}${PRELOADS.join('')}</head><body>${body}` +
    `<script nonce="${NONCE}">window.__reactRouterContext = {};</script>` +
    `<script nonce="${NONCE}" type="module" async="">${MODULE_TEXT}</script>${tail}</body></html>`
  );
}

/** What the rewritten module script hands the gate: its three arguments, read back as the browser would. */
function gateArguments(html: string): [links: string, moduleText: string, nonce: string] {
  const script = /<script nonce="[^"]*" type="module" async="">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!script) throw new Error('no module script');
  const call = /\}\)\(("(?:[^"\\]|\\.)*"),("(?:[^"\\]|\\.)*"),("(?:[^"\\]|\\.)*")\);$/.exec(script);
  if (!call) throw new Error(`the module script calls no gate: ${script.slice(0, 200)}`);
  return [JSON.parse(call[1]!), JSON.parse(call[2]!), JSON.parse(call[3]!)];
}

async function throughStream(html: string, chunkBytes: number): Promise<string> {
  const bytes = Buffer.from(html);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunkBytes) chunks.push(bytes.subarray(at, at + chunkBytes));
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(paintFirstStream())) out.push(chunk as Buffer);
  return Buffer.concat(out).toString('utf8');
}

describe('paint first, then load the scripts (issue 12: LCP on a phone)', () => {
  it('takes the modulepreload hints and the translation table preload out of the head, and nothing else', () => {
    const html = documentWith();
    const rewritten = holdHydrationUntilPainted(Buffer.from(html).toString('latin1'))!;
    const head = Buffer.from(rewritten, 'latin1').toString('utf8').split('</head>')[0]!;
    for (const link of [...PRELOADS, TABLE_PRELOAD]) expect(head).not.toContain(link);
    expect(head).toContain('<link rel="stylesheet" href="/assets/app.css"/>');
    expect(head).toContain('<link rel="preload" as="image" href="/art/a.svg"/>');
  });

  it('hands the gate the removed links, the module text unchanged and the page nonce', () => {
    const rewritten = Buffer.from(
      holdHydrationUntilPainted(Buffer.from(documentWith()).toString('latin1'))!,
      'latin1',
    ).toString();
    const [links, moduleText, nonce] = gateArguments(rewritten);
    expect(links).toBe(TABLE_PRELOAD + PRELOADS.join(''));
    expect(moduleText).toBe(MODULE_TEXT);
    expect(nonce).toBe(NONCE);
    // The element hydration matches stays as React wrote it; the context script runs at once as before.
    expect(rewritten).toContain(`<script nonce="${NONCE}" type="module" async="">(function`);
    expect(rewritten).toContain(`<script nonce="${NONCE}">window.__reactRouterContext = {};</script>`);
  });

  it('writes no "<" into the gate\'s literals, so no text it carries can end or bend the script element', () => {
    const moduleText = `${MODULE_TEXT}\nif (1 < 2) console.log("<!--");`;
    const rewritten = holdHydrationUntilPainted(documentWith().replace(MODULE_TEXT, moduleText))!;
    const script = /type="module" async="">([\s\S]*?)<\/script>/.exec(rewritten)![1]!;
    expect(script.slice(script.lastIndexOf('})(') + 3)).not.toContain('<');
    expect(gateArguments(rewritten)[1]).toBe(moduleText);
  });

  it('leaves a document without a module script (a crawler-less error text, a partial page) as it is', () => {
    const html = '<!DOCTYPE html><html><head><link rel="modulepreload" href="/x.js"/></head><body>no scripts</body></html>';
    expect(holdHydrationUntilPainted(html)).toBeUndefined();
  });

  it.each([1, 7, 64, 2048, 1 << 20])(
    'gives the same document cut into %i-byte chunks, multi-byte characters and the streamed rest included',
    async (chunkBytes) => {
      const tail = '<script nonce="N">window.__reactRouterContext.streamController.enqueue("più €");</script>';
      const html = documentWith({ tail });
      const whole = Buffer.from(holdHydrationUntilPainted(Buffer.from(html).toString('latin1'))!, 'latin1').toString();
      expect(whole).toContain('Slot più belle — €5');
      expect(whole).toContain(tail);
      expect(await throughStream(html, chunkBytes)).toBe(whole);
    },
  );

  it('passes a document with no module script through unchanged, however it is cut', async () => {
    const html = '<!DOCTYPE html><html><head></head><body><p>Errore — riprova</p></body></html>';
    expect(await throughStream(html, 5)).toBe(html);
  });
});
