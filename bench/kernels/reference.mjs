// The kernel benchmark's inputs (seeded float32 x, W_qkv, W_o) and its float64 reference: the multi-head
// attention forward computed in float64 for a sample of output rows, from full-precision K and V.

// A seeded generator of uniforms in [0, 1) (a 32-bit counter through a murmur-style mixer).
function uniforms(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    return (z >>> 0) / 4294967296;
  };
}

// `n` normal-ish float32 values (the sum of 4 uniforms, centred, unit variance) times `scale`.
function normals(next, n, scale) {
  const out = new Float32Array(n);
  for (let i = 0; i < n; ++i) out[i] = (next() + next() + next() + next() - 2) * Math.sqrt(3) * scale;
  return out;
}

// x (T, D), wQkv (D, 3D) and wO (D, D), row-major Float32Array; the weights scaled by 1/sqrt(D).
export function makeInputs(T, D, seed) {
  const next = uniforms(seed);
  const x = normals(next, T * D, 1);
  const wQkv = normals(next, D * 3 * D, 1 / Math.sqrt(D));
  const wO = normals(next, D * D, 1 / Math.sqrt(D));
  return { x, wQkv, wO };
}

// The file mha_bench --inputs reads: x, then w_qkv, then w_o, raw little-endian float32.
export function inputsFileBytes({ x, wQkv, wO }) {
  const all = new Float32Array(x.length + wQkv.length + wO.length);
  all.set(x, 0);
  all.set(wQkv, x.length);
  all.set(wO, x.length + wQkv.length);
  return new Uint8Array(all.buffer);
}

// `count` row indices spread over 0..T-1, first and last included.
export function sampleRows(T, count) {
  const n = Math.min(count, T);
  const rows = new Set();
  for (let i = 0; i < n; ++i) rows.add(Math.round((i * (T - 1)) / Math.max(n - 1, 1)));
  return [...rows];
}

// The float64 forward for the given output rows: returns Float64Array (rows.length, D).
// K and V are computed in full (T, D) in float64; Q only for the sampled rows.
export function referenceRows({ x, wQkv, wO }, T, D, H, rows) {
  const dk = D / H;
  const D3 = 3 * D;
  // kv (T, 2D): columns D..3D-1 of x W_qkv.
  const kv = new Float64Array(T * 2 * D);
  for (let t = 0; t < T; ++t) {
    const out = t * 2 * D;
    for (let i = 0; i < D; ++i) {
      const xv = x[t * D + i];
      const w = i * D3 + D;
      for (let c = 0; c < 2 * D; ++c) kv[out + c] += xv * wQkv[w + c];
    }
  }
  const result = new Float64Array(rows.length * D);
  const q = new Float64Array(D);
  const concat = new Float64Array(D);
  const p = new Float64Array(T);
  const scale = 1 / Math.sqrt(dk);
  rows.forEach((r, n) => {
    q.fill(0);
    for (let i = 0; i < D; ++i) {
      const xv = x[r * D + i];
      for (let c = 0; c < D; ++c) q[c] += xv * wQkv[i * D3 + c];
    }
    concat.fill(0);
    for (let h = 0; h < H; ++h) {
      const c0 = h * dk;
      let max = -Infinity;
      for (let j = 0; j < T; ++j) {
        let s = 0;
        for (let c = c0; c < c0 + dk; ++c) s += q[c] * kv[j * 2 * D + c];
        p[j] = s * scale;
        if (p[j] > max) max = p[j];
      }
      let sum = 0;
      for (let j = 0; j < T; ++j) sum += p[j] = Math.exp(p[j] - max);
      for (let j = 0; j < T; ++j) {
        const pj = p[j] / sum;
        for (let c = c0; c < c0 + dk; ++c) concat[c] += pj * kv[j * 2 * D + D + c];
      }
    }
    for (let i = 0; i < D; ++i) {
      const cv = concat[i];
      for (let c = 0; c < D; ++c) result[n * D + c] += cv * wO[i * D + c];
    }
  });
  return result;
}

// The largest |out - ref| over the sampled rows (out is a full (T, D) Float32Array).
export function maxDiffToReference(out, ref, rows, D) {
  let m = 0;
  rows.forEach((r, n) => {
    for (let c = 0; c < D; ++c) m = Math.max(m, Math.abs(out[r * D + c] - ref[n * D + c]));
  });
  return m;
}

// The largest |a - b| over two whole outputs (NaN anywhere makes it NaN).
export function maxDiff(a, b) {
  if (a.length !== b.length) return NaN;
  let m = 0;
  for (let i = 0; i < a.length; ++i) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) m = d;
  }
  return m;
}
