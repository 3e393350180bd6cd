/** The landing footer: brand, section links and the current year. */
import { BrandMark } from "../../components/ui/icons";
import { landingSections } from "./landing-sections";

export function LandingFooter() {
  return (
    <footer className="border-t">
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-6 px-4 py-10 sm:px-6 md:flex-row md:justify-between">
        <div className="flex items-center gap-2 font-semibold">
          <BrandMark className="size-7" />
          App Builder
        </div>
        <nav aria-label="Footer" className="flex flex-wrap justify-center gap-x-5 gap-y-2 text-sm text-muted-foreground">
          {landingSections.map((section) => (
            <a
              key={section.id}
              href={`#${section.id}`}
              className="rounded hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {section.label}
            </a>
          ))}
        </nav>
        <p className="text-sm text-muted-foreground" data-testid="copyright">
          © {new Date().getFullYear()} App Builder. Open source.
        </p>
      </div>
    </footer>
  );
}
