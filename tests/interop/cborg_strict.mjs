// SPDX-License-Identifier: MIT
// cborg's strict decoding options as otattest's interop checks use them:
// shortest integers and lengths only, no indefinite lengths, no undefined,
// NaN or Infinity, duplicate map keys refused, maps kept as Maps in their
// encoded order with any key type. tags: cborg looks a tag's decoder up by
// its number; each caller says which tags it keeps and how.
export function strictOptions (tags) {
  return {
    strict: true,
    allowIndefinite: false,
    allowUndefined: false,
    allowNaN: false,
    allowInfinity: false,
    allowBigInt: true,
    rejectDuplicateMapKeys: true,
    useMaps: true,
    tags
  }
}
