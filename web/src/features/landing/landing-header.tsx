/**
 * The landing page's sticky header: brand, the section links (in a slide-out menu below 768 px), the theme
 * toggle and Get Started.
 */
import { useRef, useState } from "react";
import { Link } from "wouter";
import { buttonClasses } from "../../components/ui/button";
import { BrandMark, MenuIcon } from "../../components/ui/icons";
import { Sheet } from "../../components/ui/sheet";
import { ThemeToggle } from "../../components/ui/theme-toggle";
import { landingSections, scrollToSection } from "./landing-sections";

const NAV_LINK =
  "rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground " +
  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

export function LandingHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  // The menu locks page scrolling while open, so a chosen section is scrolled to once it has closed.
  const pendingSection = useRef<string | null>(null);

  return (
    <header className="sticky top-0 z-40 border-b bg-background/80 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6">
        <a href="#top" className="flex items-center gap-2 rounded-md font-semibold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <BrandMark />
          <span>App Builder</span>
        </a>
        <nav aria-label="Sections" className="ml-6 hidden items-center md:flex">
          {landingSections.map((section) => (
            <a key={section.id} href={`#${section.id}`} className={NAV_LINK}>
              {section.label}
            </a>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <ThemeToggle />
          <Link href="/login" className={buttonClasses("primary", "sm")}>
            Get Started
          </Link>
          <button
            type="button"
            onClick={() => setMenuOpen(true)}
            aria-label="Open menu"
            aria-expanded={menuOpen}
            className="inline-flex size-9 items-center justify-center rounded-md hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:hidden"
          >
            <MenuIcon className="size-5" />
          </button>
        </div>
      </div>

      <Sheet
        open={menuOpen}
        onClose={() => setMenuOpen(false)}
        side="right"
        title="Menu"
        afterLeave={() => {
          if (pendingSection.current) scrollToSection(pendingSection.current);
          pendingSection.current = null;
        }}
      >
        <nav aria-label="Sections" className="flex flex-col gap-1 px-3 py-2">
          {landingSections.map((section) => (
            <a
              key={section.id}
              href={`#${section.id}`}
              className="rounded-md px-3 py-2.5 text-base font-medium hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              onClick={(event) => {
                event.preventDefault();
                pendingSection.current = section.id;
                setMenuOpen(false);
              }}
            >
              {section.label}
            </a>
          ))}
        </nav>
        <div className="mt-auto border-t p-4">
          <Link href="/login" className={buttonClasses("primary", "md", "w-full")}>
            Get Started
          </Link>
        </div>
      </Sheet>
    </header>
  );
}
