import { expect, test } from "bun:test";
import { countsByFile, failuresIn } from "./test-counts";

const OUTPUT = `bun test v1.4.5

e2e/a.e2e.test.ts:
(pass) a > one [10.00ms]
(fail) a > two [20.00ms]
(pass) a > three

e2e/b.e2e.test.ts:
(pass) b > one
(fail) (unnamed) [1.00ms]

2 tests failed:
(fail) a > two [20.00ms]
(fail) (unnamed) [1.00ms]

 3 pass
 2 fail
`;

test("counts each file's passes and failures under its header, and names the failed tests", () => {
  expect(countsByFile(OUTPUT)).toEqual(
    new Map([
      ["e2e/a.e2e.test.ts", { passed: 2, failed: 1 }],
      ["e2e/b.e2e.test.ts", { passed: 1, failed: 1 }],
    ]),
  );
  expect(failuresIn(OUTPUT)).toEqual(["a > two", "(unnamed)"]);
});
