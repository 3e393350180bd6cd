/**
 * Reading bun test's output: tests passed and failed per file, and the names of the failed ones. test-all.ts
 * uses them for its summary and to run once more the browser test files that failed.
 *
 * @example
 * countsByFile(output); // Map { "e2e/a.e2e.test.ts" => { passed: 3, failed: 1 } }
 */
/** Tests passed and failed per test file, read from bun's output (each file's name heads its results). */
export function countsByFile(output: string): Map<string, { passed: number; failed: number }> {
  const counts = new Map<string, { passed: number; failed: number }>();
  let file = "";
  for (const line of output.split("\n")) {
    // bun lists the failures again at the end ("1 tests failed:"): counted once, under their files, already.
    if (/^\d+ tests? failed:$/.test(line)) break;
    const header = /^(\S+\.test\.tsx?):$/.exec(line);
    if (header) file = header[1]!;
    else if (file && /^\((pass|fail)\)/.test(line)) {
      const c = counts.get(file) ?? { passed: 0, failed: 0 };
      if (line.startsWith("(pass)")) c.passed++;
      else c.failed++;
      counts.set(file, c);
    }
  }
  return counts;
}

/** The failed tests' names, without their times (so a retry's list compares with the first run's). */
export const failuresIn = (output: string) => [...new Set([...output.matchAll(/^\(fail\) (.*?)(?: \[[\d.]+m?s\])?$/gm)].map((m) => m[1]!))];
