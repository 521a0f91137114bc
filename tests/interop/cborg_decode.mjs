// SPDX-License-Identifier: MIT
// node cborg_decode.mjs [--skip N] LISTFILE: each file named in LISTFILE
// (one path a line) decoded by cborg (pinned in package-lock.json) in
// strict mode, printed one JSON document a line in the shape
// tests/fuzz/cbor_dump.c prints, for tests/fuzz/differential.py:
//   {"file": F, "ok": true, "item": ITEM} or {"file": F, "ok": false, "error": "..."}
// Strict: shortest integers and lengths only, no indefinite lengths, no
// undefined, duplicate map keys refused; maps keep their encoded order and
// any key type (useMaps); every tag is kept as a tag (no semantics applied),
// so only the encoding is compared.
import { readFileSync } from 'node:fs'
import { decode } from 'cborg'
import { strictOptions } from './cborg_strict.mjs'

class Tag {
  constructor (tag, value) {
    this.tag = tag
    this.value = value
  }
}

// cborg looks a tag's decoder up by its number: answer for every number.
const options = strictOptions(
  new Proxy({}, { get: (_, number) => (inner) => new Tag(String(number), inner()) }))

function hex (bytes) {
  return Buffer.from(bytes).toString('hex')
}

function render (v) {
  if (v === null) return { simple: 'null' }
  if (v === true || v === false) return { simple: String(v) }
  if (v === undefined) return { simple: 'undefined' }
  if (typeof v === 'bigint') return { int: v.toString() }
  if (typeof v === 'number') return Number.isInteger(v) ? { int: String(v) } : { float: String(v) }
  if (typeof v === 'string') return { text: v }
  if (v instanceof Uint8Array) return { bytes: hex(v) }
  if (Array.isArray(v)) return { array: v.map(render) }
  if (v instanceof Map) return { map: [...v].map(([k, x]) => [render(k), render(x)]) }
  if (v instanceof Tag) return { tag: v.tag, value: render(v.value) }
  throw new Error(`cborg_decode: cannot render ${Object.prototype.toString.call(v)}`)
}

let args = process.argv.slice(2)
let skip = 0
if (args[0] === '--skip') {
  skip = Number(args[1])
  args = args.slice(2)
}
if (args.length !== 1 || !Number.isInteger(skip) || skip < 0) {
  console.error('usage: node cborg_decode.mjs [--skip N] LISTFILE')
  process.exit(2)
}
const files = readFileSync(args[0], 'utf8').split('\n').filter((l) => l !== '')
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(file)).subarray(skip)
  let out
  try {
    out = { file, ok: true, item: render(decode(bytes, options)) }
  } catch (e) {
    out = { file, ok: false, error: e.message }
  }
  process.stdout.write(JSON.stringify(out) + '\n')
}
