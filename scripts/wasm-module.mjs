// A small reader and writer of the wasm binary format, for the build's own rewrites of the
// page's module (scripts/split-wasm.mjs): sections, the parts of each that hold function,
// global and table indices, and a walk over every instruction of a code body that can rename
// the functions it calls. It knows the instructions rustc, wasm-bindgen and wasm-opt emit for
// wasm32-unknown-unknown (MVP, sign extension, saturating conversions, bulk memory, reference
// types, multi-value, tail calls); anything else (SIMD, atomics, GC) stops the build with the
// opcode and its offset rather than being copied blindly.

export class WasmError extends Error {}

export function readU(b, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = b[at++];
    if (byte === undefined) throw new WasmError(`LEB past the end at ${at}`);
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

/** Skips a signed LEB (any width) at `at`. */
export function skipS(b, at) {
  while (b[at++] & 0x80) {
    if (at > b.length) throw new WasmError(`LEB past the end at ${at}`);
  }
  return at;
}

export function leb(value) {
  const bytes = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    bytes.push(byte);
  } while (value > 0);
  return Buffer.from(bytes);
}

export function sleb32(value) {
  const bytes = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && !(byte & 0x40)) || (value === -1 && byte & 0x40)) {
      bytes.push(byte);
      return Buffer.from(bytes);
    }
    bytes.push(byte | 0x80);
  }
}

export function name(s) {
  const b = Buffer.from(s, "utf8");
  return Buffer.concat([leb(b.length), b]);
}

export function vec(items) {
  return Buffer.concat([leb(items.length), ...items]);
}

export function section(id, content) {
  return Buffer.concat([Buffer.from([id]), leb(content.length), content]);
}

/** The module's sections in order: { id, body } (body without id and size). */
export function sections(b) {
  if (b.readUInt32LE(0) !== 0x6d736100 || b.readUInt32LE(4) !== 1) throw new WasmError("not a wasm 1 module");
  const out = [];
  let at = 8;
  while (at < b.length) {
    const id = b[at];
    const [size, body] = readU(b, at + 1);
    out.push({ id, body: b.subarray(body, body + size) });
    at = body + size;
  }
  return out;
}

export function customName(body) {
  const [len, at] = readU(body, 0);
  return body.subarray(at, at + len).toString("utf8");
}

export function module(parts) {
  return Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), ...parts]);
}

/** Limits at `at`: { flags, min, max, end }. */
export function readLimits(b, at) {
  const flags = b[at++];
  let min;
  let max = null;
  [min, at] = readU(b, at);
  if (flags & 1) [max, at] = readU(b, at);
  return { flags, min, max, end: at };
}

export function limits({ flags, min, max }) {
  return Buffer.concat([Buffer.from([flags]), leb(min), ...(flags & 1 ? [leb(max)] : [])]);
}

/**
 * A vector at `at`: its count, then `item(b, at, i)` for each element, which returns
 * [value, the offset after it]. Returns [values, the offset after the vector].
 */
export function readVec(b, at, item) {
  let n;
  [n, at] = readU(b, at);
  const out = [];
  for (let i = 0; i < n; i++) {
    let v;
    [v, at] = item(b, at, i);
    out.push(v);
  }
  return [out, at];
}

// A section's body as one vector of `item`, which must fill it exactly.
function readBody(body, item) {
  const [out, end] = readVec(body, 0, item);
  if (end !== body.length) throw new WasmError(`a section misread: ${end} of ${body.length} bytes`);
  return out;
}

/** A name (length-prefixed UTF-8) at `at`: [string, the offset after it]. */
export function readName(b, at) {
  let len;
  [len, at] = readU(b, at);
  return [b.subarray(at, at + len).toString("utf8"), at + len];
}

/** Imports: [{ module, field, kind, desc (Buffer), typeIndex (functions) }]. */
export function readImports(body) {
  return readBody(body, (b, at) => {
    let mod;
    let field;
    [mod, at] = readName(b, at);
    [field, at] = readName(b, at);
    const kind = b[at];
    const start = at + 1;
    let typeIndex = null;
    if (kind === 0) [typeIndex, at] = readU(b, start);
    else if (kind === 1) at = readLimits(b, start + 1).end;
    else if (kind === 2) at = readLimits(b, start).end;
    else if (kind === 3) at = start + 2;
    else throw new WasmError(`import kind ${kind}`);
    return [{ module: mod, field, kind, desc: b.subarray(start, at), typeIndex }, at];
  });
}

export function importEntry({ module: mod, field, kind, desc }) {
  return Buffer.concat([name(mod), name(field), Buffer.from([kind]), desc]);
}

/** Exports: [{ field, kind, index }]. */
export function readExports(body) {
  return readBody(body, (b, at) => {
    let field;
    let index;
    [field, at] = readName(b, at);
    const kind = b[at++];
    [index, at] = readU(b, at);
    return [{ field, kind, index }, at];
  });
}

export function exportEntry({ field, kind, index }) {
  return Buffer.concat([name(field), Buffer.from([kind]), leb(index)]);
}

/** A vector of u32 (function section: type indices). */
export function readU32s(body) {
  return readBody(body, readU);
}

/** Tables: [{ elemType, limits }]. */
export function readTables(body) {
  return readBody(body, (b, at) => {
    if (b[at] === 0x40) throw new WasmError("table with an initializer");
    const l = readLimits(b, at + 1);
    return [{ elemType: b[at], limits: l }, l.end];
  });
}

export function tableEntry({ elemType, limits: l }) {
  return Buffer.concat([Buffer.from([elemType]), limits(l)]);
}

/** Function types: [{ params: [byte], results: [byte], raw }] (value types are one byte). */
export function readTypes(body) {
  const bytes = (b, at) => readVec(b, at, (b2, p) => [b2[p], p + 1]);
  return readBody(body, (b, at, i) => {
    const start = at;
    if (b[at++] !== 0x60) throw new WasmError(`type ${i} is not a function type`);
    let params;
    let results;
    [params, at] = bytes(b, at);
    [results, at] = bytes(b, at);
    return [{ params, results, raw: b.subarray(start, at) }, at];
  });
}

/** Globals: [{ type (2 bytes), init (const expr bytes incl. end) }]. */
export function readGlobals(body) {
  return readBody(body, (b, at) => {
    const start = at + 2;
    const end = walk(b, start, null).end;
    return [{ type: b.subarray(at, start), init: b.subarray(start, end) }, end];
  });
}

/** Code bodies: [Buffer] (each without its size). */
export function readCode(body) {
  return readBody(body, (b, at) => {
    let size;
    [size, at] = readU(b, at);
    return [b.subarray(at, at + size), at + size];
  });
}

/** Where a body's instructions start (after its locals). */
export function bodyStart(body) {
  return readVec(body, 0, (b, at) => [null, readU(b, at)[1] + 1])[1];
}

/**
 * Element segments: [{ flags, table, offset (expr bytes), elemKind (byte), funcs: [index] }].
 * Only segments of function indices (flags 0-3) are read: the kinds rustc and wasm-bindgen
 * emit; segments of expressions stop the build.
 */
export function readElements(body) {
  return readBody(body, (b, at, i) => {
    let flags;
    [flags, at] = readU(b, at);
    if (flags > 3) throw new WasmError(`element segment ${i} has flags ${flags} (expressions)`);
    let table = 0;
    let offset = null;
    let elemKind = 0;
    if (flags === 2) [table, at] = readU(b, at);
    if (!(flags & 1)) {
      const start = at;
      at = walk(b, at, null).end;
      offset = b.subarray(start, at);
    }
    if (flags & 3) elemKind = b[at++];
    let funcs;
    [funcs, at] = readVec(b, at, readU);
    return [{ flags, table, offset, elemKind, funcs }, at];
  });
}

/** The value N of a constant expression `i32.const N; end`, else null. */
export function constI32(expr) {
  if (!expr || expr[0] !== 0x41) return null;
  let value = 0;
  let shift = 0;
  let at = 1;
  let byte;
  do {
    byte = expr[at++];
    value |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte & 0x80);
  if (shift < 32 && byte & 0x40) value |= -1 << shift;
  return expr[at] === 0x0b && at + 1 === expr.length ? value : null;
}

/** An active element segment putting `funcs` into `table` from slot `at`. */
export function activeElements(table, at, funcs) {
  const offset = Buffer.concat([Buffer.from([0x41]), sleb32(at), Buffer.from([0x0b])]);
  return elementEntry({ flags: table === 0 ? 0 : 2, table, offset, elemKind: 0, funcs });
}

export function elementEntry({ flags, table, offset, elemKind, funcs }) {
  const parts = [leb(flags)];
  if (flags === 2) parts.push(leb(table));
  if (!(flags & 1)) parts.push(offset);
  if (flags & 3) parts.push(Buffer.from([elemKind]));
  parts.push(vec(funcs.map(leb)));
  return Buffer.concat(parts);
}

// Memory instructions 0x28..0x3e carry a memarg.
const MEMARG_LO = 0x28;
const MEMARG_HI = 0x3e;

/**
 * Walks the instructions from `at` to the `end` that closes the expression (a function body
 * or a constant expression). `visit(op, sub, immAt, immEnd)` sees each instruction; what it
 * returns is collected as `uses` (null and undefined are skipped). With `rename`, calls,
 * return calls and ref.func get `rename(oldIndex, op)` as their function index, or, where it
 * returns a Buffer, are replaced by those bytes whole (e.g. a call by an indirect call); the
 * rewritten bytes are returned as `bytes`. Returns { end, bytes, uses }.
 */
export function walk(b, at, visit, rename = null) {
  const out = rename ? [] : null;
  const uses = [];
  let copied = at;
  let depth = 0;
  for (;;) {
    const opAt = at;
    const op = b[at++];
    if (op === undefined) throw new WasmError(`code ends inside an expression at ${opAt}`);
    let sub = null;
    let funcAt = -1;
    switch (true) {
      case op === 0x02 || op === 0x03 || op === 0x04: {
        const t = b[at];
        if (t === 0x40 || (t >= 0x6f && t <= 0x7f)) at += 1;
        else at = skipS(b, at);
        depth++;
        break;
      }
      case op === 0x0b:
        if (depth === 0) {
          if (visit) pushUse(uses, visit(op, null, at, at));
          if (out) out.push(b.subarray(copied, at));
          return { end: at, bytes: out ? Buffer.concat(out) : null, uses };
        }
        depth--;
        break;
      case op === 0x00 || op === 0x01 || op === 0x05 || op === 0x0f || op === 0x1a || op === 0x1b:
        break;
      case op === 0x0c || op === 0x0d:
        [, at] = readU(b, at);
        break;
      case op === 0x0e: {
        let n;
        [n, at] = readU(b, at);
        for (let i = 0; i <= n; i++) [, at] = readU(b, at);
        break;
      }
      case op === 0x10 || op === 0x12 || op === 0xd2:
        funcAt = at;
        [, at] = readU(b, at);
        break;
      case op === 0x11 || op === 0x13:
        [, at] = readU(b, at);
        [, at] = readU(b, at);
        break;
      case op === 0x1c: {
        let n;
        [n, at] = readU(b, at);
        at += n;
        break;
      }
      case op >= 0x20 && op <= 0x26:
        [, at] = readU(b, at);
        break;
      case op >= MEMARG_LO && op <= MEMARG_HI: {
        let align;
        [align, at] = readU(b, at);
        if (align & 0x40) [, at] = readU(b, at);
        [, at] = readU(b, at);
        break;
      }
      case op === 0x3f || op === 0x40:
        [, at] = readU(b, at);
        break;
      case op === 0x41 || op === 0x42:
        at = skipS(b, at);
        break;
      case op === 0x43:
        at += 4;
        break;
      case op === 0x44:
        at += 8;
        break;
      case op >= 0x45 && op <= 0xc4:
        break;
      case op === 0xd0:
        at += 1;
        break;
      case op === 0xd1:
        break;
      case op === 0xfc: {
        [sub, at] = readU(b, at);
        if (sub <= 7) break;
        if (sub === 8) {
          [, at] = readU(b, at);
          [, at] = readU(b, at);
        } else if (sub === 9 || sub === 13 || (sub >= 15 && sub <= 17)) {
          [, at] = readU(b, at);
        } else if (sub === 10 || sub === 12 || sub === 14) {
          [, at] = readU(b, at);
          [, at] = readU(b, at);
        } else if (sub === 11) {
          [, at] = readU(b, at);
        } else {
          throw new WasmError(`unknown instruction 0xfc ${sub} at ${opAt}`);
        }
        break;
      }
      default:
        throw new WasmError(`instruction 0x${op.toString(16)} at ${opAt} is not handled`);
    }
    if (visit) pushUse(uses, visit(op, sub, opAt, at));
    if (out && funcAt >= 0) {
      const [f] = readU(b, funcAt);
      const to = rename(f, op);
      if (Buffer.isBuffer(to)) out.push(b.subarray(copied, opAt), to);
      else out.push(b.subarray(copied, funcAt), leb(to));
      copied = at;
    }
  }
}

function pushUse(uses, u) {
  if (u !== null && u !== undefined) uses.push(u);
}
