/**
 * What every provider's interactive terminal (`Sandbox.openTerminal`) must do, run inside the shared sandbox
 * contract (so against the local provider always, and E2B when a key is set): an interactive Python, Ctrl+C
 * as SIGINT, window sizes, exit codes, and hanging up without killing what was started with `&` or `nohup`.
 *
 * @example
 * const term = await openTestTerminal(sandbox);
 * term.type("echo hi\r");
 * await term.waitFor(/hi\r\n/);
 */
import { expect, test } from "bun:test";
import type { Sandbox, TerminalSession } from "../sandbox/types.ts";
import { waitFor } from "./sandbox-contract.ts";

const TEST_MS = 30_000;
/** The end of a shell prompt (whatever PS1 the provider sets). */
export const SHELL_PROMPT = /\$ $/;

export type TestTerminal = {
  session: TerminalSession;
  /** Everything printed since the last `clear()`, escape sequences included. */
  text(): string;
  clear(): void;
  type(keys: string): void;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** The shell's exit status once it ended (undefined before). */
  exited(): Promise<number | null>;
};

export async function openTestTerminal(sandbox: Sandbox, size = { cols: 80, rows: 24 }): Promise<TestTerminal> {
  let out = "";
  const decoder = new TextDecoder();
  let onExit!: (code: number | null) => void;
  const exit = new Promise<number | null>((resolve) => (onExit = resolve));
  const session = await sandbox.openTerminal({ ...size, onData: (d) => (out += decoder.decode(d, { stream: true })), onExit });
  const term: TestTerminal = {
    session,
    text: () => out,
    clear: () => void (out = ""),
    type: (keys) => session.write(new TextEncoder().encode(keys)),
    async waitFor(pattern, timeoutMs = 10_000) {
      try {
        await waitFor(String(pattern), async () => pattern.test(out), timeoutMs);
      } catch {
        throw new Error(`terminal never showed ${pattern}; it shows ${JSON.stringify(out.slice(-400))}`);
      }
    },
    exited: () => exit,
  };
  await term.waitFor(SHELL_PROMPT);
  return term;
}

export function terminalContract(sandbox: () => Sandbox): void {
  test(
    "terminal: an interactive python3 answers, and exit codes come back",
    async () => {
      const term = await openTestTerminal(sandbox());
      term.type("python3\r");
      await term.waitFor(/>>> $/);
      term.type("print(6*7)\r");
      await term.waitFor(/\r\n42\r\n>>> $/);
      term.type("exit()\r");
      await term.waitFor(SHELL_PROMPT);
      term.type("exit 3\r");
      expect(await term.exited()).toBe(3);
    },
    TEST_MS,
  );

  test(
    "terminal: Ctrl+C interrupts the foreground program (SIGINT), the prompt returns, the process is gone",
    async () => {
      const term = await openTestTerminal(sandbox());
      term.type("sleep 100\r");
      await term.waitFor(/sleep 100\r\n/);
      await Bun.sleep(300);
      term.clear();
      term.type("\x03");
      await term.waitFor(SHELL_PROMPT, 5_000);
      term.type("echo status=$?; pgrep -x sleep || echo no-sleep-left\r");
      await term.waitFor(/status=130\r\nno-sleep-left\r\n/);
      term.session.close();
    },
    TEST_MS,
  );

  test(
    "terminal: the window size reaches programs and follows a resize",
    async () => {
      const term = await openTestTerminal(sandbox(), { cols: 90, rows: 30 });
      term.type("stty size\r");
      await term.waitFor(/\r30 90\r\n/);
      term.session.resize(132, 43);
      term.type("stty size; echo TERM=$TERM\r");
      await term.waitFor(/\r43 132\r\nTERM=xterm-256color\r\n/);
      term.session.close();
    },
    TEST_MS,
  );

  test(
    "terminal: hanging up ends the foreground job but not what was started with & or nohup",
    async () => {
      const sbx = sandbox();
      await sbx.run("rm -f hup-bg.txt hup-nohup.txt hup-fg.txt");
      const term = await openTestTerminal(sbx);
      term.type("(sleep 2; echo alive > hup-bg.txt) &\r");
      await term.waitFor(/\[1\] \d+/);
      term.type("nohup sh -c 'sleep 2; echo alive > hup-nohup.txt' > /dev/null 2>&1 &\r");
      await term.waitFor(/\[2\] \d+/);
      term.type("sh -c 'sleep 2; echo ran > hup-fg.txt'\r");
      await Bun.sleep(300);
      term.session.close();
      await term.exited();
      await waitFor("the background jobs' files", async () => (await sbx.run("cat hup-bg.txt hup-nohup.txt")).exitCode === 0, 10_000);
      await Bun.sleep(1000);
      expect((await sbx.run("cat hup-bg.txt hup-nohup.txt; test -e hup-fg.txt && echo fg-survived")).stdout).toBe("alive\nalive\n");
    },
    TEST_MS,
  );
}
