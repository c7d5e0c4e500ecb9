import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedHmacSha256, SINGLE_BLOCK_BYTES, bytesToHex, hmacSha256, sha256, sha256Hex, utf8Bytes } from './sha256';

const hex = (text: string) => Uint8Array.from(text.match(/../g)!.map((pair) => parseInt(pair, 16)));
const repeat = (byte: number, count: number) => new Uint8Array(count).fill(byte);

describe('SHA-256 in plain TypeScript (FIPS 180-4), so the browser recomputes rounds with the server’s code', () => {
  it('gives the NIST example digests', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(
      sha256Hex(
        'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      ),
    ).toBe('cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1');
    expect(bytesToHex(sha256(repeat(0x61, 1_000_000)))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('hashes UTF-8 text as its bytes', () => {
    expect(sha256Hex('€ seed')).toBe(createHash('sha256').update('€ seed', 'utf8').digest('hex'));
  });

  it('agrees with node:crypto on every length around the block and padding boundaries', () => {
    for (let length = 0; length <= 200; length++) {
      const message = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      expect(bytesToHex(sha256(message))).toBe(createHash('sha256').update(message).digest('hex'));
    }
  });
});

describe('HMAC-SHA256 (RFC 2104) against the test cases of RFC 4231', () => {
  const cases: Array<{ name: string; key: Uint8Array; data: Uint8Array; mac: string }> = [
    {
      name: '1',
      key: repeat(0x0b, 20),
      data: utf8Bytes('Hi There'),
      mac: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    },
    {
      name: '2 (short key)',
      key: utf8Bytes('Jefe'),
      data: utf8Bytes('what do ya want for nothing?'),
      mac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    },
    {
      name: '3',
      key: repeat(0xaa, 20),
      data: repeat(0xdd, 50),
      mac: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
    },
    {
      name: '4',
      key: hex('0102030405060708090a0b0c0d0e0f10111213141516171819'),
      data: repeat(0xcd, 50),
      mac: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
    },
    {
      name: '6 (key longer than a block)',
      key: repeat(0xaa, 131),
      data: utf8Bytes('Test Using Larger Than Block-Size Key - Hash Key First'),
      mac: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    },
    {
      name: '7 (key and data longer than a block)',
      key: repeat(0xaa, 131),
      data: utf8Bytes(
        'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
      ),
      mac: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    },
  ];

  it.each(cases)('gives the MAC of test case $name', ({ key, data, mac }) => {
    expect(bytesToHex(hmacSha256(key, data))).toBe(mac);
  });

  it('gives the truncated MAC of test case 5 as the first 128 bits', () => {
    expect(bytesToHex(hmacSha256(repeat(0x0c, 20), utf8Bytes('Test With Truncation'))).slice(0, 32)).toBe(
      'a3b6167473100ee06e0c796c2955552b',
    );
  });

  it('agrees with node:crypto on every message length around the one-block limit, reading only the first `length` bytes', () => {
    const keyed = new KeyedHmacSha256(utf8Bytes('server-seed'));
    const words = new Uint32Array(8);
    for (let length = 0; length <= 130; length++) {
      // A longer buffer than the message, as a round's stream keeps one: the bytes past `length` must not count.
      const buffer = Uint8Array.from({ length: length + 16 }, (_, i) => (i * 37 + length) & 0xff);
      keyed.digestWords(buffer, words, length);
      const expected = createHmac('sha256', 'server-seed').update(buffer.subarray(0, length)).digest('hex');
      expect(Array.from(words, (word) => word.toString(16).padStart(8, '0')).join('')).toBe(expected);
    }
  });

  it('takes a message packed into block words, the bytes after it zero, and agrees with node:crypto up to the one-block limit', () => {
    const keyed = new KeyedHmacSha256(utf8Bytes('server-seed'));
    const words = new Uint32Array(8);
    for (let length = 0; length <= SINGLE_BLOCK_BYTES; length++) {
      const message = Uint8Array.from({ length }, (_, i) => (i * 53 + length + 1) & 0xff);
      const packed = new Int32Array(16);
      message.forEach((byte, i) => (packed[i >> 2] = packed[i >> 2]! | (byte << (24 - 8 * (i & 3)))));
      keyed.digestPackedWords(packed, length, words);
      const expected = createHmac('sha256', 'server-seed').update(message).digest('hex');
      expect(Array.from(words, (word) => word.toString(16).padStart(8, '0')).join('')).toBe(expected);
    }
    expect(() => keyed.digestPackedWords(new Int32Array(16), SINGLE_BLOCK_BYTES + 1, words)).toThrow(RangeError);
  });

  it('agrees with node:crypto for any key and message, and a reused keyed HMAC gives the same MAC each time', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 150 }),
        fc.array(fc.uint8Array({ maxLength: 150 }), { minLength: 1, maxLength: 4 }),
        (key, messages) => {
          const keyed = new KeyedHmacSha256(key);
          for (const message of messages) {
            const expected = createHmac('sha256', key).update(message).digest('hex');
            expect(bytesToHex(keyed.digest(message))).toBe(expected);
            expect(bytesToHex(hmacSha256(key, message))).toBe(expected);
          }
        },
      ),
    );
  });
});
