/**
 * One headless Chromium with a fresh, empty profile, started by the client
 * process. It leads a process group of its own (every Chromium process is in
 * it), so that Ctrl+C in wsbench's terminal never reaches it (the client
 * process decides when it goes) and one kill ends it all: on a normal end, on
 * any exit of the client process, and, through the engine's watchdog, when the
 * client process is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CdpPipe } from './cdp-pipe.js';
import { CHROMIUM_FLAGS, resolverRules } from './chromium-binary.js';

const PROFILE_PREFIX = 'wsbench-browser-';
const START_TIMEOUT_MS = 30_000;
/** A killed browser's exit is awaited this long at most (its pipe and exit events can lag under load). */
const CLOSE_GRACE_MS = 2000;
const STDERR_TAIL_BYTES = 2048;

/** Every browser this process started and has not seen end: killed, whatever way the process leaves. */
const running = new Set<RunningBrowser>();
process.on('exit', () => {
  for (const browser of running) {
    browser.killNow();
    browser.removeProfile();
  }
});

interface BrowserLaunch {
  binary: string;
  /** The hosts its pages reach (the pages' server, the cell's server): nothing else resolves. */
  hosts: readonly string[];
  /** The engine's watchdog: kills the browser's process group once the client process is gone. */
  watchProcessGroup(pgid: number): void;
  /** Called once if the browser ends, or a page of it crashes, before close() was asked. */
  onFailure(reason: string): void;
}

export class RunningBrowser {
  readonly pid: number;
  /** As the browser says it, e.g. "Chrome/156.0.8078.108". */
  product = '';
  private readonly child: ChildProcess;
  private readonly cdp: CdpPipe;
  private readonly profile: string;
  private stderrTail = '';
  private closing = false;
  /** Set once it answered: a failure before that is start()'s to tell. */
  private up = false;
  private readonly exited: Promise<void>;

  private constructor(launch: BrowserLaunch) {
    removeAbandonedProfiles();
    this.profile = mkdtempSync(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
    // Chromium's own temporary files (its singleton socket's folder) go inside the profile, and with it.
    const temp = join(this.profile, 'tmp');
    mkdirSync(temp);
    this.child = spawn(
      launch.binary,
      [
        ...CHROMIUM_FLAGS,
        resolverRules(launch.hosts),
        `--user-data-dir=${this.profile}`,
        '--remote-debugging-pipe',
        'about:blank',
      ],
      {
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
        env: { ...process.env, TMPDIR: temp },
      },
    );
    this.pid = this.child.pid ?? -1;
    running.add(this);
    if (this.pid > 0) launch.watchProcessGroup(this.pid);
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL_BYTES);
    });
    this.cdp = new CdpPipe(this.child.stdio[3] as Writable, this.child.stdio[4] as Readable);
    this.cdp.onEvent = (event) => {
      if (event.method === 'Target.targetCrashed' && this.up && !this.closing) {
        launch.onFailure(
          `a browser page crashed (${String(event.params.status)}, error code ${String(event.params.errorCode)})`,
        );
      }
    };
    this.exited = new Promise((resolve) => {
      this.child.on('error', (error) => {
        this.cdp.close(`the browser could not start: ${error.message}`);
        this.removeProfile();
        resolve();
      });
      this.child.on('exit', (code, signal) => {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        this.cdp.close(`the browser ${how}${this.lastLine() ? `: ${this.lastLine()}` : ''}`);
        if (this.up && !this.closing)
          launch.onFailure(`the browser ${how}${this.lastLine() ? `: ${this.lastLine()}` : ''}`);
        this.removeProfile();
        resolve();
      });
    });
  }

  /** Starts a browser and waits until it answers on its DevTools pipe; rejects with the reason it did not. */
  static async start(launch: BrowserLaunch): Promise<RunningBrowser> {
    const browser = new RunningBrowser(launch);
    try {
      const version = await browser.cdp.send('Browser.getVersion', {}, START_TIMEOUT_MS);
      browser.product = String(version.product ?? '');
      await browser.cdp.send('Target.setDiscoverTargets', { discover: true });
      browser.up = true;
      return browser;
    } catch (error) {
      await browser.close();
      throw new Error(`${launch.binary} did not start: ${(error as Error).message}`);
    }
  }

  /** Opens a new page on `url`. */
  async openPage(url: string): Promise<void> {
    await this.cdp.send('Target.createTarget', { url });
  }

  /**
   * Ends the browser and every process of its group at once, and removes its profile. No polite close:
   * the profile is thrown away, and Chromium's own shutdown took a second or more of every cell.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.killNow();
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
    this.removeProfile();
  }

  /** SIGKILL to the whole group, at once: for exit handlers, which cannot wait. */
  killNow(): void {
    try {
      if (this.pid > 0) process.kill(-this.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }

  /** Once it is gone: its profile goes too. */
  removeProfile(): void {
    if (!running.delete(this)) return;
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 3 });
  }

  private lastLine(): string {
    const lines = this.stderrTail
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !/^\[\d+\/\d+\.\d+:(INFO|WARNING)/.test(l));
    return (lines.at(-1) ?? '').slice(0, 300);
  }
}

/**
 * Profiles of browsers whose client process is gone (it was killed before it could remove them):
 * each is named after its process id, so only those of dead processes are removed.
 */
function removeAbandonedProfiles(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^${PROFILE_PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
