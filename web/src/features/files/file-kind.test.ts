import { expect, test } from "bun:test";
import { editorLanguage, fileExtension, fileKind } from "./file-kind";

test("the extension is the last one of the file name, lower-cased", () => {
  expect(fileExtension("src/App.tsx")).toBe("tsx");
  expect(fileExtension("README.MD")).toBe("md");
  expect(fileExtension("archive.tar.gz")).toBe("gz");
  expect(fileExtension("Makefile")).toBe("");
  expect(fileExtension(".env")).toBe("");
  expect(fileExtension("config.d/settings")).toBe("");
  expect(fileExtension("trailing.")).toBe("");
});

test("editor language by extension, for each extension the editor highlights", () => {
  const cases: Record<string, string> = {
    "a.js": "javascript",
    "a.jsx": "javascript",
    "a.ts": "typescript",
    "src/App.tsx": "typescript",
    "main.py": "python",
    "index.html": "html",
    "style.css": "css",
    "package.json": "json",
    "README.md": "markdown",
    "ci.yaml": "yaml",
    "ci.yml": "yaml",
    "pom.xml": "xml",
    "run.sh": "shell",
    "run.bash": "shell",
    "INDEX.HTML": "html",
  };
  for (const [path, language] of Object.entries(cases)) expect([path, editorLanguage(path)]).toEqual([path, language]);
});

test("anything else is plaintext", () => {
  for (const path of ["notes.txt", "Makefile", "a.rs", "image.png", ".gitignore", "x.htm", "lib.mjs"]) {
    expect(editorLanguage(path)).toBe("plaintext");
  }
});

test("icon kinds group extensions", () => {
  expect(fileKind("src/main.ts")).toBe("code");
  expect(fileKind("index.html")).toBe("markup");
  expect(fileKind("a.css")).toBe("style");
  expect(fileKind("package.json")).toBe("data");
  expect(fileKind("README.md")).toBe("text");
  expect(fileKind("logo.PNG")).toBe("image");
  expect(fileKind("dist.zip")).toBe("archive");
  expect(fileKind("Makefile")).toBe("other");
});
