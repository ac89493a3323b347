// Starts the explore worker (src/bin/explore_worker.rs): loads its wasm-bindgen glue (trunk
// builds it with index.html's data-type="worker" link, as no-modules: a global wasm_bindgen)
// and its wasm, whose main() starts listening and posts Ready. The page creates the worker
// from this file (src/ui/explore_ctl.rs) only when a search starts.
importScripts('./explore_worker.js');
wasm_bindgen({ module_or_path: './explore_worker_bg.wasm' });
