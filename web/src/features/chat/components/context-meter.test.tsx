import { describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { ContextMeter } from "./context-meter";

const meter = (contextTokens: number) =>
  renderToStaticMarkup(<ContextMeter context={{ model: "qwen2.5-coder:7b", usedTokens: 1_000, contextTokens }} budget={null} />);

describe("the context meter", () => {
  test("under a 16k window it warns, naming the setting to raise; at 32k it does not", () => {
    expect(meter(8_192)).toContain('data-testid="small-window-warning"');
    expect(meter(8_192)).toContain("MODEL_CONTEXT_TOKENS");
    expect(meter(32_768)).not.toContain("small-window-warning");
  });
});
