/**
 * Under `npx wsbench` (or an npm script), npm starts wsbench through a shell:
 * npm -> sh -c 'wsbench ...' -> node wsbench. SIGTERM to npm is forwarded to
 * that shell only; dash (Debian's sh) dies of it at once, without passing it on,
 * and npm exits as soon as its shell has. wsbench never hears the signal and
 * would run the rest of its cells as an orphan. So when npm started wsbench and
 * wsbench's parent goes away, that is taken as the interrupt it stood for: the
 * current cell ends and what was measured is written, within seconds.
 *
 * Outside npm a lost parent means nothing (nohup, a closed terminal with `&`):
 * the run goes on.
 */

/** How often the parent pid is read: cheap (one syscall), and an interrupt already takes seconds. */
const CHECK_EVERY_MS = 500;

/** True when a package manager started this process (npm, npx, pnpm and yarn set this). */
function startedByPackageManager(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_lifecycle_event !== undefined;
}

/** Calls `onGone` once if the parent process ends while the run is on; returns the function that stops watching. */
export function watchPackageManagerParent(onGone: () => void): () => void {
  if (!startedByPackageManager()) return () => undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.stderr.write(
      `\nwsbench: ${process.env.npm_lifecycle_event === 'npx' ? 'npx' : 'npm'} ended (it was signalled); stopping as on Ctrl+C\n`,
    );
    onGone();
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
