// SPDX-License-Identifier: MIT
// node evidence_cose.mjs EVIDENCE CA_PEM NONCE_HEX OTHER_CA_PEM
// Evidence profile v2 (docs/evidence.md) checked by npm packages nobody in
// otattest wrote, pinned in package-lock.json: @auth0/cose decodes the
// COSE_Sign1, validates its x5chain to the CA (pkijs underneath) and the
// ES256 signature with the alias certificate's key; cborg decodes the
// evidence, the claims and every measured component in strict mode and
// re-encodes them to the same bytes; then every registered claim is held
// to the type RFC 9711 gives it (written here from the RFC, not from
// otattest's code). Prints "ok - ..." / "not ok - ..." and "N passed, N failed".
import { readFileSync } from 'node:fs'
import { Sign1 } from '@auth0/cose'
import { decode, encode } from 'cborg'
import { strictOptions } from './cborg_strict.mjs'

const [evFile, caFile, nonceHex, otherCaFile] = process.argv.slice(2)
if (!otherCaFile) {
  console.error('usage: node evidence_cose.mjs EVIDENCE CA_PEM NONCE_HEX OTHER_CA_PEM')
  process.exit(2)
}
const ev = new Uint8Array(readFileSync(evFile))
const caPem = readFileSync(caFile, 'utf8')
const otherPem = readFileSync(otherCaFile, 'utf8')
const nonce = Buffer.from(nonceHex, 'hex')

let passed = 0
let failed = 0
function check (name, cond) {
  if (cond) {
    passed++
    console.log('ok - ' + name)
  } else {
    failed++
    console.log('not ok - ' + name)
  }
}
async function rejects (promise) {
  try {
    await promise
    return false
  } catch {
    return true
  }
}

const hex = (b) => Buffer.from(b).toString('hex')
const sameBytes = (a, b) => a instanceof Uint8Array && b instanceof Uint8Array && hex(a) === hex(b)
const isUint = (v) => Number.isInteger(v) && v >= 0
const isBytes = (v) => v instanceof Uint8Array

// ---- COSE_Sign1 and x5chain: @auth0/cose ---------------------------------
let msg
try {
  msg = Sign1.decode(ev)
} catch (e) {
  msg = undefined
}
check('@auth0/cose decodes a COSE_Sign1 (tag 18)', msg instanceof Sign1)
if (!(msg instanceof Sign1)) {
  console.log(`${passed} passed, ${failed} failed`)
  process.exit(1)
}
check('@auth0/cose: algorithm is ES256 (-7)', msg.alg === -7 && msg.algName === 'ES256')
check('@auth0/cose: x5chain holds the alias and the identity certificate',
  Array.isArray(msg.x5chain) && msg.x5chain.length === 2)
check('@auth0/cose: x5chain validates to the CA and ES256 verifies with the alias key',
  !(await rejects(msg.verifyX509([caPem]))))
check('@auth0/cose: another CA does not validate the x5chain',
  await rejects(msg.verifyX509([otherPem])))

// A flipped byte in the payload, or in the signature, is refused.
function flipped (at) {
  const copy = new Uint8Array(ev)
  copy[at] ^= 0x01
  return Sign1.decode(copy)
}
const payloadAt = Buffer.from(ev).indexOf(Buffer.from(msg.payload))
check('@auth0/cose: a flipped claims byte does not verify',
  payloadAt > 0 && await rejects(flipped(payloadAt + 7).verifyX509([caPem])))
check('@auth0/cose: a flipped signature byte does not verify',
  await rejects(flipped(ev.length - 5).verifyX509([caPem])))

// ---- strict CBOR: cborg ---------------------------------------------------
class Tag {
  constructor (value) { this.value = value }
}
const tags = []
tags[18] = (inner) => new Tag(inner()) // COSE_Sign1, the one tag evidence carries
const strict = strictOptions(tags)
function strictDecode (name, bytes) {
  try {
    return decode(bytes, strict)
  } catch (e) {
    check(`cborg strict: ${name} decodes (${e.message})`, false)
    return undefined
  }
}
const top = strictDecode('the evidence', ev)
check('cborg strict: the evidence is tag 18 around four items',
  top instanceof Tag && Array.isArray(top.value) && top.value.length === 4)
const claims = strictDecode('the claims', msg.payload)
check('cborg strict: the claims are a map', claims instanceof Map)
check('cborg: the claims re-encode to the same bytes (deterministic)',
  claims instanceof Map && sameBytes(encode(claims), msg.payload))
if (!(claims instanceof Map)) {
  console.log(`${passed} passed, ${failed} failed`)
  process.exit(1)
}

// ---- the claims set (docs/evidence.md) -------------------------------------
const priv = (n) => -1 - (0x6f746100 + n)
const registered = [10, 256, 258, 262, 263, 265, 273, 274]
const want = [...registered, ...Array.from({ length: 18 }, (_, i) => priv(i + 1))]
const keys = [...claims.keys()]
check('claims set has exactly the documented keys, in deterministic order',
  keys.length === want.length && keys.every((k, i) => k === want[i]))

// RFC 9711's type for each registered claim.
const get = (k) => claims.get(k)
check('RFC 9711: nonce (10) is bstr 8..64', isBytes(get(10)) && get(10).length >= 8 && get(10).length <= 64)
check('RFC 9711: ueid (256) is bstr 7..33',
  isBytes(get(256)) && get(256).length >= 7 && get(256).length <= 33)
check('RFC 9711: oemid (258) is a PEN, an IEEE OUI (bstr 3) or random (bstr 16)',
  Number.isInteger(get(258)) || (isBytes(get(258)) && [3, 16].includes(get(258).length)))
check('RFC 9711: oemboot (262) is bool', typeof get(262) === 'boolean')
check('RFC 9711: dbgstat (263) is 0..4', isUint(get(263)) && get(263) <= 4)
check('RFC 9711: eat_profile (265) is a URI (tstr) or an OID (bstr)',
  typeof get(265) === 'string' || isBytes(get(265)))
const meas = get(273)
check('RFC 9711: measurements (273) is [+ [content-type uint .le 65535, bstr]]',
  Array.isArray(meas) && meas.length >= 1 && meas.every((f) => Array.isArray(f) &&
    f.length === 2 && isUint(f[0]) && f[0] <= 65535 && isBytes(f[1])))
const measres = get(274)
check('RFC 9711: measres (274) is [+ [tstr, [+ [tstr / bstr, result 1..4]]]]',
  Array.isArray(measres) && measres.length >= 1 && measres.every((g) => Array.isArray(g) &&
    g.length === 2 && typeof g[0] === 'string' && Array.isArray(g[1]) && g[1].length >= 1 &&
    g[1].every((r) => Array.isArray(r) && r.length === 2 &&
      (typeof r[0] === 'string' || isBytes(r[0])) && [1, 2, 3, 4].includes(r[1]))))

// The profile's values.
check('nonce (10) is the nonce sent', sameBytes(get(10), new Uint8Array(nonce)))
check('eat_profile (265) is tag:otattest.org,2025:evidence-v2',
  get(265) === 'tag:otattest.org,2025:evidence-v2')
check('ueid (256) is RAND type (0x01) and 16 bytes', isBytes(get(256)) && get(256).length === 17 &&
  get(256)[0] === 1)

// Each measured component: content format 295, strict CBOR in the
// draft-ietf-rats-eat-measured-component shape (1 id, 2 digest, 3 authorities).
function component (body, rom) {
  const mc = decode(body, strict)
  if (!(mc instanceof Map) || !sameBytes(encode(mc), body)) return false
  const ks = [...mc.keys()]
  if (ks.join() !== (rom ? '1,2' : '1,2,3')) return false
  const id = mc.get(1)
  const digest = mc.get(2)
  const idOk = rom
    ? Array.isArray(id) && id.length === 1 && id[0] === 'rom'
    : Array.isArray(id) && id.length === 2 && ['rom_ext', 'bl0'].includes(id[0]) &&
      Array.isArray(id[1]) && id[1].length === 2 && /^(0|[1-9][0-9]*)$/.test(id[1][0]) && id[1][1] === 1
  const digestOk = Array.isArray(digest) && digest.length === 2 && digest[0] === 1 &&
    isBytes(digest[1]) && digest[1].length === 32
  const auth = mc.get(3)
  const authOk = rom || (Array.isArray(auth) && auth.length >= 1 && auth.length <= 3 &&
    auth.every((k) => isBytes(k) && k.length === 32))
  return idOk && digestOk && authOk
}
let componentsOk = Array.isArray(meas) && meas.length >= 1
for (const [i, f] of (meas || []).entries()) {
  try {
    componentsOk = componentsOk && f[0] === 295 && component(f[1], i === 0)
  } catch {
    componentsOk = false
  }
}
check('measurements: the ROM, then each booted stage, as measured components (295) in strict CBOR',
  componentsOk)
const attempts = get(priv(11))
let refusedOk = Array.isArray(attempts) && Array.isArray(measres) && attempts.length === measres.length
for (const a of attempts || []) {
  try {
    const booted = (a.get(6) & 1) === 1
    refusedOk = refusedOk && (booted ? !a.has(8) : component(a.get(8), false))
  } catch {
    refusedOk = false
  }
}
check('attempts: one per measres group, each refused one with its own measured component', refusedOk)

console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
