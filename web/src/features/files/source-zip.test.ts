import { expect, test } from "bun:test";
import JSZip from "jszip";
import { buildSourceZip, sourceZipName } from "./source-zip";

test("the zip is named after the project", () => {
  expect(sourceZipName("My App")).toBe("My App-source.zip");
});

test("text entries keep their content; binary entries are restored from base64", async () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
  const bytes = await buildSourceZip({
    projectName: "demo",
    filesCount: 3,
    files: {
      "src/App.tsx": "export const App = () => <h1>Hi ✓</h1>;\n",
      "README.md": "# Demo\n",
      "public/logo.png": Buffer.from(png).toString("base64"),
    },
    binary: ["public/logo.png"],
  });
  const zip = await JSZip.loadAsync(bytes);
  const names = Object.values(zip.files)
    .filter((f) => !f.dir)
    .map((f) => f.name)
    .sort();
  expect(names).toEqual(["README.md", "public/logo.png", "src/App.tsx"]);
  expect(await zip.file("src/App.tsx")!.async("string")).toBe("export const App = () => <h1>Hi ✓</h1>;\n");
  expect(await zip.file("README.md")!.async("string")).toBe("# Demo\n");
  expect(await zip.file("public/logo.png")!.async("uint8array")).toEqual(png);
});

test("an empty project gives an empty zip", async () => {
  const zip = await JSZip.loadAsync(await buildSourceZip({ projectName: "x", filesCount: 0, files: {} }));
  expect(Object.keys(zip.files)).toEqual([]);
});
