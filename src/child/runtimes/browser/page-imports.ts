/**
 * How a page finds the modules a scenario imports: the one place the browser
 * client knows about the scenario kit. The page's import map sends
 * `wsbench/scenario` to this wsbench's kit, `socket.io-client` to that
 * package's browser bundle, and every Node built-in module (`node:fs`, `fs`,
 * ...) to a stand-in whose exports throw when called: the kit and scenario
 * files import them for what only runs in Node (reading /proc, the result
 * schema), and a page must still load them. A scenario that calls one in its
 * client half fails with the name of what it called.
 */
import { builtinModules, createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This wsbench's files: dist/ and everything the page loads from it are below. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
/** The page's entry and the kit, as files. */
export const PAGE_MAIN_FILE = fileURLToPath(new URL('../../../browser/page/main.js', import.meta.url));
const KIT_FILE = fileURLToPath(new URL('../../../shared/scenario-kit/index.js', import.meta.url));

/** socket.io-client's ES module bundle for browsers, from its own dist/. */
export function socketIoBundleFile(): string {
  const packageJson = createRequire(import.meta.url).resolve('socket.io-client/package.json');
  return join(dirname(packageJson), 'dist', 'socket.io.esm.min.js');
}

/** Node's built-in modules, by the name a stand-in is served under (`fs`, `fs/promises`). */
const BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));

/** The page's import map; `fileUrl(path)` and `builtinUrl(name)` say where the page's server serves each. */
export function importMap(
  fileUrl: (path: string) => string,
  builtinUrl: (name: string) => string,
  socketIoUrl: string,
): { imports: Record<string, string> } {
  const imports: Record<string, string> = { 'wsbench/scenario': fileUrl(KIT_FILE), 'socket.io-client': socketIoUrl };
  for (const name of BUILTINS) {
    imports[name] = builtinUrl(name);
    imports[`node:${name}`] = builtinUrl(name);
  }
  return { imports };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The stand-in module for Node's `name`: every export Node has, each a function that throws; null when `name` is no built-in. */
export async function builtinStandIn(name: string): Promise<string | null> {
  if (!BUILTINS.has(name)) return null;
  const real = (await import(`node:${name}`)) as Record<string, unknown>;
  const names = Object.keys(real).filter((key) => key !== 'default' && IDENTIFIER.test(key));
  const what = JSON.stringify(`node:${name}`);
  return [
    `const unavailable = (name) => function () { throw new Error(${what} + ' ' + name + '() is not available in a browser page'); };`,
    // `export { local as name }`: a name may be a reserved word there.
    ...names.map((key, i) => `const v${i} = unavailable(${JSON.stringify(key)}); export { v${i} as ${key} };`),
    `export default new Proxy({}, { get: (_, key) => unavailable(String(key)) });`,
    '',
  ].join('\n');
}
