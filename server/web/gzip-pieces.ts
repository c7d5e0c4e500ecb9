/**
 * A gzip body put together from pieces compressed once and a short text that changes per answer
 * (issue 12: the anonymous page cache's pages differ only in their CSP nonce, and compressing the
 * whole page again for every answer cost about 3 ms, six times the rest of the answer).
 *
 * DEFLATE (RFC 1951) allows it: a piece compressed on its own and ended with a sync flush stops on
 * a byte boundary without a final block, so such pieces can follow each other in one stream. The
 * changing text goes in as stored blocks, the stream ends with an empty final block, and the gzip
 * trailer (RFC 1952) carries the CRC-32 and length of the whole text.
 *
 * Each piece is compressed with the text before it as its dictionary (what the decoder's window
 * will hold), so it may refer back into earlier pieces as a whole-page compressor would. The
 * changing text is not known then: the dictionary holds NUL bytes of its length in its place. A
 * back-reference must match the bytes it copies, and a page with no NUL byte has nothing that
 * matches them, so no reference can reach into the changing text and every answer decodes to its
 * own text. A page that does contain a NUL byte is compressed without dictionaries.
 *
 * A gap whose length changes per answer (a signed-in player's login or balance, player-pages.ts)
 * cannot be bridged that way: a back-reference across it would land on other bytes for another
 * length. The piece after such a gap starts a new dictionary, so nothing refers back past it.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

/** A piece of text with its DEFLATE blocks, made once and reused by every answer. */
export interface CompressedPiece {
  text: Buffer;
  deflated: Buffer;
}

/** The pieces of one text, to be joined with a text between each two. */
export interface CompressedPieces {
  pieces: CompressedPiece[];
  /** Each gap's length in bytes, or undefined for a gap whose length changes per answer. */
  gapLengths: (number | undefined)[];
}

/** DEFLATE looks back at most 32 KB. */
const WINDOW = 32 * 1024;

/**
 * Compresses the pieces of a text for gzipJoin. `gaps` is the length of every gap between two
 * pieces (one number for all), or undefined for a gap whose length changes per answer.
 */
export function compressPieces(texts: readonly Buffer[], gaps: number | readonly (number | undefined)[]): CompressedPieces {
  const gapLengths = Array.from({ length: Math.max(0, texts.length - 1) }, (_, index) =>
    typeof gaps === 'number' ? gaps : gaps[index],
  );
  const canUseDictionaries = texts.every((text) => !text.includes(0));
  let before = Buffer.alloc(0);
  const pieces = texts.map((text, index) => {
    if (index > 0) {
      const gap = gapLengths[index - 1];
      before = gap === undefined ? Buffer.alloc(0) : Buffer.concat([before, Buffer.alloc(gap)]).subarray(-WINDOW);
    }
    const dictionary = canUseDictionaries && before.length > 0 ? before : undefined;
    const deflated = deflateRawSync(text, {
      level: 9,
      finishFlush: constants.Z_SYNC_FLUSH,
      ...(dictionary ? { dictionary } : {}),
    });
    before = Buffer.concat([before, text]).subarray(-WINDOW);
    return { text, deflated };
  });
  return { pieces, gapLengths };
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty stored block marked final. */
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
const STORED_MAX = 0xffff;

/** Stored (uncompressed) non-final blocks holding text; the stream is on a byte boundary before and after. */
function storedBlocks(text: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let offset = 0; offset < text.length; offset += STORED_MAX) {
    const chunk = text.subarray(offset, offset + STORED_MAX);
    const header = Buffer.alloc(5);
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    blocks.push(header, chunk);
  }
  return blocks;
}

/**
 * The gzip body of the pieces with a text in each gap: one text for every gap, or one per gap.
 * A gap made for a fixed length takes exactly that many bytes.
 */
export function gzipJoin({ pieces, gapLengths }: CompressedPieces, between: Buffer | readonly Buffer[]): Buffer {
  const gapTexts = Buffer.isBuffer(between) ? gapLengths.map(() => between) : between;
  if (gapTexts.length !== gapLengths.length) throw new Error(`gzipJoin: ${gapTexts.length} texts for ${gapLengths.length} gaps`);
  const out: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let length = 0;
  pieces.forEach((piece, index) => {
    if (index > 0) {
      const text = gapTexts[index - 1]!;
      const made = gapLengths[index - 1];
      // The dictionaries placed the pieces' back-references for a text of exactly this length.
      if (made !== undefined && text.length !== made)
        throw new Error(`gzipJoin: ${text.length} bytes between pieces made for ${made}`);
      out.push(...storedBlocks(text));
      crc = crc32(text, crc);
      length += text.length;
    }
    out.push(piece.deflated);
    crc = crc32(piece.text, crc);
    length += piece.text.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  out.push(FINAL_BLOCK, trailer);
  return Buffer.concat(out);
}
