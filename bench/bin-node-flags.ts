/**
 * The Node flags that bin/wsbench.js's `#!/usr/bin/env -S node ...` line gives the
 * orchestrator, so that a harness starting it with `node` (for its own flags, or
 * to choose the Node) measures the process users get from `npx wsbench`.
 */
import { readFileSync } from 'node:fs';

export function binNodeFlags(bin: string): string[] {
  const shebang = readFileSync(bin, 'utf8').split('\n', 1)[0]!;
  const words = shebang.replace(/^#!/, '').trim().split(/\s+/);
  const node = words.indexOf('node');
  if (node < 0) throw new Error(`${bin}: its first line does not start node: ${shebang}`);
  return words.slice(node + 1);
}
