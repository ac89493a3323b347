// A tiny static file server for the e2e tests: serves one folder (default: dist/) on 127.0.0.1
// only, on the given port or a free one, with correct MIME types (application/wasm matters for
// WebAssembly.instantiateStreaming).
//
//   node tests/e2e/serve.mjs [DIR] [PORT] [--url-file FILE]
//
// Prints `serving DIR at http://127.0.0.1:PORT/` and, with --url-file, writes the URL to FILE
// once it is listening. Stops on SIGINT/SIGTERM.
import { createServer } from 'node:http';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const args = process.argv.slice(2);
let urlFile = null;
const positional = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--url-file') urlFile = args[++i];
  else positional.push(args[i]);
}
const root = resolve(positional[0] ?? 'dist');
const port = Number(positional[1] ?? 0);

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

async function resolveFile(urlPath) {
  let rel = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  rel = normalize(rel).replace(/^([/\\])+/, '');
  const file = join(root, rel);
  if (file !== root && !file.startsWith(root + sep)) return null; // no escaping the folder
  try {
    const st = await stat(file);
    if (st.isDirectory()) return resolveFile(join('/', rel, 'index.html'));
    return file;
  } catch {
    return null;
  }
}

const server = createServer(async (req, res) => {
  try {
    const file = await resolveFile(req.url ?? '/');
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('not found\n');
      return;
    }
    const body = await readFile(file);
    res.writeHead(200, {
      'content-type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch (err) {
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(String(err));
  }
});

server.listen(port, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${server.address().port}/`;
  console.log(`serving ${root} at ${url}`);
  if (urlFile) await writeFile(urlFile, url + '\n');
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
