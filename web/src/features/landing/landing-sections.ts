/** The landing page's sections, in page order: the header links and the footer point at these anchors. */
export const landingSections = [
  { id: "features", label: "Features" },
  { id: "capabilities", label: "Capabilities" },
  { id: "docs", label: "Docs" },
  { id: "about", label: "About" },
  { id: "security", label: "Security" },
] as const;

/** Scrolls to a section and records it in the address bar, as following the anchor would. */
export function scrollToSection(id: string): void {
  const target = document.getElementById(id);
  if (!target) return;
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
  history.replaceState(history.state, "", `#${id}`);
}
