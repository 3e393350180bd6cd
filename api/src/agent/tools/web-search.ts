/**
 * web_search: offered only when a search backend is configured. Implemented for SearXNG's JSON API
 * (`GET <url>/search?q=…&format=json`; the instance must have the json format enabled in settings.yml).
 */
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";

const MAX_RESULTS = 6;
const TIMEOUT_MS = 15_000;

const searxngResponse = z.object({
  results: z.array(z.object({ title: z.string().optional(), url: z.string().optional(), content: z.string().optional() }).loose()).default([]),
  answers: z.array(z.unknown()).optional(),
});

export const webSearchTool = defineTool({
  name: "web_search",
  description: "Search the web (documentation, error messages, library versions). Returns titles, URLs and snippets.",
  input: z.object({ query: z.string().trim().min(1, "query must not be empty").max(400) }),
  summary: (input) => input.query,
  available: (config) => config.search.kind !== "none",
  async run(input, ctx) {
    if (ctx.search.kind !== "searxng") throw new ToolError("Web search is not configured on this server.");
    const url = new URL("search", ctx.search.url.endsWith("/") ? ctx.search.url : `${ctx.search.url}/`);
    url.searchParams.set("q", input.query);
    url.searchParams.set("format", "json");
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(TIMEOUT_MS)]);
    let res: Response;
    try {
      res = await ctx.fetch(url, { headers: { accept: "application/json" }, signal });
    } catch (error) {
      throw new ToolError(`The search service could not be reached (${error instanceof Error ? error.message : String(error)}).`);
    }
    if (!res.ok) {
      const hint = res.status === 403 ? " (is the json format enabled in the SearXNG settings?)" : "";
      throw new ToolError(`The search service answered HTTP ${res.status}${hint}.`);
    }
    const parsed = searxngResponse.safeParse(await res.json().catch(() => null));
    if (!parsed.success) throw new ToolError("The search service answered something that is not SearXNG JSON.");
    const results = parsed.data.results.filter((r) => r.url).slice(0, MAX_RESULTS);
    if (results.length === 0) return { result: `No results for "${input.query}".` };
    const lines = results.map((r, i) => `${i + 1}. ${r.title?.trim() || r.url}\n   ${r.url}${r.content ? `\n   ${r.content.trim().slice(0, 300)}` : ""}`);
    return { result: `Results for "${input.query}":\n${lines.join("\n")}`, summary: `${input.query} (${results.length} results)` };
  },
});
