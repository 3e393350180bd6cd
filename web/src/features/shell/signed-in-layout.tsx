/**
 * The layout of signed-in screens: a collapsible sidebar (16rem, 3rem as icons; an 18rem sheet below
 * 768 px), a header with the sidebar toggle and the theme toggle, the page, and inside a project on mobile a
 * bottom bar with the five views.
 */
import { type ReactNode, Suspense, useEffect } from "react";
import { Link, useLocation } from "wouter";
import { projectViewLabels } from "../projects/project-views";
import { useProject } from "../projects/use-project";
import { cn } from "../../lib/cn";
import { ChevronRightIcon, PanelLeftIcon } from "../../components/ui/icons";
import { Sheet } from "../../components/ui/sheet";
import { Spinner } from "../../components/ui/spinner";
import { ThemeToggle } from "../../components/ui/theme-toggle";
import { Tooltip } from "../../components/ui/tooltip";
import { AppSidebarContent } from "./app-sidebar";
import { MobileBottomBar } from "./mobile-bottom-bar";
import { type ProjectLocation, useProjectLocation } from "./project-location";
import { useFollowAccess } from "../team/use-follow-access";
import { SidebarProvider } from "./sidebar-provider";
import { useSidebar } from "./sidebar-state";

export function SignedInLayout({ children }: { children: ReactNode }) {
  return (
    <SidebarProvider>
      <LayoutFrame>{children}</LayoutFrame>
    </SidebarProvider>
  );
}

function LayoutFrame({ children }: { children: ReactNode }) {
  const { open, openMobile, setOpenMobile } = useSidebar();
  const project = useProjectLocation();
  const [location] = useLocation();
  // Inside a project, my role there is followed live (made a viewer: the screens turn read-only at once).
  useFollowAccess(project?.id ?? "");

  // Following a link in the mobile sheet closes it.
  useEffect(() => setOpenMobile(false), [location, setOpenMobile]);

  return (
    <div className="flex min-h-svh">
      <aside
        aria-label="Sidebar"
        data-state={open ? "expanded" : "collapsed"}
        className={cn(
          "sticky top-0 hidden h-svh shrink-0 overflow-hidden border-r bg-card transition-[width] duration-200 ease-linear md:block",
          open ? "w-64" : "w-12",
        )}
      >
        <AppSidebarContent collapsed={!open} />
      </aside>

      <Sheet open={openMobile} onClose={() => setOpenMobile(false)} side="left" title="App Builder" className="w-72">
        <AppSidebarContent collapsed={false} showBrand={false} />
      </Sheet>

      <div className="flex min-w-0 flex-1 flex-col">
        <LayoutHeader project={project} />
        <main className={cn("flex min-w-0 flex-1 flex-col", project && "pb-16 md:pb-0")}>
          <Suspense fallback={<PageSpinner />}>{children}</Suspense>
        </main>
        {project && <MobileBottomBar projectId={project.id} view={project.view} />}
      </div>
    </div>
  );
}

function LayoutHeader({ project }: { project: ProjectLocation }) {
  const { open, openMobile, isMobile, toggle } = useSidebar();
  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-2 border-b bg-background/80 px-3 backdrop-blur sm:px-4">
      <Tooltip content="Toggle Sidebar (Ctrl+B)" side="bottom">
        <button
          type="button"
          onClick={toggle}
          aria-label="Toggle Sidebar"
          aria-expanded={isMobile ? openMobile : open}
          aria-keyshortcuts="Control+B Meta+B"
          data-testid="sidebar-toggle"
          className="-ml-1 inline-flex size-8 shrink-0 items-center justify-center rounded-md hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <PanelLeftIcon />
        </button>
      </Tooltip>
      <span aria-hidden className="h-4 w-px shrink-0 bg-border" />
      <Breadcrumb project={project} />
      <div className="ml-auto flex shrink-0 items-center">
        <ThemeToggle />
      </div>
    </header>
  );
}

function Breadcrumb({ project }: { project: ProjectLocation }) {
  const details = useProject(project?.id);
  const crumb = "truncate text-sm";
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1.5 text-muted-foreground">
        <li className="shrink-0">
          {project ? (
            <Link
              href="/projects"
              className={cn(crumb, "rounded hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring")}
            >
              Projects
            </Link>
          ) : (
            <span aria-current="page" className={cn(crumb, "font-medium text-foreground")}>
              Projects
            </span>
          )}
        </li>
        {project && (
          <>
            <li className="flex min-w-0 items-center gap-1.5">
              <ChevronRightIcon className="size-3.5" />
              <span className={cn(crumb, "text-foreground")} data-testid="breadcrumb-project">
                {details.data?.name ?? "…"}
              </span>
            </li>
            <li className="hidden shrink-0 items-center gap-1.5 sm:flex">
              <ChevronRightIcon className="size-3.5" />
              <span aria-current="page" className={cn(crumb, "font-medium text-foreground")}>
                {projectViewLabels[project.view]}
              </span>
            </li>
          </>
        )}
      </ol>
    </nav>
  );
}

function PageSpinner() {
  return (
    <div className="flex flex-1 items-center justify-center py-24 text-muted-foreground">
      <Spinner className="size-6" />
    </div>
  );
}
