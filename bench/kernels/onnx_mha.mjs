// Writes the ONNX model of the benchmark's multi-head attention forward as protobuf bytes, by hand (the few
// fields of onnx.proto it needs): x (T, D) -> MatMul W_qkv -> Split Q, K, V -> per-head Reshape/Transpose ->
// MatMul Q K^T -> Mul 1/sqrt(d_k) -> Softmax -> MatMul V -> Transpose/Reshape (T, D) -> MatMul W_o -> y.
// The weights are initializers (a deployed model's layout); no bias, no mask. Opset 17, IR version 8.
import os from 'node:os';

if (os.endianness() !== 'LE') {
  throw new Error('onnx_mha.mjs writes raw_data from typed arrays: little-endian machines only');
}

// --- protobuf wire format: varints, length-delimited fields, 32-bit floats ---
const enc = new TextEncoder();

// A varint of a non-negative or negative integer (negative int64 as 10 bytes of two's complement).
function varint(value) {
  let v = BigInt.asUintN(64, BigInt(value));
  const out = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return Uint8Array.from(out);
}

function concat(parts) {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const key = (field, wire) => varint((field << 3) | wire);
const fInt = (field, v) => concat([key(field, 0), varint(v)]);
const fBytes = (field, bytes) => concat([key(field, 2), varint(bytes.length), bytes]);
const fStr = (field, s) => fBytes(field, enc.encode(s));
const fMsg = (field, parts) => fBytes(field, concat(parts));
function fFloat(field, v) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, v, true);
  return concat([key(field, 5), b]);
}

// --- onnx.proto messages (field numbers from the ONNX IR spec) ---
const FLOAT = 1;
const INT64 = 7;

// TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9.
function tensor(name, dims, dataType, typed) {
  const raw = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  return [...dims.map((d) => fInt(1, d)), fInt(2, dataType), fStr(8, name), fBytes(9, raw)];
}

// AttributeProto: name = 1, f = 2, i = 3, ints = 8, type = 20 (FLOAT 1, INT 2, INTS 7).
const attrInt = (name, i) => fMsg(5, [fStr(1, name), fInt(3, i), fInt(20, 2)]);
const attrInts = (name, ints) => fMsg(5, [fStr(1, name), ...ints.map((i) => fInt(8, i)), fInt(20, 7)]);

// NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5.
function node(op, inputs, outputs, attrs = []) {
  return fMsg(1, [
    ...inputs.map((s) => fStr(1, s)),
    ...outputs.map((s) => fStr(2, s)),
    fStr(3, `${op}_${outputs[0]}`),
    fStr(4, op),
    ...attrs,
  ]);
}

// ValueInfoProto: name = 1, type = 2 -> TypeProto.tensor_type = 1 -> elem_type = 1, shape = 2 -> dim = 1 ->
// dim_value = 1.
function valueInfo(field, name, dims) {
  const shape = dims.map((d) => fMsg(1, [fInt(1, d)]));
  return fMsg(field, [fStr(1, name), fMsg(2, [fMsg(1, [fInt(1, FLOAT), fMsg(2, shape)])])]);
}

// The model bytes for tokens T, width D, heads H and the weights w_qkv (D, 3D) and w_o (D, D), both
// Float32Array in row-major order. Input "x" (T, D), output "y" (T, D).
export function mhaModel(T, D, H, wQkv, wO) {
  if (D % H !== 0) throw new Error(`heads ${H} do not divide d_model ${D}`);
  const dk = D / H;
  const i64 = (values) => BigInt64Array.from(values.map(BigInt));
  const inits = [
    tensor('w_qkv', [D, 3 * D], FLOAT, wQkv),
    tensor('w_o', [D, D], FLOAT, wO),
    tensor('split_sizes', [3], INT64, i64([D, D, D])),
    tensor('heads_shape', [3], INT64, i64([T, H, dk])),
    tensor('rows_shape', [2], INT64, i64([T, D])),
    tensor('scale', [], FLOAT, Float32Array.of(1 / Math.sqrt(dk))),
  ].map((t) => fMsg(5, t));
  const nodes = [
    node('MatMul', ['x', 'w_qkv'], ['qkv']), // (T, 3D)
    node('Split', ['qkv', 'split_sizes'], ['q', 'k', 'v'], [attrInt('axis', 1)]), // 3 x (T, D)
    node('Reshape', ['q', 'heads_shape'], ['q3']), // (T, H, dk)
    node('Reshape', ['k', 'heads_shape'], ['k3']),
    node('Reshape', ['v', 'heads_shape'], ['v3']),
    node('Transpose', ['q3'], ['qh'], [attrInts('perm', [1, 0, 2])]), // (H, T, dk)
    node('Transpose', ['k3'], ['kht'], [attrInts('perm', [1, 2, 0])]), // (H, dk, T)
    node('Transpose', ['v3'], ['vh'], [attrInts('perm', [1, 0, 2])]), // (H, T, dk)
    node('MatMul', ['qh', 'kht'], ['scores']), // (H, T, T)
    node('Mul', ['scores', 'scale'], ['scaled']),
    node('Softmax', ['scaled'], ['weights'], [attrInt('axis', 2)]),
    node('MatMul', ['weights', 'vh'], ['heads']), // (H, T, dk)
    node('Transpose', ['heads'], ['heads_t'], [attrInts('perm', [1, 0, 2])]), // (T, H, dk)
    node('Reshape', ['heads_t', 'rows_shape'], ['concat']), // (T, D)
    node('MatMul', ['concat', 'w_o'], ['y']), // (T, D)
  ];
  // GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12.
  const graph = [...nodes, fStr(2, 'mha'), ...inits, valueInfo(11, 'x', [T, D]), valueInfo(12, 'y', [T, D])];
  // ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8 (domain = 1, version = 2).
  const opset = fMsg(8, [fStr(1, ''), fInt(2, 17)]);
  return concat([fInt(1, 8), fStr(2, 'attention-demo bench'), fMsg(7, graph), opset]);
}
