/**
 * The text of a shared signed-in page (player-pages.ts): the made-up player's render cut where its
 * values and the CSP nonce stand, and an answer put together from the parts and one player's
 * values, escaped for where each stands: as React writes text and attribute values in the HTML,
 * as React Router writes a stream line in its data script.
 */
import { asBody, varyOnAcceptEncoding } from './compression';
import { compressPieces, gzipJoin, type CompressedPieces } from './gzip-pieces';
import type { CachedEncoding } from './page-cache';

export type Place = { type: 'nonce' } | { type: 'form'; index: number; isScript: boolean };

export interface Template {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** The page's UTF-8 bytes cut at each place a nonce or a free value goes. */
  parts: Buffer[];
  places: Place[];
  placeholderLength: number;
  /** Of the made-up render the template was cut from and checked: a refresh that cuts the same keeps the check. */
  digest: string;
  gzipPieces?: CompressedPieces;
}

/** As React writes text and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/["'&<>]/g, (char) => HTML_ESCAPES[char]!);
}
const HTML_ESCAPES: Record<string, string> = { '"': '&quot;', "'": '&#x27;', '&': '&amp;', '<': '&lt;', '>': '&gt;' };

const SCRIPT_ESCAPES: Record<string, string> = {
  '&': '\\u0026',
  '>': '\\u003e',
  '<': '\\u003c',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * As a string value stands in React Router's data script: JSON in the stream's line, the line as
 * a JSON string literal, HTML's special characters as escapes (react-router's StreamTransfer).
 */
function escapeScript(text: string): string {
  const inLine = JSON.stringify(text).slice(1, -1);
  return JSON.stringify(inLine)
    .slice(1, -1)
    .replace(/[&<>\u2028\u2029]/g, (char) => SCRIPT_ESCAPES[char]!);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Where each script's text starts and ends: a form found there is in the data script. */
function scriptRanges(body: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const match of body.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    const start = match.index + match[0].length - match[1]!.length - '</script>'.length;
    ranges.push([start, start + match[1]!.length]);
  }
  return ranges;
}

/** The template's text cut at the placeholder nonce and at each made-up form, with what goes in each place. */
export function cutTemplate(body: string, placeholder: string, forms: readonly string[]): { parts: string[]; places: Place[] } {
  for (const form of forms) {
    // A made-up form reads the same in HTML and in the script, so it is found wherever it stands.
    if (escapeHtml(form) !== form || escapeScript(form) !== form) throw new Error(`a made-up form needs escaping: ${form}`);
  }
  const needles = new Map<string, Place>([[placeholder, { type: 'nonce' }]]);
  forms.forEach((form, index) => {
    if (form && !needles.has(form)) needles.set(form, { type: 'form', index, isScript: false });
  });
  // The longest first, so a form that holds another is taken whole.
  const pattern = new RegExp(
    [...needles.keys()]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'g',
  );
  const scripts = scriptRanges(body);
  const parts: string[] = [];
  const places: Place[] = [];
  let from = 0;
  for (const match of body.matchAll(pattern)) {
    const place = needles.get(match[0])!;
    const isScript = scripts.some(([start, end]) => match.index >= start && match.index < end);
    parts.push(body.slice(from, match.index));
    places.push(place.type === 'form' ? { ...place, isScript } : place);
    from = match.index + match[0].length;
  }
  parts.push(body.slice(from));
  return { parts, places };
}

/** The text of each place for one answer. */
function placeTexts(places: readonly Place[], forms: readonly string[], nonce: string): string[] {
  return places.map((place) => {
    if (place.type === 'nonce') return nonce;
    const form = forms[place.index] ?? '';
    return place.isScript ? escapeScript(form) : escapeHtml(form);
  });
}

export function fillTemplate(
  parts: readonly string[],
  places: readonly Place[],
  forms: readonly string[],
  nonce: string,
): string {
  const texts = placeTexts(places, forms, nonce);
  return parts.map((part, index) => (index < texts.length ? part + texts[index] : part)).join('');
}

export const SHARED_RENDER_HEADER = 'X-Page-Render';

export function answerOf(template: Template, forms: readonly string[], nonce: string, encoding: CachedEncoding): Response {
  const texts = placeTexts(template.places, forms, nonce).map((text) => Buffer.from(text, 'utf8'));
  if (
    encoding === 'gzip' &&
    texts.every((text, index) => template.places[index]!.type !== 'nonce' || text.length === template.placeholderLength)
  ) {
    template.gzipPieces ??= compressPieces(
      template.parts,
      template.places.map((place) => (place.type === 'nonce' ? template.placeholderLength : undefined)),
    );
    const body = gzipJoin(template.gzipPieces, texts);
    const headers = new Headers(template.headers);
    headers.set(SHARED_RENDER_HEADER, 'shared');
    headers.set('Content-Encoding', 'gzip');
    headers.set('Content-Length', String(body.byteLength));
    varyOnAcceptEncoding(headers);
    return new Response(asBody(body), { status: template.status, statusText: template.statusText, headers });
  }
  const pieces = template.parts.flatMap((part, index) => (index < texts.length ? [part, texts[index]!] : [part]));
  return new Response(Buffer.concat(pieces), {
    status: template.status,
    statusText: template.statusText,
    headers: [...template.headers, [SHARED_RENDER_HEADER, 'shared']],
  });
}
