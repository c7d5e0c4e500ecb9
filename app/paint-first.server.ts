/**
 * The server's half of "paint first, then load the scripts" (paint-first.ts says why). React Router
 * writes the page's scripts as modulepreload hints in the head and one inline module script at the
 * end of the body, which imports the route modules and then the client entry. The rewrite takes the
 * hints (and the translation table's preload) out of the head and makes the module script hand both
 * to startAfterFirstPaint, which writes them into the page once it has painted.
 *
 * The module script element itself stays as React wrote it (an inline type="module" script with the
 * page's nonce): hydration matches the body's scripts by type, and only its text changes.
 */
import { Transform } from 'node:stream';
import { scriptJson } from '#common/script-json';
import { startAfterFirstPaint } from './paint-first';

const MODULE_SCRIPT_OPENING = 'type="module"';
const SCRIPT_END = '</script>';
const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)<\/script>/;
/** The fetches only hydration needs: the scripts' modulepreload hints and the translation table's preload. */
const HYDRATION_LINKS = /<link\b[^>]*\b(?:rel="modulepreload"|data-translations="[^"]*")[^>]*>/g;
const NONCE = /\bnonce="([^"]*)"/;
/** A document whose module script has not come within this much is passed on unchanged. */
const MOST_HELD_BACK = 1 << 20;

const GATE_SOURCE = startAfterFirstPaint.toString();

/**
 * The document with its hydration held until the first paint, or undefined when `html` does not
 * yet hold the whole module script (or has none). Works on latin1 text (one char per byte), so the
 * bytes of every other character pass through unchanged.
 */
export function holdHydrationUntilPainted(html: string): string | undefined {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return undefined;
  const [whole, opening, moduleText] = script as unknown as [string, string, string];
  const links: string[] = [];
  const before = html.slice(0, script.index).replace(HYDRATION_LINKS, (link) => {
    links.push(link);
    return '';
  });
  const nonce = NONCE.exec(opening)?.[1] ?? '';
  const gate = `(${GATE_SOURCE})(${scriptJson(links.join(''))},${scriptJson(moduleText)},${scriptJson(nonce)});`;
  return `${before}${opening}${gate}${SCRIPT_END}${html.slice(script.index + whole.length)}`;
}

/**
 * The rewrite as a stream: the document is held back until its module script has been written
 * (React writes the whole shell, scripts included, in one go), rewritten once, and the rest passes
 * through as it comes.
 */
export function paintFirstStream(): Transform {
  let held: string | undefined = '';
  let scriptAt = -1;
  const release = (transform: Transform, text: string) => {
    held = undefined;
    transform.push(Buffer.from(text, 'latin1'));
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (held === undefined) return done(null, chunk);
      const searchFrom = Math.max(0, held.length - SCRIPT_END.length);
      held += chunk.toString('latin1');
      if (scriptAt < 0) scriptAt = held.indexOf(MODULE_SCRIPT_OPENING, Math.max(0, searchFrom - MODULE_SCRIPT_OPENING.length));
      if (scriptAt >= 0 && held.includes(SCRIPT_END, Math.max(scriptAt, searchFrom))) {
        release(this, holdHydrationUntilPainted(held) ?? held);
      } else if (held.length > MOST_HELD_BACK) {
        release(this, held);
      }
      done();
    },
    flush(done) {
      if (held !== undefined) release(this, holdHydrationUntilPainted(held) ?? held);
      done();
    },
  });
}
