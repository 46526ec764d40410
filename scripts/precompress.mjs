#!/usr/bin/env node
// Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every
// compressible file of a built app, so that qi-server sends them to browsers that take them
// without compressing anything per request:
//
//   node scripts/precompress.mjs dist
//
// A copy that would not be smaller than the file is not written (and an old one is removed).
// Static hosts that serve precompressed files (nginx's gzip_static/brotli_static, Caddy's
// precompressed) can use the same copies.

import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.wasm', '.css', '.svg', '.json', '.map',
  '.webmanifest', '.txt']);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile() && COMPRESSIBLE.has(extname(entry.name))) yield path;
  }
}

const root = process.argv[2];
if (!root || !statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
  console.error('usage: node scripts/precompress.mjs <dist-dir>');
  process.exit(2);
}

let plain = 0;
let brotli = 0;
for (const path of files(root)) {
  const bytes = readFileSync(path);
  const copies = {
    '.br': brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    '.gz': gzipSync(bytes, { level: 9 }),
  };
  for (const [suffix, packed] of Object.entries(copies)) {
    if (packed.length < bytes.length) writeFileSync(path + suffix, packed);
    else rmSync(path + suffix, { force: true });
  }
  plain += bytes.length;
  brotli += Math.min(copies['.br'].length, bytes.length);
}
console.log(`precompressed ${root}: ${(plain / 1024).toFixed(1)} KB, ${(brotli / 1024).toFixed(1)} KB as brotli`);
