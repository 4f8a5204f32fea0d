/**
 * The loopback HTTP server a client process opens for its pages: the page, the
 * modules it imports (this wsbench's own files and the scenario's, JavaScript
 * only, each a regular file checked on its open descriptor), stand-ins for
 * Node's modules, socket.io's browser bundle, and each page's control
 * WebSocket. Everything sits below a random path that only this process's
 * pages know, answers only to its own Host, and is served cross-origin
 * isolated: that is what gives a page's clock 5 µs steps instead of 100 µs.
 */
import { randomBytes } from 'node:crypto';
import { constants, realpathSync } from 'node:fs';
import { open } from 'node:fs/promises';
import http from 'node:http';
import { dirname, extname, join, sep } from 'node:path';
import { existsSync } from 'node:fs';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONTROL_PATH } from '../../../shared/browser-bridge.js';
import { builtinStandIn, importMap, PACKAGE_ROOT, PAGE_MAIN_FILE, socketIoBundleFile } from './page-imports.js';

const MAX_MODULE_BYTES = 32 * 1024 * 1024;
const MODULE_EXTENSIONS = new Set(['.js', '.mjs']);
const ISOLATED = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

interface PageServer {
  /** The address it listens on. */
  host: string;
  /** The address page `index` opens. */
  pageUrl(index: number): string;
  /** Where a page imports `file` from (a file of the scenario's project, or of this wsbench). */
  pathOf(file: string): string;
  close(): Promise<void>;
}

interface PageServerOptions {
  /** The scenario module: its project (the nearest folder with a package.json) is served too. */
  scenarioFile: string;
  /** A page's control WebSocket connected. */
  onControl(page: number, socket: WebSocket): void;
}

export async function startPageServer(options: PageServerOptions): Promise<PageServer> {
  const base = `/${randomBytes(16).toString('hex')}`;
  const roots = [PACKAGE_ROOT, projectOf(options.scenarioFile)].map((root) => realpathSync(root));
  const fileUrl = (path: string): string => `${base}/fs${encodeURI(path)}`;
  const map = importMap(fileUrl, (name) => `${base}/node/${name}.js`, `${base}/socket.io-client.js`);
  const html = pageHtml(map, fileUrl(PAGE_MAIN_FILE));
  let hostHeader = '';

  const server = http.createServer((request, response) => {
    void serve(request.url ?? '', request.headers.host).then(
      (answer) => {
        response.writeHead(answer.status, { ...ISOLATED, 'Content-Type': answer.type ?? 'text/plain; charset=utf-8' });
        response.end(answer.body);
      },
      () => {
        response.writeHead(500, ISOLATED);
        response.end();
      },
    );
  });
  const controls = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '', 'http://page');
    const page = Number(url.searchParams.get('page'));
    if (request.headers.host !== hostHeader || url.pathname !== `${base}${CONTROL_PATH}` || !Number.isInteger(page))
      return void socket.destroy();
    controls.handleUpgrade(request, socket, head, (ws) => options.onControl(page, ws));
  });

  async function serve(
    rawUrl: string,
    host: string | undefined,
  ): Promise<{ status: number; body: string | Buffer; type?: string }> {
    if (host !== hostHeader) return { status: 403, body: 'wrong Host' };
    const path = new URL(rawUrl, 'http://page').pathname;
    if (!path.startsWith(`${base}/`)) return { status: 404, body: '' };
    const rest = path.slice(base.length);
    if (rest === '/page.html') return { status: 200, body: html, type: 'text/html; charset=utf-8' };
    if (rest === '/socket.io-client.js') return moduleFile(socketIoBundleFile(), [dirname(socketIoBundleFile())]);
    if (rest.startsWith('/node/') && rest.endsWith('.js')) {
      const standIn = await builtinStandIn(decodeURIComponent(rest.slice('/node/'.length, -'.js'.length)));
      return standIn === null
        ? { status: 404, body: '' }
        : { status: 200, body: standIn, type: 'text/javascript; charset=utf-8' };
    }
    if (rest.startsWith('/fs/')) return moduleFile(decodeURIComponent(rest.slice('/fs'.length)), roots);
    return { status: 404, body: '' };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  hostHeader = `127.0.0.1:${port}`;
  return {
    host: '127.0.0.1',
    pageUrl: (index) => `http://${hostHeader}${base}/page.html?page=${index}`,
    pathOf: fileUrl,
    close: () =>
      new Promise((resolve) => {
        for (const client of controls.clients) client.terminate();
        controls.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JavaScript file inside one of `roots`, read through its open descriptor once it proved a regular file of bounded size. */
async function moduleFile(
  path: string,
  roots: string[],
): Promise<{ status: number; body: string | Buffer; type?: string }> {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { status: 404, body: '' };
  }
  if (!MODULE_EXTENSIONS.has(extname(real)) || !roots.some((root) => real.startsWith(root + sep)))
    return { status: 404, body: '' };
  const file = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = await file.stat();
    if (!stat.isFile() || stat.size > MAX_MODULE_BYTES) return { status: 404, body: '' };
    return { status: 200, body: await file.readFile(), type: 'text/javascript; charset=utf-8' };
  } finally {
    await file.close();
  }
}

/** The nearest folder above `file` with a package.json (the scenario's project), else the file's own folder. */
function projectOf(file: string): string {
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) return dirname(file);
  }
}

function pageHtml(map: { imports: Record<string, string> }, main: string): string {
  // The import map is JSON inside a script element: "</" must not end it early.
  const json = JSON.stringify(map).replace(/</g, '\\u003c');
  return `<!doctype html>\n<meta charset="utf-8">\n<title>wsbench browser client</title>\n<script type="importmap">${json}</script>\n<script type="module" src="${main}"></script>\n`;
}
