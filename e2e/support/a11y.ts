/** A check run on every screen: each visible control a keyboard can reach has an accessible name. */
import type { Page } from "playwright-core";

/** Describes the visible links, buttons and fields with no name (text, aria-label(ledby), label or title). */
export function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = "a[href], button, input, textarea, select, [tabindex]:not([tabindex='-1']), [role='button']";
    const named = (el: Element): boolean => {
      if (el.getAttribute("aria-label")?.trim()) return true;
      const labelledBy = el.getAttribute("aria-labelledby");
      if (labelledBy && labelledBy.split(/\s+/).some((id) => document.getElementById(id)?.textContent?.trim())) return true;
      if (el.getAttribute("title")?.trim()) return true;
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
        if (el.labels && [...el.labels].some((l) => l.textContent?.trim())) return true;
        return Boolean(el.getAttribute("placeholder")?.trim());
      }
      return Boolean((el as HTMLElement).innerText?.trim() || el.querySelector("img[alt]:not([alt=''])"));
    };
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
    };
    return [...document.querySelectorAll(selector)].filter((el) => visible(el) && !named(el)).map((el) => el.outerHTML.slice(0, 160));
  });
}
