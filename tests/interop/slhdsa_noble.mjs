// SPDX-License-Identifier: MIT
// The independent side of the SLH-DSA interop suite: the same three
// commands as slhdsa_tool, through @noble/post-quantum's
// slh_dsa_sha2_128s (pinned in package-lock.json).
//
//   node slhdsa_noble.mjs keygen SEED PK SK
//   node slhdsa_noble.mjs sign SK MESSAGE SIG [--addrnd FILE] [--context STR | --internal]
//   node slhdsa_noble.mjs verify PK MESSAGE SIG [--context STR | --internal]
//   node slhdsa_noble.mjs time-verify PK MESSAGE SIG [--runs N]
//
// Default is noble's public API with no context option, which is FIPS 205
// pure mode with ctx = "": noble itself builds M' = 0x00 || len(ctx) || ctx || M
// (getMessage in its utils). --context signs or verifies under a non-empty
// context instead. --internal calls noble's slh_*_internal surface on an
// M' this script builds as 0x00 0x00 || MESSAGE, to show that the two agree.
// Signing is deterministic (opt_rand = PK.seed) unless --addrnd is given.
//
// time-verify prints the median time of N (default 51) verifications in
// microseconds, for tests/bench/bench_slhdsa.c to set beside its own.
//
// Exit status: 0 success / valid, 1 signature invalid, 2 usage or file error.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { slh_dsa_sha2_128s as slh } from '@noble/post-quantum/slh-dsa.js';

function die(msg) {
  process.stderr.write(`slhdsa_noble: ${msg}\n`);
  process.exit(2);
}

function readExact(path, len) {
  let buf;
  try {
    buf = new Uint8Array(readFileSync(path));
  } catch (e) {
    die(`${path}: ${e.message}`);
  }
  if (len !== undefined && buf.length !== len) die(`${path}: expected ${len} bytes, got ${buf.length}`);
  return buf;
}

// Temporary file and rename, like slhdsa_tool: nothing half-written.
function writeAtomic(path, data) {
  const tmp = `${path}.tmp.${process.pid}`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    die(`${path}: ${e.message}`);
  }
}

function pureEmptyContextMessage(msg) {
  const m = new Uint8Array(2 + msg.length);
  m.set(msg, 2); // m[0] = 0 (pure), m[1] = 0 (context length)
  return m;
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      addrnd: { type: 'string' },
      context: { type: 'string' },
      internal: { type: 'boolean' },
      runs: { type: 'string' },
    },
  });
} catch (e) {
  die(e.message);
}
const { values: opt, positionals } = parsed;
const [cmd, ...files] = positionals;
if (files.length !== 3) die('usage: keygen SEED PK SK | sign SK MESSAGE SIG | verify PK MESSAGE SIG');
if (opt.context !== undefined && opt.internal) die('--context and --internal exclude each other');

const sizes = slh.lengths; // publicKey 32, secretKey 64, signature 7856, seed 48
const ctxOpts = opt.context !== undefined ? { context: new TextEncoder().encode(opt.context) } : {};

if (cmd === 'keygen') {
  const { publicKey, secretKey } = slh.keygen(readExact(files[0], sizes.seed));
  writeAtomic(files[1], publicKey);
  writeAtomic(files[2], secretKey);
} else if (cmd === 'sign') {
  const sk = readExact(files[0], sizes.secretKey);
  const msg = readExact(files[1]);
  const extraEntropy = opt.addrnd !== undefined ? readExact(opt.addrnd, sizes.signRand) : false;
  const sig = opt.internal
    ? slh.internal.sign(pureEmptyContextMessage(msg), sk, { extraEntropy })
    : slh.sign(msg, sk, { extraEntropy, ...ctxOpts });
  writeAtomic(files[2], sig);
} else if (cmd === 'verify') {
  if (opt.addrnd !== undefined) die('--addrnd applies to sign only');
  const pk = readExact(files[0], sizes.publicKey);
  const msg = readExact(files[1]);
  const sig = readExact(files[2], sizes.signature);
  const ok = opt.internal
    ? slh.internal.verify(sig, pureEmptyContextMessage(msg), pk)
    : slh.verify(sig, msg, pk, ctxOpts);
  process.exit(ok ? 0 : 1);
} else if (cmd === 'time-verify') {
  const pk = readExact(files[0], sizes.publicKey);
  const msg = readExact(files[1]);
  const sig = readExact(files[2], sizes.signature);
  const runs = opt.runs !== undefined ? Number.parseInt(opt.runs, 10) : 51;
  if (!(runs > 0 && runs <= 10000)) die('--runs must be 1..10000');
  if (!slh.verify(sig, msg, pk)) process.exit(1);
  const t = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    slh.verify(sig, msg, pk);
    t.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  t.sort((a, b) => a - b);
  const mid = runs % 2 ? t[(runs - 1) / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
  process.stdout.write(`${mid.toFixed(1)}\n`);
} else {
  die(`unknown command: ${cmd}`);
}
