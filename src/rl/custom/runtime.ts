// The sandbox's side of custom code (docs/custom-estimators.md, "Where it runs"): a plain script
// evaluated inside the sandbox before the user's code (a nested worker in the page, a node:vm
// context in Node), so both hosts run the same code in the same way. It defines one hidden,
// non-writable global `__rlvr` with two calls:
//
//   compile(js, kind, file) → { ok } | { ok: false, error }    evaluates the code once
//   call(input)              → { ok, output, after } | { ok: false, error }
//   take(message), run()     the same two, handed over first and then run (Node's sandbox)
//
// `call` copies the input into the sandbox's own arrays, freezes the batch object and its lists
// (an assignment throws, with the line), calls the function, and reads its output into a fresh
// Float64Array. The host checks everything (./checks.ts): the runtime only reports, so it
// cannot hide a wrong answer. Everything the runtime uses is captured before the user's code
// runs, and its records have no prototype, so user code that replaces globals or patches
// prototypes cannot make the host run it outside the time limit.
//
// Written as a string (not a function's source) so that no bundler or minifier can change it.

/** The runtime (see above); its NAMES are src/config/user-code.ts's CODE_FUNCTION. */
export const SANDBOX_RUNTIME = String.raw`
Object.defineProperty(globalThis, '__rlvr', { enumerable: false, writable: false, configurable: false, value: (function () {
  'use strict';
  var F64 = Float64Array, F32 = Float32Array, I32 = Int32Array, U8 = Uint8Array, DV = DataView;
  var isArray = Array.isArray, isView = ArrayBuffer.isView, freeze = Object.freeze, create = Object.create;
  var toStr = Object.prototype.toString, apply = Reflect.apply, Str = String, Err = Error, TypeErr = TypeError;
  var evaluate = eval;
  var CTORS = { '[object Float64Array]': F64, '[object Float32Array]': F32, '[object Int32Array]': I32, '[object Uint8Array]': U8 };
  var NAMES = { estimator: 'advantages', reward: 'rewards' };
  var fn = null;

  function record() { return create(null); }
  function describe(e) {
    var r = record();
    try {
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        r.name = Str(e.name || 'Error');
        r.message = Str(e.message);
        r.stack = Str(e.stack || '');
      } else {
        r.name = 'Error';
        r.message = 'threw ' + Str(e);
        r.stack = '';
      }
    } catch (_) {
      r.name = 'Error';
      r.message = 'threw a value that cannot be shown';
      r.stack = '';
    }
    return r;
  }
  function fail(e) {
    var r = record();
    r.ok = false;
    r.error = describe(e);
    return r;
  }

  function compile(js, kind, file) {
    try {
      var name = NAMES[kind];
      // The prefix is on the code's first line, so line n of the code is line n of the file.
      var wrapped = '(function (exports, require, module) {"use strict";' + js +
        '\n;return typeof ' + name + ' === "function" ? ' + name + ' : undefined;})\n//# sourceURL=' + file;
      var factory = evaluate(wrapped);
      var exp = {};
      var req = function () { throw new Err('import and require are not available here: write one self-contained file'); };
      var found = factory(exp, req, { exports: exp });
      if (typeof found !== 'function') found = typeof exp[name] === 'function' ? exp[name] : typeof exp['default'] === 'function' ? exp['default'] : undefined;
      if (typeof found !== 'function') {
        var missing = new TypeErr('the code must define function ' + name + '(batch)');
        missing.stack = '';
        return fail(missing);
      }
      fn = found;
      var r = record();
      r.ok = true;
      return r;
    } catch (e) {
      return fail(e);
    }
  }

  function copyStrings(a) {
    var n = a.length, out = new Array(n);
    for (var i = 0; i < n; i++) out[i] = Str(a[i]);
    return freeze(out);
  }

  function call(input) {
    var batch = {}, after = record(), k, key, keys;
    try {
      if (fn === null) throw new Err('no code was compiled');
      keys = input.scalarKeys;
      for (k = 0; k < keys.length; k++) batch[keys[k]] = +input.scalars[keys[k]];
      keys = input.typedKeys;
      for (k = 0; k < keys.length; k++) {
        key = keys[k];
        var source = input.typed[key], Ctor = CTORS[apply(toStr, source, [])];
        if (!Ctor) throw new TypeErr('internal: ' + key + ' is not a supported typed array');
        batch[key] = new Ctor(source);
        after[key] = batch[key];
      }
      keys = input.stringKeys;
      for (k = 0; k < keys.length; k++) batch[keys[k]] = copyStrings(input.strings[keys[k]]);
      keys = input.nestedKeys;
      for (k = 0; k < keys.length; k++) {
        var lists = input.nested[keys[k]], n = lists.length, out = new Array(n);
        for (var j = 0; j < n; j++) out[j] = copyStrings(lists[j]);
        batch[keys[k]] = freeze(out);
      }
      freeze(batch);
    } catch (e) {
      return fail(e);
    }
    var result;
    try {
      result = fn(batch);
    } catch (e) {
      return fail(e);
    }
    var o = record();
    try {
      var t = typeof result;
      if (result !== null && t === 'object' && (isArray(result) || (isView(result) && !(result instanceof DV)))) {
        var len = result.length;
        if (typeof len !== 'number' || !(len >= 0) || len > 100000000) throw new TypeErr('the returned array has no usable length');
        var values = new F64(len), bad = -1, badType = '';
        for (var i = 0; i < len; i++) {
          var v = result[i];
          if (typeof v === 'number') values[i] = v;
          else {
            values[i] = NaN;
            if (bad < 0) { bad = i; badType = v === null ? 'null' : typeof v; }
          }
        }
        o.type = isArray(result) ? 'array' : 'typed array';
        o.length = len;
        o.values = values;
        o.bad = bad;
        o.badType = badType;
      } else {
        o.type = result === null ? 'null' : t === 'object' && typeof result.then === 'function' ? 'a Promise (the function must not be async)' : t === 'object' ? 'an object' : t;
        o.length = -1;
        o.values = null;
        o.bad = -1;
        o.badType = '';
      }
    } catch (e) {
      return fail(e);
    }
    var r = record();
    r.ok = true;
    r.output = o;
    r.after = after;
    return r;
  }

  // Node's sandbox process hands a message over with take() (a plain call from outside, which
  // runs no code of the user's), then runs the script "__rlvr.run()" in the context, so that the
  // promise jobs the code queues run inside that script too; no global slot carries the message.
  var inbox = null;
  function take(m) { inbox = m; }
  function run() {
    var m = inbox;
    inbox = null;
    if (m === null) return fail(new Err('internal: no message was handed over'));
    return m.type === 'compile' ? compile(m.js, m.kind, m.file) : call(m.input);
  }

  var api = record();
  api.compile = compile;
  api.call = call;
  api.take = take;
  api.run = run;
  return freeze(api);
})() });
`;

/**
 * What a page's nested worker runs after the runtime: it keeps postMessage for itself, then
 * removes what a sandbox has no use for (network, storage, more workers) before any user code
 * runs. The worker's origin is opaque (a data: URL), so storage is refused anyway.
 */
export const WORKER_SHIM = String.raw`
(function () {
  var post = self.postMessage.bind(self);
  var hide = ['postMessage', 'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'indexedDB', 'caches',
    'Worker', 'SharedWorker', 'BroadcastChannel', 'WebTransport',
    // No timers, as in Node's sandbox: work left for later would run outside every call's limit.
    'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'queueMicrotask', 'requestAnimationFrame'];
  for (var i = 0; i < hide.length; i++) {
    try { Object.defineProperty(self, hide[i], { value: undefined, writable: false, configurable: false }); } catch (_) {}
  }
  self.onmessage = function (e) {
    var m = e.data, r;
    r = m.type === 'compile' ? __rlvr.compile(m.js, m.kind, m.file) : __rlvr.call(m.input);
    try {
      post(r);
    } catch (err) {
      post({ ok: false, error: { name: 'DataCloneError', message: String(err && err.message), stack: '' } });
    }
  };
})();
`;
