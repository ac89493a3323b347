// terser, as the release build's hooks load it: the version scripts/env.sh pins, from where
// scripts/setup.sh installs it (RAFTLAB_TOOLS). `fail(message)` is the calling script's own.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export async function loadTerser(fail) {
  const { RAFTLAB_TOOLS: tools, RAFTLAB_TERSER_VERSION: version } = process.env;
  if (!tools || !version) fail("RAFTLAB_TOOLS / RAFTLAB_TERSER_VERSION unset: build through scripts/env.sh");
  const main = join(tools, `terser-${version}`, "node_modules", "terser", "main.js");
  try {
    return await import(pathToFileURL(main).href);
  } catch (e) {
    fail(`terser ${version} not found at ${main}: run scripts/setup.sh (${e.message})`);
  }
}
