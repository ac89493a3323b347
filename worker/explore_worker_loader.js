// Starts the explore worker (src/bin/explore_worker.rs): loads its wasm-bindgen glue (trunk
// builds it with index.html's data-type="worker" link, as no-modules: a global wasm_bindgen)
// and its wasm, whose main() starts listening and posts Ready. The page creates the worker
// from this file (src/ui/explore_ctl.rs) only when a search starts. Release builds ship the
// wasm LZMA-packed: scripts/pack-wasm.mjs rewrites the path below into a call that fetches and
// unpacks it.
importScripts('./explore_worker.js');
wasm_bindgen({ module_or_path: './explore_worker_bg.wasm' }).catch((e) => {
  // A rejected promise in a worker stays in the worker; an error thrown by a task reaches the
  // page's Worker.onerror, which shows it in the Explore tab instead of waiting for Ready.
  setTimeout(() => {
    throw e;
  });
});
