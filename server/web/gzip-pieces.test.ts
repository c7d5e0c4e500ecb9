/**
 * Issue 12: the anonymous page cache answers gzip put together from pieces compressed once. Every
 * such body must be a gzip stream any client decodes to exactly the page with that answer's text,
 * whatever the text between the pieces is.
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressPieces, gzipJoin } from './gzip-pieces';

function joinedGzip(parts: string[], between: string): Buffer {
  const pieces = compressPieces(
    parts.map((part) => Buffer.from(part)),
    Buffer.byteLength(between),
  );
  return gzipJoin(pieces, Buffer.from(between));
}

describe('gzip bodies from pieces compressed once (issue 12: cached pages answered compressed)', () => {
  it.each([
    ['a page cut at two nonces', ['<html><script nonce="', '">x</script><script nonce="', '">y</script></html>'], 'n0nceA'],
    ['one piece, nothing between', ['<p>only</p>'], 'unused'],
    ['empty pieces at the ends and in the middle', ['', 'middle', '', ''], 'N'],
    ['text between longer than one stored block', ['a', 'b'], 'z'.repeat(70_000)],
    ['a page with a NUL byte (no dictionaries)', ['a\u0000b nonce="', '" a\u0000b'], 'NNNN'],
  ])('decodes %s to the joined text', (_name, parts, between) => {
    expect(gunzipSync(joinedGzip(parts, between)).toString()).toBe(parts.join(between));
  });

  it('decodes pages made for a placeholder with any nonce of its length, including ones that repeat the page’s text', () => {
    const tile = (i: number) => `<li class="tile" data-game="g${i % 40}"><a nonce="`;
    const parts = Array.from({ length: 60 }, (_, i) => `${tile(i)}">Casinò «${i % 7}» — €${i}.00</a></li>`);
    const pieces = compressPieces(
      parts.map((part) => Buffer.from(part)),
      24,
    );
    // Nonces made of the page's own text try to fool a back-reference into the nonce's place.
    const nonces = [randomBytes(18).toString('base64'), '"><li class="tile" data-', 'Casinò «1» — €1.00</'.padEnd(24, 'a')];
    for (const nonce of nonces) {
      const between = Buffer.from(nonce).subarray(0, 24);
      expect(gunzipSync(gzipJoin(pieces, between)).toString()).toBe(parts.join(between.toString()));
    }
  });

  it('is about as small as compressing the whole page, for a page shaped like ours (nonces in the head and the scripts)', () => {
    const head = Array.from(
      { length: 12 },
      (_, i) => `<link rel="modulepreload" href="/assets/chunk-${i}.js" nonce="N0NCE"/>`,
    ).join('');
    const body = Array.from(
      { length: 300 },
      (_, i) => `<li class="tile" data-game="g${i}"><a href="/game/g${i}">Casinò «${i}» — €${i}.00</a></li>`,
    );
    const page = `<html><head>${head}</head><body><ul>${body.join('')}</ul><script nonce="N0NCE">window.data=${JSON.stringify(body.slice(0, 80))}</script></body></html>`;
    const parts = page.split('N0NCE');
    const joined = joinedGzip(parts, 'abcde');
    expect(gunzipSync(joined).toString()).toBe(parts.join('abcde'));
    expect(joined.length).toBeLessThan(gzipSync(parts.join('abcde'), { level: 9 }).length * 1.15);
  });

  it('refuses a text between of another length than the pieces were made for', () => {
    const pieces = compressPieces([Buffer.from('a'), Buffer.from('b')], 4);
    expect(() => gzipJoin(pieces, Buffer.from('five!'))).toThrow(/made for 4/);
  });

  it('joins gaps of any length where the pieces were made for a changing gap, and fixed ones beside them (player-pages.ts)', () => {
    // A page with the same words on both sides of each gap, so a dictionary would refer across it.
    const line = '<span class="balance">Total balance</span><a data-login="';
    const parts = [`${line}`, `">profile</a>${line}`, `"><script nonce="`, `">${line}</script>`];
    const gaps = [undefined, undefined, 5];
    const pieces = compressPieces(
      parts.map((part) => Buffer.from(part)),
      gaps,
    );
    for (const texts of [
      ['a', 'bob@example.com', 'N0NCE'],
      ['a much longer login than the one before it', '', 'abcde'],
    ]) {
      const joined = gzipJoin(
        pieces,
        texts.map((text) => Buffer.from(text)),
      );
      expect(gunzipSync(joined).toString()).toBe(parts.map((part, i) => part + (texts[i] ?? '')).join(''));
    }
    expect(() => gzipJoin(pieces, [Buffer.from('x'), Buffer.from('y'), Buffer.from('four')])).toThrow(/made for 5/);
    expect(() => gzipJoin(pieces, [Buffer.from('x')])).toThrow(/1 texts for 3 gaps/);
  });
});
