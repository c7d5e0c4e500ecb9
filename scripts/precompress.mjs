// Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the browser build
// (build/client/assets), at the slowest and smallest settings, once per build: the server then
// answers an asset with the copy the browser accepts and compresses nothing per request (issue 12).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ASSETS = join('build', 'client', 'assets');
const TEXT_FILE = /\.(?:js|mjs|css|svg|json|html|txt|xml|webmanifest)$/i;
/** A copy that saves less than this is not worth a second file and a Vary. */
const MIN_SAVING = 0.05;

const files = readdirSync(ASSETS, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && TEXT_FILE.test(entry.name))
  .map((entry) => join(entry.parentPath, entry.name));

let plainBytes = 0;
let brotliBytes = 0;
for (const file of files) {
  const plain = readFileSync(file);
  const brotli = brotliCompressSync(plain, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: plain.byteLength,
    },
  });
  const gzip = gzipSync(plain, { level: constants.Z_BEST_COMPRESSION });
  plainBytes += plain.byteLength;
  brotliBytes += Math.min(plain.byteLength, brotli.byteLength);
  if (brotli.byteLength < plain.byteLength * (1 - MIN_SAVING)) writeFileSync(`${file}.br`, brotli);
  if (gzip.byteLength < plain.byteLength * (1 - MIN_SAVING)) writeFileSync(`${file}.gz`, gzip);
}
console.log(
  `precompress: ${files.length} files, ${(plainBytes / 1024).toFixed(0)} KB → ${(brotliBytes / 1024).toFixed(0)} KB brotli`,
);
