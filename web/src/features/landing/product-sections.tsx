/** Landing sections about the product itself: Features (the four views and the platform) and Capabilities (the agent). */
import type { ReactNode } from "react";
import {
  BoxIcon,
  BrainIcon,
  ChatIcon,
  CodeIcon,
  FileCodeIcon,
  GlobeIcon,
  ImageIcon,
  LayersIcon,
  MonitorIcon,
  ServerIcon,
  TerminalIcon,
} from "../../components/ui/icons";
import { Section } from "./section";

const FEATURES: Array<{ icon: ReactNode; title: string; text: string }> = [
  {
    icon: <ChatIcon className="size-5" />,
    title: "Agent Chat",
    text: "Say what you want in plain language and the agent plans the work, writes the code and tells you what it changed. Attach up to five screenshots or mock-ups to a message.",
  },
  {
    icon: <MonitorIcon className="size-5" />,
    title: "Live preview",
    text: "Your app runs while it is being built. See each change in the preview, go full screen, open it in a new tab or copy its address to share.",
  },
  {
    icon: <FileCodeIcon className="size-5" />,
    title: "Files",
    text: "Every file the agent writes is kept with your project. Search, edit in a full code editor, rename, delete, or download the whole project as a ZIP.",
  },
  {
    icon: <TerminalIcon className="size-5" />,
    title: "Terminal",
    text: "A real shell inside the project's sandbox: install packages, run scripts and read the output, just as you would on your own machine.",
  },
  {
    icon: <BoxIcon className="size-5" />,
    title: "Isolated sandboxes",
    text: "Each project gets its own sandbox, so one project's dependencies, processes and experiments never touch another's, or your computer.",
  },
  {
    icon: <ServerIcon className="size-5" />,
    title: "Self-hostable",
    text: "Run the whole product on your own server: one process serves the app and its API, with your own database and object storage.",
  },
];

export function FeaturesSection() {
  return (
    <Section
      id="features"
      eyebrow="Features"
      title="Everything you need to go from idea to running app"
      intro="Four views of one project (Agent Chat, Files, Preview and Terminal) on a platform built to keep your work separate and your own."
    >
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map((feature) => (
          <li key={feature.title} className="rounded-xl border bg-card p-6">
            <span className="inline-flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">{feature.icon}</span>
            <h3 className="mt-4 font-semibold">{feature.title}</h3>
            <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{feature.text}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

const CAPABILITIES: Array<{ icon: ReactNode; title: string; text: string }> = [
  {
    icon: <FileCodeIcon />,
    title: "Creates and edits files",
    text: "Writes new files and makes targeted edits to existing ones, across as many files as the change needs.",
  },
  {
    icon: <TerminalIcon />,
    title: "Runs shell commands",
    text: "Installs dependencies, starts dev servers and runs builds in the project's sandbox.",
  },
  {
    icon: <CodeIcon />,
    title: "Runs code",
    text: "Executes Python, JavaScript and TypeScript to check an idea or crunch data before it writes the app.",
  },
  {
    icon: <GlobeIcon />,
    title: "Searches the web",
    text: "Looks up current documentation and examples when it needs them.",
  },
  {
    icon: <LayersIcon />,
    title: "Starts from templates",
    text: "Sets up React, Vite or Node.js boilerplate in seconds, so the first message is about your app, not configuration.",
  },
  {
    icon: <ImageIcon />,
    title: "Understands images",
    text: "Reads the screenshots and sketches you attach and builds towards them.",
  },
];

export function CapabilitiesSection() {
  return (
    <Section
      id="capabilities"
      eyebrow="Capabilities"
      title="An agent that does the work, and shows it"
      intro="Each step the agent takes appears in the chat as it happens: which file it wrote, which command it ran, and whether it finished."
      className="border-y bg-muted/30"
    >
      <div className="grid gap-10 lg:grid-cols-5 lg:items-start">
        <ul className="grid gap-6 sm:grid-cols-2 lg:col-span-3">
          {CAPABILITIES.map((capability) => (
            <li key={capability.title} className="flex gap-3">
              <span className="mt-0.5 inline-flex size-8 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">{capability.icon}</span>
              <div>
                <h3 className="font-semibold">{capability.title}</h3>
                <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{capability.text}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className="rounded-xl border bg-card p-6 lg:col-span-2">
          <span className="inline-flex size-8 items-center justify-center rounded-md bg-primary/10 text-primary">
            <BrainIcon />
          </span>
          <h3 className="mt-3 font-semibold">Extended thinking, when you want it</h3>
          <p className="mt-2 text-sm leading-relaxed text-muted-foreground">
            Turn on reasoning for a hard problem and the agent thinks it through first. Its thinking is shown in its own section, so you can follow how it
            reached a plan.
          </p>
          <p className="mt-4 text-sm leading-relaxed text-muted-foreground">
            Leave the tab while it works: the project keeps going, and the finished result is waiting when you come back.
          </p>
        </div>
      </div>
    </Section>
  );
}
