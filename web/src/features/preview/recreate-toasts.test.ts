import { expect, test } from "bun:test";
import type { ToastInput } from "../../components/ui/use-toast";
import { showRecreateToasts } from "./recreate-toasts";

function run(result: Parameters<typeof showRecreateToasts>[0]) {
  const shown: Array<{ at: number; toast: ToastInput }> = [];
  const pending: Array<{ at: number; run: () => void }> = [];
  let now = 0;
  showRecreateToasts(
    result,
    (toast) => shown.push({ at: now, toast }),
    (fn, ms) => pending.push({ at: now + ms, run: fn }),
  );
  for (const next of pending.sort((a, b) => a.at - b.at)) {
    now = next.at;
    next.run();
  }
  return shown.map(({ at, toast }) => [at, toast.title, toast.description]);
}

test("without a workflow: 'Sandbox recreated' with the file count, then 'App is starting' 1 s later", () => {
  expect(run({ url: "u", filesSynced: 4, workflowCommand: null })).toEqual([
    [0, "Sandbox recreated", "New sandbox created with 4 files synced"],
    [1000, "App is starting", "The new sandbox is starting up. Refresh the preview if it stays empty."],
  ]);
});

test("with a workflow: the command at once, then 'App is starting' with the advice to refresh 1 s later", () => {
  expect(run({ url: "u", filesSynced: 12, workflowCommand: "npm run dev" })).toEqual([
    [0, "Running workflow", "npm run dev"],
    [1000, "App is starting", "Refresh the preview 2-3 times if the app doesn't show up right away."],
  ]);
});

test("an empty project still says how many files were synced", () => {
  expect(run({ url: "u", filesSynced: 0, workflowCommand: null })[0]?.[2]).toBe("New sandbox created with 0 files synced");
});
