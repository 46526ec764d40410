// The chess network's fast path against the straightforward sum, inside wasm built with
// simd128 as the browser's worker runs it (crates/ai/examples/net_check.rs): every position of
// forty random games must score the same both ways. Prints a cargo-style "test result" line,
// which scripts/test counts with the other tests; exits 1 on any mismatch.
//
//   node scripts/check-wasm-net.mjs target/wasm32-unknown-unknown/release/examples/net_check.wasm

import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/check-wasm-net.mjs <net_check.wasm>');
  process.exit(2);
}
const module = new WebAssembly.Module(readFileSync(file));

// The compiler lists the target features it used in a custom section: simd128 must be one.
const features = WebAssembly.Module.customSections(module, 'target_features')
  .map((section) => new TextDecoder().decode(section))
  .join('');
const simd = features.includes('simd128');

const { exports } = new WebAssembly.Instance(module, {});
let failed = 0;
const results = [];
for (const seed of [1, 2, 3]) {
  const packed = exports.net_check(seed, 40) >>> 0;
  const positions = packed >>> 16;
  const mismatches = packed & 0xffff;
  const ok = mismatches === 0 && positions > 2000;
  if (!ok) failed += 1;
  results.push(`seed ${seed}: ${positions} positions, ${mismatches} differ`);
}
if (!simd) failed += 1;
console.log(`the network in wasm (${simd ? 'simd128' : 'NO simd128'}): ${results.join('; ')}`);
console.log(`test result: ${failed ? 'FAILED' : 'ok'}. ${4 - failed} passed; ${failed} failed`);
process.exit(failed ? 1 : 0);
