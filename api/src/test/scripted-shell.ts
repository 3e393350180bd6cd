import type { ProjectSandbox } from "../agent/ports";

/**
 * A sandbox whose commands change the workspace's files as the scripted `effects` say, each keyed by text
 * the command contains (a stand-in for `sed -i`, `cat >`, `npm install`: changes the run sees only through
 * the command).
 */
export function scriptedShell(fileMap: Map<string, string>, effects: Record<string, (files: Map<string, string>) => void>): ProjectSandbox {
  return {
    run: async (command) => {
      for (const [text, effect] of Object.entries(effects)) if (command.includes(text)) effect(fileMap);
      return { exitCode: 0, stdout: "", stderr: "", timedOut: false, truncated: false };
    },
    start: async () => {},
    applyTemplate: async () => {
      throw new Error("no templates in this test");
    },
  };
}
