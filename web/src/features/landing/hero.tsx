/**
 * The landing hero: what the product is in one line, the prompt box to start from (kept through sign-in),
 * the two calls to action, and a sketch of a session.
 */
import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { buttonClasses } from "../../components/ui/button";
import { ArrowRightIcon, CheckIcon, FileCodeIcon, TerminalIcon } from "../../components/ui/icons";
import { savePendingStart } from "../start/pending-start";
import { StartPrompt } from "../start/start-prompt";
import { scrollToSection } from "./landing-sections";

export function Hero() {
  const [, navigate] = useLocation();
  // Signed out: the prompt and its images wait in the browser while the visitor signs in; the project list
  // starts them once signed in.
  const startAfterSignIn = async (start: { prompt: string; images: File[] }) => {
    await savePendingStart(start);
    navigate("/login?then=start");
    return true;
  };
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <div aria-hidden className="pointer-events-none absolute inset-x-0 -top-40 mx-auto h-96 max-w-3xl rounded-full bg-primary/20 blur-3xl" />
      <div className="relative mx-auto max-w-6xl px-4 pt-20 pb-16 text-center sm:px-6 sm:pt-28">
        <p className="mx-auto inline-flex items-center gap-2 rounded-full border bg-card px-3 py-1 text-xs font-medium text-muted-foreground">
          <span className="size-1.5 rounded-full bg-primary" aria-hidden />
          Open source · Self-hostable
        </p>
        <h1 id="hero-title" className="mx-auto mt-6 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-6xl">
          Describe the app you want. Watch it get built.
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">
          App Builder pairs you with an AI agent that writes the code, runs it in an isolated sandbox and shows you a live preview as it works. Every file stays
          yours to read, edit and download.
        </p>
        <StartPrompt onStart={startAfterSignIn} busy={false} className="mt-10" />
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Link href="/login" className={buttonClasses("primary", "lg", "w-full sm:w-auto")}>
            Get Started Free
            <ArrowRightIcon />
          </Link>
          <a
            href="#features"
            className={buttonClasses("outline", "lg", "w-full sm:w-auto")}
            onClick={(event) => {
              event.preventDefault();
              scrollToSection("features");
            }}
          >
            Learn More
          </a>
        </div>
        <SessionSketch />
      </div>
    </section>
  );
}

/** A drawing of a session (chat on the left, the running app on the right), made of markup, not an image. */
function SessionSketch() {
  return (
    <figure className="mx-auto mt-16 max-w-4xl text-left" aria-label="An example session: chat with the agent beside the live preview">
      <div className="overflow-hidden rounded-xl border bg-card shadow-2xl shadow-primary/10">
        <div className="flex items-center gap-1.5 border-b px-4 py-3" aria-hidden>
          <span className="size-2.5 rounded-full bg-red-400/80" />
          <span className="size-2.5 rounded-full bg-amber-400/80" />
          <span className="size-2.5 rounded-full bg-emerald-400/80" />
          <span className="ml-3 truncate text-xs text-muted-foreground">habit-tracker · Agent Chat</span>
        </div>
        <div className="grid md:grid-cols-2">
          <div className="space-y-3 p-4 sm:p-5">
            <p className="ml-auto w-fit max-w-[85%] rounded-lg bg-primary px-3 py-2 text-sm text-primary-foreground">
              Build a habit tracker with a weekly grid and streak counts.
            </p>
            <div className="max-w-[90%] space-y-2 rounded-lg bg-muted px-3 py-2 text-sm">
              <p>Starting from the React + Vite template, then adding the grid and local storage.</p>
              <ToolLine icon={<FileCodeIcon />} text="write_file src/HabitGrid.tsx" />
              <ToolLine icon={<FileCodeIcon />} text="edit_file src/App.tsx" />
              <ToolLine icon={<TerminalIcon />} text="run_shell npm run dev" />
            </div>
          </div>
          <div className="border-t p-4 sm:p-5 md:border-t-0 md:border-l" aria-hidden>
            <div className="rounded-lg border bg-background p-4">
              <p className="text-sm font-semibold">This week</p>
              <div className="mt-3 space-y-2">
                {["Read 20 pages", "Morning run", "No sugar"].map((habit, row) => (
                  <div key={habit} className="flex items-center gap-3">
                    <span className="w-24 truncate text-xs text-muted-foreground">{habit}</span>
                    <div className="flex gap-1">
                      {Array.from({ length: 7 }, (_, day) => (
                        <span key={day} className={(day + row) % 3 === 0 ? "size-4 rounded bg-muted" : "size-4 rounded bg-primary/80"} />
                      ))}
                    </div>
                  </div>
                ))}
              </div>
              <p className="mt-4 text-xs text-muted-foreground">Longest streak: 5 days</p>
            </div>
          </div>
        </div>
      </div>
    </figure>
  );
}

function ToolLine({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <p className="flex items-center gap-2 font-mono text-xs text-muted-foreground">
      {icon}
      <span className="truncate">{text}</span>
      <CheckIcon className="ml-auto text-emerald-500" />
    </p>
  );
}
