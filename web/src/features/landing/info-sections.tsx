/** Landing sections for a visitor deciding to try it: Docs (four steps), About, and Security and privacy. */
import type { ReactNode } from "react";
import { Link } from "wouter";
import { buttonClasses } from "../../components/ui/button";
import { ChatIcon, KeyIcon, LockIcon, LogInIcon, PlusIcon, RocketIcon, ServerIcon, ShieldIcon, BoxIcon } from "../../components/ui/icons";
import { Section } from "./section";

const STEPS: Array<{ icon: ReactNode; title: string; text: string }> = [
  {
    icon: <LogInIcon />,
    title: "Sign in",
    text: "Continue with your Google account. There is no separate password to create or remember.",
  },
  {
    icon: <PlusIcon />,
    title: "Create a project",
    text: "Choose New Project, give it a name and, if you like, a short description. It gets its own sandbox.",
  },
  {
    icon: <ChatIcon />,
    title: "Chat with AI",
    text: "Describe the app in Agent Chat. Ask for changes the way you would ask a colleague; attach images to show what you mean.",
  },
  {
    icon: <RocketIcon />,
    title: "Preview and deploy",
    text: "Try the running app in Preview. When it is ready, download the source and deploy it wherever you host apps.",
  },
];

export function DocsSection() {
  return (
    <Section
      id="docs"
      eyebrow="Docs"
      title="From sign-in to a running app in four steps"
      intro="No installation and no setup: everything runs in your browser and in the project's sandbox."
    >
      <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {STEPS.map((step, index) => (
          <li key={step.title} className="relative rounded-xl border bg-card p-6">
            <div className="flex items-center gap-3">
              <span className="inline-flex size-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
                {index + 1}
              </span>
              <span className="text-primary">{step.icon}</span>
            </div>
            <h3 className="mt-4 font-semibold">{step.title}</h3>
            <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{step.text}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}

export function AboutSection() {
  return (
    <Section id="about" eyebrow="About" title="Built for people with ideas, whether or not they write code" className="border-y bg-muted/30">
      <div className="mx-auto grid max-w-4xl gap-8 text-muted-foreground md:grid-cols-2">
        <p className="leading-relaxed">
          App Builder is an open-source AI app builder. Non-developers use it to turn an idea into a working app by describing it; developers use it to skip the
          boilerplate and get to the interesting part faster.
        </p>
        <p className="leading-relaxed">
          Nothing is hidden behind the chat. Every change the agent makes is a file you can read and edit, every command it runs can be repeated in the
          terminal, and the whole project can be downloaded at any time.
        </p>
      </div>
    </Section>
  );
}

const SAFEGUARDS: Array<{ icon: ReactNode; title: string; text: string }> = [
  {
    icon: <KeyIcon />,
    title: "Google sign-in",
    text: "You sign in with Google, so App Builder never sees or stores a password.",
  },
  {
    icon: <LockIcon />,
    title: "Private projects",
    text: "Every request carries your signed-in identity, and projects, files and chats are only served to their owner.",
  },
  {
    icon: <BoxIcon />,
    title: "Isolated execution",
    text: "Generated code runs in the project's own sandbox, never in your browser session or on your computer.",
  },
  {
    icon: <ServerIcon />,
    title: "Your infrastructure, if you want it",
    text: "Self-host App Builder to keep code, files and conversations on servers and storage you control.",
  },
];

export function SecuritySection() {
  return (
    <Section id="security" eyebrow="Security" title="Security and privacy" intro="Your projects are your own. Here is how App Builder keeps them that way.">
      <ul className="grid gap-4 sm:grid-cols-2">
        {SAFEGUARDS.map((item) => (
          <li key={item.title} className="flex gap-4 rounded-xl border bg-card p-6">
            <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">{item.icon}</span>
            <div>
              <h3 className="font-semibold">{item.title}</h3>
              <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{item.text}</p>
            </div>
          </li>
        ))}
      </ul>
      <div className="mt-16 flex flex-col items-center gap-4 rounded-2xl border bg-card px-6 py-10 text-center">
        <ShieldIcon className="size-6 text-primary" />
        <p className="text-2xl font-semibold tracking-tight">Ready to build something?</p>
        <Link href="/login" className={buttonClasses("primary", "lg")}>
          Get Started Free
        </Link>
      </div>
    </Section>
  );
}
