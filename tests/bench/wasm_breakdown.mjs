// Where a wasm file's bytes go: every function body attributed to a part of the client by its
// name (from a build that keeps its names: wasm-bindgen --keep-debug, wasm-opt -g), plus the
// data segments and the rest (imports, exports, tables, types). Used by run.mjs for the
// "Where the bytes go" table. Hand-written: the few lines of the wasm binary format needed here
// (section list, imports, code and data sizes, the name section) are less than a dependency.

/** Reads an unsigned LEB128 number at `p`; returns [value, next position]. */
function leb(b, p) {
  let value = 0;
  let scale = 1;
  let byte;
  do {
    if (p >= b.length) throw new Error('wasm breakdown: truncated number');
    byte = b[p++];
    value += (byte & 0x7f) * scale;
    scale *= 128;
  } while (byte & 0x80);
  return [value, p];
}

/** Skips a signed LEB128 number. */
function skipLeb(b, p) {
  while (b[p++] & 0x80);
  return p;
}

function text(b, p) {
  let n;
  [n, p] = leb(b, p);
  return [Buffer.from(b.subarray(p, p + n)).toString('utf8'), p + n];
}

/** Skips a table or memory's limits. */
function skipLimits(b, p) {
  const flags = b[p++];
  [, p] = leb(b, p);
  if (flags & 1) [, p] = leb(b, p);
  return p;
}

/** Skips a constant expression (a data segment's offset). */
function skipConstExpr(b, p) {
  for (;;) {
    const op = b[p++];
    if (op === 0x0b) return p;
    if (op === 0x41 || op === 0x42) p = skipLeb(b, p); // i32.const, i64.const
    else if (op === 0x23) [, p] = leb(b, p); // global.get
    else throw new Error(`wasm breakdown: unexpected opcode 0x${op.toString(16)} in a data offset`);
  }
}

/**
 * The sizes in a wasm file: `functions` ({ name, bytes } per body, its length prefix
 * included), `data` (all data segments' bytes), `names` (the custom "name" section, header
 * included) and `total` (the file's length).
 */
export function wasmSizes(buf) {
  const b = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
  if (b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) throw new Error('wasm breakdown: not a wasm file');
  let p = 8;
  let importedFunctions = 0;
  const bodies = [];
  let data = 0;
  const names = new Map();
  let nameSection = 0;
  while (p < b.length) {
    const sectionStart = p;
    const id = b[p++];
    let size;
    [size, p] = leb(b, p);
    const end = p + size;
    let q = p;
    if (id === 2) { // imports: count the imported functions (they come first in the index space)
      let n;
      [n, q] = leb(b, q);
      for (let i = 0; i < n; i++) {
        [, q] = text(b, q);
        [, q] = text(b, q);
        const kind = b[q++];
        if (kind === 0) { importedFunctions++; [, q] = leb(b, q); }
        else if (kind === 1) { q++; q = skipLimits(b, q); }
        else if (kind === 2) q = skipLimits(b, q);
        else if (kind === 3) q += 2;
        else if (kind === 4) { q++; [, q] = leb(b, q); }
        else throw new Error(`wasm breakdown: unknown import kind ${kind}`);
      }
    } else if (id === 10) { // code
      let n;
      [n, q] = leb(b, q);
      for (let i = 0; i < n; i++) {
        const start = q;
        let len;
        [len, q] = leb(b, q);
        q += len;
        bodies.push(q - start);
      }
    } else if (id === 11) { // data
      let n;
      [n, q] = leb(b, q);
      for (let i = 0; i < n; i++) {
        const start = q;
        let flags;
        [flags, q] = leb(b, q);
        if (flags === 2) [, q] = leb(b, q);
        if (flags !== 1) q = skipConstExpr(b, q);
        let len;
        [len, q] = leb(b, q);
        q += len;
        data += q - start;
      }
    } else if (id === 0) {
      let name;
      [name, q] = text(b, q);
      if (name === 'name') {
        nameSection = end - sectionStart;
        while (q < end) {
          const sub = b[q++];
          let len;
          [len, q] = leb(b, q);
          if (sub === 1) { // function names
            let n;
            let r = q;
            [n, r] = leb(b, r);
            for (let i = 0; i < n; i++) {
              let idx;
              let fname;
              [idx, r] = leb(b, r);
              [fname, r] = text(b, r);
              names.set(idx, fname);
            }
          }
          q += len;
        }
      }
    }
    p = end;
  }
  const functions = bodies.map((bytes, i) => ({ name: names.get(importedFunctions + i) ?? '', bytes }));
  return { functions, data, names: nameSection, total: b.length };
}

// Our crates, in the order a name is searched for them: a library function instantiated for one
// of our types (`drop_in_place::<client_core::…>`, a serde impl for an MCP type, the promise
// wrapper of a JS API method) counts for the part of ours that made it.
const OURS = ['web_ui', 'client_element', 'client_js', 'client_browser', 'client_core_sse', 'client_core'];

/** The part of the client a function (by its demangled name) belongs to. */
export function partOf(name) {
  // A crate is named with its hash in hex, without leading zeros: up to 16 digits.
  const crates = [...name.matchAll(/([a-z_][a-z0-9_]*)\[[0-9a-f]{1,16}\]((?:::[A-Za-z_][A-Za-z0-9_]*)*)/g)]
    .map((m) => ({ crate: m[1], path: m[2] }));
  const ours = crates.find((c) => OURS.includes(c.crate));
  if (ours) {
    if ((ours.crate === 'client_core' && ours.path.startsWith('::oauth'))
      || (ours.crate === 'client_browser' && ours.path.startsWith('::auth'))) return 'oauth';
    return ours.crate;
  }
  const first = crates[0]?.crate;
  if (!first) return 'glue';
  if (['sha2', 'digest', 'block_buffer', 'crypto_common', 'generic_array', 'base64'].includes(first)) return 'oauth';
  if (['memchr', 'simdutf8'].includes(first)) return 'client_core_sse';
  if (['serde', 'serde_core', 'serde_json', 'zmij', 'itoa', 'ryu'].includes(first)) return 'json';
  if (['leptos', 'leptos_dom', 'leptos_macro', 'tachys', 'reactive_graph', 'reactive_stores', 'leptos_router', 'any_spawner', 'throw_error', 'or_poisoned', 'send_wrapper', 'oco_ref', 'guardian', 'hydration_context', 'next_tuple', 'either_of'].includes(first)) return 'leptos';
  if (['wasm_bindgen', 'wasm_bindgen_futures', 'js_sys', 'web_sys', 'gloo_net', 'gloo_utils', 'serde_wasm_bindgen', 'wasm_streams'].includes(first)) return 'glue';
  if (['core', 'alloc', 'std', 'dlmalloc', 'hashbrown', 'compiler_builtins', 'panic_abort'].includes(first)) return 'std';
  return 'other';
}

/** What each part is, for the table. */
export const PARTS = {
  client_core: 'protocol core: session, both eras, JSON-RPC, MCP types (client-core, without OAuth)',
  oauth: 'OAuth, PKCE, DPoP, discovery (client-core `oauth`, client-browser `auth`, sha2, base64)',
  client_core_sse: 'SSE decoder (client-core-sse, memchr, simdutf8)',
  client_browser: 'browser transports and the Rust `Client` (client-browser, without `auth`)',
  client_js: 'JavaScript API (client-js: options, conversions, one promise per method)',
  client_element: '`<mcp-client>` element (client-element)',
  web_ui: 'the app\'s UI (web-ui: components, forms, schema checks)',
  leptos: 'Leptos (leptos, tachys, reactive_graph, …)',
  json: 'serde and serde_json, not for a type of ours',
  glue: 'wasm-bindgen, js-sys, web-sys, generated glue',
  std: 'Rust core, alloc, std, allocator, hash maps',
  other: 'other crates',
  data: 'data segments (strings, tables)',
  rest: 'the rest (imports, exports, types, function table, names of exports)',
};

/**
 * Bytes per part (keys of PARTS) of a wasm file built with names. `unnamed` (bytes of functions
 * with no name) must be small for the table to mean anything; every byte is counted once:
 * the parts add up to `total`.
 */
export function breakdown(buf) {
  const { functions, data, names, total } = wasmSizes(buf);
  const parts = Object.fromEntries(Object.keys(PARTS).map((k) => [k, 0]));
  let unnamed = 0;
  for (const f of functions) {
    if (!f.name) unnamed += f.bytes;
    parts[partOf(f.name)] += f.bytes;
  }
  parts.data = data;
  // The name section is not in the shipped file: leave it out of the total and of the rest.
  const counted = Object.values(parts).reduce((a, b) => a + b, 0);
  parts.rest = total - names - counted;
  return { parts, unnamed, total: total - names };
}
