/**
 * Light/dark theme: dark by default, the choice kept in localStorage under "theme".
 * index.html applies it before first paint; this module changes it afterwards.
 */
import { createStore, useStore } from "./create-store";

export type Theme = "light" | "dark";

const STORAGE_KEY = "theme";
/** Starts from the root class index.html set before this module loaded; dark where there is no page. */
const theme = createStore<Theme>(typeof document === "undefined" ? "dark" : document.documentElement.classList.contains("dark") ? "dark" : "light");

export function setTheme(next: Theme): void {
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Private mode or storage disabled: the theme still applies for this page.
  }
  const root = document.documentElement;
  root.classList.toggle("dark", next === "dark");
  root.style.colorScheme = next;
  theme.set(next);
}

export function toggleTheme(): void {
  setTheme(theme.get() === "dark" ? "light" : "dark");
}

/** The theme in force, re-rendering when it changes. */
export function useTheme(): Theme {
  return useStore(theme, (current) => current, "dark");
}
