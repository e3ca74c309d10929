#!/usr/bin/env node
/**
 * Tiny static server for the built UI, laid out the way the kernel serves it:
 * `ui-shell/dist` at `/` and each `ui-plugins/<id>/dist` at `/plugins/<id>/`.
 * `/api/*` (HTTP and the WebSocket upgrade) is proxied to `--api <url>` when
 * given; otherwise it answers 503 so the UI can be checked without a server.
 *
 *   node ui-shell/scripts/serve.mjs [--port 4173] [--api http://127.0.0.1:3000]
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const shellDist = resolve(here, '..', 'dist');
const pluginsDir = resolve(here, '..', '..', 'ui-plugins');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const port = Number(opt('port', '4173'));
const api = opt('api', '');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon',
  '.woff2': 'font/woff2', '.map': 'application/json',
};

/** Maps a URL path to a file, refusing anything outside the served folders. */
function fileFor(pathname) {
  let base = shellDist;
  let rest = pathname;
  const m = /^\/plugins\/([a-z0-9-]+)(\/.*)?$/.exec(pathname);
  if (m) {
    base = join(pluginsDir, m[1], 'dist');
    rest = m[2] ?? '/';
  }
  const file = normalize(join(base, decodeURIComponent(rest)));
  if (!file.startsWith(base)) return undefined;
  if (existsSync(file) && statSync(file).isFile()) return file;
  // A hash router never needs history fallback, but `/` must serve the shell.
  if (!m && (rest === '/' || rest === '')) return join(shellDist, 'index.html');
  return undefined;
}

function proxy(req, res) {
  const target = new URL(req.url, api);
  const upstream = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  upstream.on('error', () => {
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'ERR_SERVICE_UNAVAILABLE', message: 'API unreachable' }));
  });
  req.pipe(upstream);
}

const server = http.createServer((req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://x');
  if (pathname.startsWith('/api/')) {
    if (api) return proxy(req, res);
    res.writeHead(503, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ error: 'ERR_SERVICE_UNAVAILABLE', message: 'No API server behind this preview' }));
  }
  const file = fileFor(pathname);
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    return res.end('Not found');
  }
  // Hashed assets are immutable; html and manifests must always be fresh.
  const immutable = /\/assets\//.test(pathname);
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  createReadStream(file).pipe(res);
});

// WebSocket upgrades for /api/ws are tunnelled byte for byte.
server.on('upgrade', (req, socket, head) => {
  if (!api || !req.url?.startsWith('/api/')) return socket.destroy();
  const target = new URL(api);
  const upstream = net.connect(Number(target.port || 80), target.hostname, () => {
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    upstream.write(head);
    socket.pipe(upstream).pipe(socket);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
});

server.listen(port, '127.0.0.1', () => {
  console.log(`UI preview on http://127.0.0.1:${port}/ (api: ${api || 'none, answers 503'})`);
});
