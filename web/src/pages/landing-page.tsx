/** `/` placeholder: the full landing page (features, docs, about, security) comes in a later issue. */
import { Link } from "wouter";
import { buttonClasses } from "../components/ui/button";
import { ThemeToggle } from "../components/ui/theme-toggle";

export function LandingPage() {
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-40 border-b bg-background/80 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4">
          <span className="font-semibold">App Builder</span>
          <div className="ml-auto flex items-center gap-2">
            <ThemeToggle />
            <Link href="/login" className={buttonClasses("primary", "sm")}>
              Get Started
            </Link>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-24 text-center">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Build apps by describing them</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          Chat with an AI agent that writes the code, runs it in a sandbox and shows you a live preview.
        </p>
      </main>
      <footer className="border-t py-6 text-center text-sm text-muted-foreground">
        © {new Date().getFullYear()} App Builder
      </footer>
    </div>
  );
}
