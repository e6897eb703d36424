// The program of the CLI's sandbox process (./sandbox-node.ts starts it): one Node process per
// code a run carries, started with `node -e` under Node's permission model (no file system, no
// child processes, no workers), its own small heap, and an empty environment. Inside, the code
// runs in a node:vm context of its own (no require, no process), fed through ./runtime.ts: no
// object of this process is ever handed to the code (the runtime copies the input into the
// context's own arrays, its replies are copied out here), so code that escapes vm's context
// still lands in a process that can touch nothing of the host's. Messages go over the IPC
// channel as structured clones (typed arrays, numbers, strings) and nothing else.
//
//   host → child   { id, type: 'compile', js, kind, file } | { id, type: 'call', input }
//   child → host   { id, reply }                  (a SandboxReply, ./sandbox.ts)
//                  { type: 'fault', error }       an unhandled rejection or exception of the
//                                                 code, between calls (a finalizer, a promise)
//
// There is no time limit in here: the host kills this process when a reply is late. The message
// goes in through the runtime's take() (a closure of the runtime's, not a global the code could
// turn into a setter), and "__rlvr.run()" runs it.
//
// Written as a string (not a module) so that it runs exactly as written, without a loader.

import { SANDBOX_RUNTIME } from './runtime';

export const CHILD_PROGRAM = String.raw`
'use strict';
const vm = require('node:vm');
const { types } = require('node:util');
const send = process.send.bind(process);
// Nothing the code needs, if it ever reached this realm: the network, and the module system.
for (const name of ['fetch', 'Request', 'Response', 'Headers', 'FormData', 'WebSocket', 'EventSource', 'BroadcastChannel', 'require', 'module', 'exports', '__filename', '__dirname']) {
  try { delete globalThis[name]; } catch (_) {}
}

// Promise jobs the code queues run inside the script that ran it ('afterEvaluate'), so a reply
// is sent only once they are done (an endless one never lets it go: the host's limit kills it).
const context = vm.createContext(Object.create(null), { codeGeneration: { strings: true, wasm: false }, microtaskMode: 'afterEvaluate' });
vm.runInContext(__RUNTIME__, context, { filename: 'sandbox-runtime.js' });
const api = vm.runInContext('__rlvr', context);
const take = api.take;
const runScript = new vm.Script('__rlvr.run()', { filename: 'sandbox-call.js' });

const typedLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'length').get;
function copyTyped(x) {
  const make = types.isFloat64Array(x) ? Float64Array : types.isFloat32Array(x) ? Float32Array : types.isInt32Array(x) ? Int32Array : types.isUint8Array(x) ? Uint8Array : null;
  if (!make || types.isProxy(x)) return null;
  const n = typedLength.call(x);
  const out = new make(n);
  for (let i = 0; i < n; i++) out[i] = x[i];
  return out;
}
const str = (v) => (typeof v === 'string' ? v : '');
const num = (v) => (typeof v === 'number' ? v : -1);

// The runtime's record (prototype-less, of the context) as plain data of this realm.
function toReply(r) {
  if (r.ok !== true) {
    const e = r.error || {};
    return { ok: false, error: { name: str(e.name) || 'Error', message: str(e.message), stack: str(e.stack) } };
  }
  const reply = { ok: true };
  const o = r.output;
  if (o) {
    const values = o.values === null ? null : copyTyped(o.values);
    reply.output = { type: str(o.type), length: num(o.length), values: values instanceof Float64Array ? values : null, bad: num(o.bad), badType: str(o.badType) };
  }
  const a = r.after;
  if (a) {
    reply.after = {};
    for (const key of Object.keys(a)) {
      const copy = copyTyped(a[key]);
      if (copy) reply.after[key] = copy;
    }
  }
  return reply;
}

function describe(e) {
  try {
    if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
      const name = e.name, message = e.message, stack = e.stack;
      return { name: typeof name === 'string' ? name : 'Error', message: typeof message === 'string' ? message : '', stack: typeof stack === 'string' ? stack : '' };
    }
    return { name: 'Error', message: 'threw ' + String(e), stack: '' };
  } catch (_) {
    return { name: 'Error', message: 'a value that cannot be shown', stack: '' };
  }
}
// A promise of the code rejected with no handler, or its finalizer threw: said to the host,
// which stops the run at its next call.
process.on('unhandledRejection', (reason) => send({ type: 'fault', error: describe(reason), what: 'unhandled promise rejection' }));
process.on('uncaughtException', (e) => send({ type: 'fault', error: describe(e), what: 'uncaught exception' }));
process.on('disconnect', () => process.exit(0));

process.on('message', (m) => {
  let reply;
  try {
    take(m.type === 'compile' ? { type: 'compile', js: m.js, kind: m.kind, file: m.file } : { type: 'call', input: m.input });
    reply = toReply(runScript.runInContext(context));
  } catch (e) {
    reply = { ok: false, error: describe(e) };
  }
  send({ id: m.id, reply });
});
send({ type: 'ready' });
`.replace('__RUNTIME__', () => JSON.stringify(SANDBOX_RUNTIME));
