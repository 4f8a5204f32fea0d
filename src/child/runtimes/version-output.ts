/**
 * What `<binary> --version` prints, within a deadline. The binary may be anything a user named (a wrapper
 * script, a browser that starts helpers): it runs in a process group of its own, and that whole group is
 * killed once it has answered, once the deadline passes, and if wsbench leaves first. Killing only the
 * binary would leave what it started (a script's `sleep`) to PID 1.
 */
import { spawn } from 'node:child_process';

/** The most of its output kept: a version is one line. */
const OUTPUT_LIMIT_BYTES = 64 * 1024;
/** How long its pipes may stay open once the deadline passed and its group was killed. */
const PIPE_GRACE_MS = 2000;

/** Its stdout when it exits 0 within `timeoutMs`; else rejects with why, in words ("did not answer within 15 s"). */
export function versionOutput(path: string, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, ['--version'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    /** Set once it exited or ran out of time: null when it answered. */
    let outcome: Error | null | undefined;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const timers: NodeJS.Timeout[] = [];
    const settle = (error: Error | null | undefined): void => {
      for (const timer of timers) clearTimeout(timer);
      killGroup();
      process.off('exit', killGroup);
      if (error === null) resolve(stdout);
      else reject(error ?? new Error('ended without a word'));
    };
    process.on('exit', killGroup);
    timers.push(
      setTimeout(() => {
        outcome ??= new Error(`did not answer within ${timeoutMs / 1000} s`);
        killGroup();
        // Something that left the group (setsid) may hold its pipes open: the deadline is the deadline.
        timers.push(
          setTimeout(() => {
            child.stdout.destroy();
            child.stderr.destroy();
            settle(outcome);
          }, PIPE_GRACE_MS),
        );
      }, timeoutMs),
    );
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < OUTPUT_LIMIT_BYTES) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-OUTPUT_LIMIT_BYTES);
    });
    child.once('error', (error) => settle(error));
    // Once it has exited, what it started goes too: then the pipes close, with all it printed read.
    child.once('exit', (code, signal) => {
      killGroup();
      const said = lastLine(stderr) ? `: ${lastLine(stderr)}` : '';
      outcome ??=
        code === 0 ? null : new Error(`${signal ? `was killed by ${signal}` : `exited with code ${code}`}${said}`);
    });
    child.once('close', () => settle(outcome));
  });
}

function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .at(-1) ?? ''
  ).slice(0, 200);
}
