/**
 * Small Vue 3 and Svelte 5 pages built with the real frameworks, for tests of what the preview adds to a
 * page: each is an index.html and one self-contained ES module (`app.js`) that a static server can serve from
 * a folder of its own. Each renders "<Name> clicked N times" on a button that counts, and a second button whose
 * click handler throws `<name> click failed`.
 *
 * @example
 * const { html, js } = await sveltePage();
 * // write html to public/svelte/index.html and js to public/svelte/app.js
 */
import { join } from "node:path";
import { compile } from "svelte/compiler";

export type FrameworkPage = { html: string; js: string };

const SVELTE_COMPONENT = `<script>
  let count = $state(0);
  function fail() {
    throw new Error("svelte click failed");
  }
</script>
<main>
  <h1>Svelte page</h1>
  <button onclick={() => count++}>Svelte clicked {count} times</button>
  <button onclick={fail}>Svelte fails</button>
</main>
`;

const SVELTE_ENTRY = `import { mount } from "svelte";
import App from "./framework-page.App.svelte.js";
mount(App, { target: document.getElementById("app") });
`;

const VUE_ENTRY = `import { createApp, h, ref } from "vue";
createApp({
  setup() {
    const count = ref(0);
    const fail = () => {
      throw new Error("vue click failed");
    };
    return () =>
      h("main", [
        h("h1", "Vue page"),
        h("button", { onClick: () => count.value++ }, "Vue clicked " + count.value + " times"),
        h("button", { onClick: fail }, "Vue fails"),
      ]);
  },
}).mount("#app");
`;

// Modules that exist only in memory, placed beside this file so their imports of "vue" and "svelte"
// resolve to the repository's node_modules.
const HERE = import.meta.dir;

async function bundle(sources: Record<string, string>, define: Record<string, string> = {}): Promise<string> {
  const out = await Bun.build({
    entrypoints: [join(HERE, "framework-page.entry.js")],
    files: Object.fromEntries(Object.entries(sources).map(([name, code]) => [join(HERE, name), code])),
    target: "browser",
    format: "esm",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"', ...define },
  });
  if (!out.success || out.outputs.length !== 1) throw new Error(`bundle failed: ${out.logs.join("\n")}`);
  return out.outputs[0]!.text();
}

const html = (title: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><script type="module" src="app.js"></script></head><body><div id="app"></div></body></html>`;

/** A Svelte 5 component compiled by svelte/compiler for the browser, mounted by the bundle. */
export async function sveltePage(): Promise<FrameworkPage> {
  const component = compile(SVELTE_COMPONENT, { generate: "client", filename: "App.svelte" }).js.code;
  const js = await bundle({ "framework-page.entry.js": SVELTE_ENTRY, "framework-page.App.svelte.js": component });
  return { html: html("Svelte page"), js };
}

/** A Vue 3 app (vue's ES module build for bundlers, production flags) with a ref counted by a click. */
export async function vuePage(): Promise<FrameworkPage> {
  const js = await bundle(
    { "framework-page.entry.js": VUE_ENTRY },
    { __VUE_OPTIONS_API__: "true", __VUE_PROD_DEVTOOLS__: "false", __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false" },
  );
  return { html: html("Vue page"), js };
}
