/**
 * Writes a run's journal while it goes on: a listener of run()'s events, like
 * the live views. Records wait in memory for at most FLUSH_MS and then go out
 * in one append (one write a second, whatever the number of processes), so a
 * run killed with SIGKILL, or by the OOM killer, loses at most the last
 * second: what was written is in the kernel's page cache, which outlives the
 * process. Cell and run boundaries go out at once. fsync, which makes the file
 * survive the machine itself going down, runs every FSYNC_MS and at each
 * cell's end, off the event loop: on a shared disk one can take tens of ms.
 *
 * A fault (a full disk, a folder removed) is said once on stderr and ends the
 * journal; the run goes on and writes its result at the end as usual. A torn
 * write can then only be the journal's last line, which a reader ignores.
 */
import { closeSync, fsync, fsyncSync } from 'node:fs';
import { entryAt, openNew, removeIfSame, writeAll, type FileIdentity } from '../../shared/safe-files.js';
import { notOwnJournal } from './guard.js';
import type { RunEvent } from '../engine/events.js';
import type { CellRun } from '../engine/cell.js';
import { toolVersion } from '../../shared/package-version.js';
import { JOURNAL_VERSION, type JournalHeader, type JournalRecord } from './records.js';

const FLUSH_MS = 1000;
const FSYNC_MS = 5000;

/** What the header says beside what the writer knows itself. */
type JournalIdentity = Pick<JournalHeader, 'argv' | 'cwd' | 'out' | 'scenario' | 'plan'>;

export class RunJournal {
  private fd: number | null = null;
  /** The file this journal created: only it is ever removed. */
  private created: FileIdentity | null = null;
  private pending: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastSyncMs = 0;
  private syncing: Promise<void> | null = null;
  private broken = false;
  private opened = false;
  /** Whether anything a rebuild could use went in: a window opened or a cell ended. */
  private measured = false;
  private bytes = 0;

  /** `report`: where a fault is said (one line, once). */
  constructor(
    readonly path: string,
    private readonly identity: JournalIdentity,
    private readonly report: (line: string) => void,
  ) {}

  /** Bytes written so far. */
  get size(): number {
    return this.bytes;
  }

  /** run()'s listener: never throws into the engine. */
  readonly onEvent = (event: RunEvent): void => this.guarded(() => this.record(event));

  /**
   * The run's end: says where its result went and closes the file; removes it when the result was written
   * (`resultPath` not null) unless `keep`. Returns whether a journal is left on disk.
   */
  async finish(resultPath: string | null, keep: boolean): Promise<boolean> {
    this.guarded(() => this.append({ type: 'end', atMs: Date.now(), result: resultPath, by: 'run' }, true));
    await this.closeFile();
    if (!this.opened) return false;
    if (resultPath === null || keep) return true;
    this.removeOwn();
    return false;
  }

  /**
   * Closes the file without an end record (the run did not get to write its result): it stays for
   * `wsbench recover`, unless nothing was measured (a run refused after it started), when there is
   * nothing to recover and a journal left behind would only stand in the next run's way.
   */
  async close(): Promise<void> {
    const open = this.fd !== null;
    await this.closeFile();
    if (open && !this.measured) this.removeOwn();
  }

  /** Removes the journal if the file at its path is still the one it created. */
  private removeOwn(): void {
    try {
      if (this.created) removeIfSame(this.path, this.created);
    } catch {
      // Its folder is gone.
    }
  }

  private async closeFile(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.fd === null) return;
    this.guarded(() => this.flush());
    await this.syncing;
    const fd = this.fd;
    this.guarded(() => fsyncSync(fd));
    closeSync(fd);
    this.fd = null;
  }

  /** Runs a step of writing unless the journal has failed; a failure ends it, never the run. */
  private guarded(step: () => void): void {
    if (this.broken) return;
    try {
      step();
    } catch (error) {
      this.fail(error);
    }
  }

  private record(event: RunEvent): void {
    const atMs = Date.now();
    switch (event.type) {
      case 'run-start':
        this.open();
        this.append(
          {
            type: 'run-start',
            atMs,
            startedAt: event.startedAt ?? new Date(atMs).toISOString(),
            scenario: event.scenario,
            plan: event.plan ?? [],
            repeat: event.repeat,
            clientProcesses: event.clientProcesses ?? 1,
            environment: event.environment!,
            ...(event.shard ? { shard: event.shard } : {}),
            ...(event.warnings && event.warnings.length > 0 ? { warnings: event.warnings } : {}),
            ...(event.host !== undefined ? { host: event.host } : {}),
          },
          true,
        );
        return;
      case 'cell-start':
        return this.append(
          {
            type: 'cell-start',
            atMs,
            index: event.index,
            round: event.round,
            server: event.server,
            client: event.client,
            params: event.params,
            windowMs: event.windowMs ?? null,
          },
          true,
        );
      case 'window-open':
        this.measured = true;
        return this.append({ type: 'window-open', atMs, index: event.index }, true);
      case 'tick':
        if (event.progress)
          this.append(
            { type: 'tick', atMs, index: event.index, process: event.progress.process, ticks: event.progress.ticks },
            false,
          );
        return;
      case 'resources': {
        const { index, role, process, cpuPercent, cpuSeconds, rssBytes } = event;
        return this.append({ type: 'resources', atMs, index, role, process, cpuPercent, cpuSeconds, rssBytes }, false);
      }
      case 'cell-end':
        if (!event.outcome) return;
        this.measured = true;
        this.append(
          {
            type: 'cell-end',
            atMs,
            index: event.index,
            round: event.round,
            status: event.status,
            reason: event.reason,
            outcome: event.outcome as CellRun,
          },
          true,
        );
        return this.sync();
      case 'run-end':
        this.append({ type: 'run-end', atMs, interrupted: event.interrupted }, true);
        return this.sync();
    }
  }

  private open(): void {
    if (this.fd !== null) return;
    // A journal of an earlier run to this --out (finished, or discarded) is replaced, as its result file is;
    // anything else there is not ours (the guard refused it before the run: this is one put there since).
    const before = entryAt(this.path);
    const foreign = notOwnJournal(this.path);
    if (foreign !== null) throw new Error(`${foreign}; wsbench replaces only a journal of its own`);
    // The journal just judged, and no file put in its place since.
    if (before !== null) removeIfSame(this.path, before);
    // Created new, never through a symlink: one put at the name since fails the open (EEXIST).
    const { fd, identity } = openNew(this.path);
    this.fd = fd;
    this.created = identity;
    this.opened = true;
    const header: JournalHeader = {
      type: 'journal',
      version: JOURNAL_VERSION,
      tool: toolVersion(),
      pid: process.pid,
      ...this.identity,
    };
    this.pending.push(`${JSON.stringify(header)}\n`);
    this.timer = setInterval(() => this.guarded(() => this.flush()), FLUSH_MS);
    this.timer.unref();
  }

  private append(record: JournalRecord, now: boolean): void {
    if (this.fd === null) return;
    this.pending.push(`${JSON.stringify(record)}\n`);
    if (now) this.flush();
  }

  /** One append of everything waiting; every FSYNC_MS, an fsync after it. */
  private flush(): void {
    if (this.fd === null || this.pending.length === 0) return;
    const data = Buffer.from(this.pending.join(''));
    this.pending = [];
    // A write may take part of the buffer (a signal, a nearly full disk): the rest follows, or the fault ends the journal.
    writeAll(this.fd, data);
    this.bytes += data.length;
    if (Date.now() - this.lastSyncMs >= FSYNC_MS) this.sync();
  }

  private sync(): void {
    if (this.fd === null || this.syncing) return;
    this.lastSyncMs = Date.now();
    const fd = this.fd;
    this.syncing = new Promise((resolve) =>
      fsync(fd, (error) => {
        this.syncing = null;
        if (error) this.fail(error);
        resolve();
      }),
    );
  }

  private fail(error: unknown): void {
    if (this.broken) return;
    this.broken = true;
    this.pending = [];
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EEXIST'
        ? 'something was put at its name since the run was checked'
        : (code ?? (error as Error).message.split('\n')[0]);
    this.report(
      `journal: cannot write ${this.path} (${why}); the run goes on without it and writes its result at the end`,
    );
  }
}
