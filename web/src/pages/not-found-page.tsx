/** Any path the router does not know: the 404 card, with a way back. */
import { Link } from "wouter";
import { buttonClasses } from "../components/ui/button";

export function NotFoundPage() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-md rounded-lg border bg-card p-6">
        <h1 className="text-2xl font-bold">404 Page Not Found</h1>
        <p className="mt-4 text-sm text-muted-foreground">Did you forget to add the page to the router?</p>
        <Link href="/" className={buttonClasses("outline", "sm", "mt-6")}>
          Go to the home page
        </Link>
      </div>
    </main>
  );
}
