/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) in plain TypeScript, synchronous, so that the
 * game engines stay synchronous functions and the browser's verification page recomputes a round
 * with the very code the server ran (node:crypto is not in the browser; Web Crypto is async only).
 *
 * Speed matters more than usual: every simulated round of every game goes through HMAC, so a
 * keyed HMAC keeps the states after the key blocks and a round costs two block compressions.
 */

const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL_STATE = Uint32Array.from([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

const BLOCK_BYTES = 64;

// One message schedule for all calls: the functions are synchronous and never re-entered.
const W = new Int32Array(64);

/** Reads the 16 big-endian words of the 64-byte block at `offset` into W. */
function loadBlock(block: Uint8Array, offset: number): void {
  for (let t = 0; t < 16; t++) {
    const o = offset + 4 * t;
    W[t] = (block[o]! << 24) | (block[o + 1]! << 16) | (block[o + 2]! << 8) | block[o + 3]!;
  }
}

/** Mixes one 64-byte block at `offset` into the eight state words. */
function compress(state: Uint32Array, block: Uint8Array, offset: number): void {
  loadBlock(block, offset);
  compressW(state);
}

/**
 * Mixes the block whose 16 words are in W[0 … 15] into the state. The rounds are unrolled by
 * eight with the working variables renamed instead of shifted, since simulations spend most of
 * their time here (issue 12). Ch(e, f, g) is written g ^ (e & (f ^ g)) and Maj(a, b, c) as
 * (a & b) | (c & (a | b)): the same bits as FIPS 180-4's forms with one operation fewer each.
 */
function compressW(state: Uint32Array): void {
  for (let t = 16; t < 64; t++) {
    const w15 = W[t - 15]!;
    const w2 = W[t - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[t] = (W[t - 16]! + s0 + W[t - 7]! + s1) | 0;
  }
  let a = state[0]! | 0;
  let b = state[1]! | 0;
  let c = state[2]! | 0;
  let d = state[3]! | 0;
  let e = state[4]! | 0;
  let f = state[5]! | 0;
  let g = state[6]! | 0;
  let h = state[7]! | 0;
  let t1 = 0;
  for (let t = 0; t < 64; t += 8) {
    t1 =
      (h +
        ((((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) +
          (g ^ (e & (f ^ g))) +
          K[t + 0]! +
          W[t + 0]!)) |
      0;
    d = (d + t1) | 0;
    h = (t1 + ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b))))) | 0;
    t1 =
      (g +
        ((((d >>> 6) | (d << 26)) ^ ((d >>> 11) | (d << 21)) ^ ((d >>> 25) | (d << 7))) +
          (f ^ (d & (e ^ f))) +
          K[t + 1]! +
          W[t + 1]!)) |
      0;
    c = (c + t1) | 0;
    g = (t1 + ((((h >>> 2) | (h << 30)) ^ ((h >>> 13) | (h << 19)) ^ ((h >>> 22) | (h << 10))) + ((h & a) | (b & (h | a))))) | 0;
    t1 =
      (f +
        ((((c >>> 6) | (c << 26)) ^ ((c >>> 11) | (c << 21)) ^ ((c >>> 25) | (c << 7))) +
          (e ^ (c & (d ^ e))) +
          K[t + 2]! +
          W[t + 2]!)) |
      0;
    b = (b + t1) | 0;
    f = (t1 + ((((g >>> 2) | (g << 30)) ^ ((g >>> 13) | (g << 19)) ^ ((g >>> 22) | (g << 10))) + ((g & h) | (a & (g | h))))) | 0;
    t1 =
      (e +
        ((((b >>> 6) | (b << 26)) ^ ((b >>> 11) | (b << 21)) ^ ((b >>> 25) | (b << 7))) +
          (d ^ (b & (c ^ d))) +
          K[t + 3]! +
          W[t + 3]!)) |
      0;
    a = (a + t1) | 0;
    e = (t1 + ((((f >>> 2) | (f << 30)) ^ ((f >>> 13) | (f << 19)) ^ ((f >>> 22) | (f << 10))) + ((f & g) | (h & (f | g))))) | 0;
    t1 =
      (d +
        ((((a >>> 6) | (a << 26)) ^ ((a >>> 11) | (a << 21)) ^ ((a >>> 25) | (a << 7))) +
          (c ^ (a & (b ^ c))) +
          K[t + 4]! +
          W[t + 4]!)) |
      0;
    h = (h + t1) | 0;
    d = (t1 + ((((e >>> 2) | (e << 30)) ^ ((e >>> 13) | (e << 19)) ^ ((e >>> 22) | (e << 10))) + ((e & f) | (g & (e | f))))) | 0;
    t1 =
      (c +
        ((((h >>> 6) | (h << 26)) ^ ((h >>> 11) | (h << 21)) ^ ((h >>> 25) | (h << 7))) +
          (b ^ (h & (a ^ b))) +
          K[t + 5]! +
          W[t + 5]!)) |
      0;
    g = (g + t1) | 0;
    c = (t1 + ((((d >>> 2) | (d << 30)) ^ ((d >>> 13) | (d << 19)) ^ ((d >>> 22) | (d << 10))) + ((d & e) | (f & (d | e))))) | 0;
    t1 =
      (b +
        ((((g >>> 6) | (g << 26)) ^ ((g >>> 11) | (g << 21)) ^ ((g >>> 25) | (g << 7))) +
          (a ^ (g & (h ^ a))) +
          K[t + 6]! +
          W[t + 6]!)) |
      0;
    f = (f + t1) | 0;
    b = (t1 + ((((c >>> 2) | (c << 30)) ^ ((c >>> 13) | (c << 19)) ^ ((c >>> 22) | (c << 10))) + ((c & d) | (e & (c | d))))) | 0;
    t1 =
      (a +
        ((((f >>> 6) | (f << 26)) ^ ((f >>> 11) | (f << 21)) ^ ((f >>> 25) | (f << 7))) +
          (h ^ (f & (g ^ h))) +
          K[t + 7]! +
          W[t + 7]!)) |
      0;
    e = (e + t1) | 0;
    a = (t1 + ((((b >>> 2) | (b << 30)) ^ ((b >>> 13) | (b << 19)) ^ ((b >>> 22) | (b << 10))) + ((b & c) | (d & (b | c))))) | 0;
  }
  state[0] = state[0]! + a;
  state[1] = state[1]! + b;
  state[2] = state[2]! + c;
  state[3] = state[3]! + d;
  state[4] = state[4]! + e;
  state[5] = state[5]! + f;
  state[6] = state[6]! + g;
  state[7] = state[7]! + h;
}

/**
 * Hashes `message` into `state`, which already holds `prefixBytes` bytes of input (0 for a
 * plain hash, 64 after an HMAC key block): the padding's length field counts them too.
 */
function absorb(state: Uint32Array, prefixBytes: number, message: Uint8Array, length = message.length): void {
  const whole = length - (length % BLOCK_BYTES);
  for (let offset = 0; offset < whole; offset += BLOCK_BYTES) compress(state, message, offset);
  const tailLength = length - whole;
  const tail = TAIL;
  const tailBytes = tailLength + 9 <= BLOCK_BYTES ? BLOCK_BYTES : 2 * BLOCK_BYTES;
  tail.fill(0, 0, tailBytes);
  // A loop, not set(subarray): a subarray is an allocation, and this runs for every block.
  for (let i = 0; i < tailLength; i++) tail[i] = message[whole + i]!;
  tail[tailLength] = 0x80;
  const bits = (prefixBytes + length) * 8;
  writeWord(tail, tailBytes - 8, Math.floor(bits / 0x1_0000_0000));
  writeWord(tail, tailBytes - 4, bits >>> 0);
  for (let offset = 0; offset < tailBytes; offset += BLOCK_BYTES) compress(state, tail, offset);
}

/** The longest message that fits one block with its 0x80 byte and 64-bit length. */
export const SINGLE_BLOCK_BYTES = BLOCK_BYTES - 9;

/**
 * Writes into W the one padded block of a message of at most SINGLE_BLOCK_BYTES bytes, whose
 * input so far counts `totalBytes` bytes: what absorb's last block holds, without its byte copy.
 * A round's draws hash short messages (seed:nonce:cursor), one block each.
 */
function loadPaddedBlock(message: Uint8Array, length: number, totalBytes: number): void {
  W.fill(0);
  for (let i = 0; i < length; i++) W[i >> 2] = W[i >> 2]! | (message[i]! << (24 - 8 * (i & 3)));
  W[length >> 2] = W[length >> 2]! | (0x80 << (24 - 8 * (length & 3)));
  W[15] = totalBytes * 8;
}

// The padded last block(s) of a message; reused for the same reason as W.
const TAIL = new Uint8Array(2 * BLOCK_BYTES);

function writeWord(bytes: Uint8Array, offset: number, word: number): void {
  bytes[offset] = word >>> 24;
  bytes[offset + 1] = word >>> 16;
  bytes[offset + 2] = word >>> 8;
  bytes[offset + 3] = word;
}

function wordsToBytes(words: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(4 * words.length);
  const view = new DataView(bytes.buffer);
  words.forEach((word, index) => view.setUint32(4 * index, word));
  return bytes;
}

export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

const utf8 = new TextEncoder();

/** The UTF-8 bytes of `text`; ASCII without TextEncoder, which costs a microsecond a call. */
export function utf8Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return utf8.encode(text);
    bytes[i] = code;
  }
  return bytes;
}

export function sha256(message: Uint8Array): Uint8Array {
  const state = INITIAL_STATE.slice();
  absorb(state, 0, message);
  return wordsToBytes(state);
}

/** SHA-256 of the UTF-8 bytes of `text`, as 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8Bytes(text)));
}

/**
 * HMAC-SHA256 with a fixed key: the inner and outer states after the key blocks are computed
 * once, so each message then costs its own blocks plus one outer block.
 */
export class KeyedHmacSha256 {
  private readonly innerStart = INITIAL_STATE.slice();
  private readonly outerStart = INITIAL_STATE.slice();
  private readonly state = new Uint32Array(8);

  constructor(key: Uint8Array) {
    const block = new Uint8Array(BLOCK_BYTES);
    block.set(key.length > BLOCK_BYTES ? sha256(key) : key);
    const pad = new Uint8Array(BLOCK_BYTES);
    for (let i = 0; i < BLOCK_BYTES; i++) pad[i] = block[i]! ^ 0x36;
    compress(this.innerStart, pad, 0);
    for (let i = 0; i < BLOCK_BYTES; i++) pad[i] = block[i]! ^ 0x5c;
    compress(this.outerStart, pad, 0);
  }

  /**
   * The MAC as eight big-endian 32-bit words, written into `out`: the stream of draws reads
   * words, so this skips the bytes in between. Only the first `length` bytes of `message` count.
   */
  digestWords(message: Uint8Array, out: Uint32Array, length = message.length): void {
    const state = this.state;
    state.set(this.innerStart);
    if (length <= SINGLE_BLOCK_BYTES) {
      loadPaddedBlock(message, length, BLOCK_BYTES + length);
      compressW(state);
    } else absorb(state, BLOCK_BYTES, message, length);
    this.finish(out);
  }

  /**
   * The MAC of a message of at most SINGLE_BLOCK_BYTES bytes given as `words`: its bytes packed
   * big-endian into the first words, every byte after the message 0. A caller that hashes many
   * messages differing only in their last bytes (a round's cursors) keeps them packed like this
   * and rewrites only those bytes, where `digestWords` would repack every byte (issue 12).
   */
  digestPackedWords(words: Int32Array, length: number, out: Uint32Array): void {
    if (length > SINGLE_BLOCK_BYTES) throw new RangeError(`a packed message holds at most ${SINGLE_BLOCK_BYTES} bytes`);
    const state = this.state;
    state.set(this.innerStart);
    for (let i = 0; i < 15; i++) W[i] = words[i]!;
    W[length >> 2] = W[length >> 2]! | (0x80 << (24 - 8 * (length & 3)));
    W[15] = (BLOCK_BYTES + length) * 8;
    compressW(state);
    this.finish(out);
  }

  /** The outer hash over the inner digest in `this.state`, into `out`. */
  private finish(out: Uint32Array): void {
    const state = this.state;
    // The outer block is the inner digest's eight words and the fixed padding: straight into W.
    for (let i = 0; i < 8; i++) W[i] = state[i]!;
    W[8] = 0x80000000 | 0;
    W.fill(0, 9, 15);
    W[15] = (BLOCK_BYTES + 32) * 8;
    out.set(this.outerStart);
    compressW(out);
  }

  digest(message: Uint8Array): Uint8Array {
    const out = new Uint32Array(8);
    this.digestWords(message, out);
    return wordsToBytes(out);
  }
}

export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  return new KeyedHmacSha256(key).digest(message);
}
