/**
 * Writes a gzip (level 9) and a brotli (quality 11) copy beside every script and stylesheet of the
 * browser build, once, at build time: the server sends those (express-static-gzip) instead of
 * compressing each response as it goes, so a page's scripts weigh less and cost no CPU to send.
 *   node scripts/precompress.js [assets folder, default build/assets or BUILD_DIR/assets]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = process.argv[2] ?? path.join(process.env.BUILD_DIR || 'build', 'assets');
const COMPRESSIBLE = /\.(?:js|css|svg)$/;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

let count = 0;
let plain = 0;
let gzipped = 0;
let brotli = 0;
for (const file of files(root)) {
  const data = fs.readFileSync(file);
  const gz = zlib.gzipSync(data, { level: 9, memLevel: 9 });
  const br = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  fs.writeFileSync(`${file}.gz`, gz);
  fs.writeFileSync(`${file}.br`, br);
  count += 1;
  plain += data.length;
  gzipped += gz.length;
  brotli += br.length;
}
const kb = (bytes) => `${Math.round(bytes / 1000)} KB`;
console.log(
  `precompressed ${count} files in ${root}: ${kb(plain)}, gzip ${kb(gzipped)}, brotli ${kb(brotli)}`,
);
