/**
 * What the signed-in sidebar holds: the brand, the Navigation group, the Project Tools group inside a
 * project, and the user footer. The same content fills the desktop rail and the mobile sheet.
 */
import { useLocation } from "wouter";
import { type ProjectView, projectPath, projectViewLabels, projectViews } from "../projects/project-views";
import { cn } from "../../lib/cn";
import { BrandMark, ChatIcon, DatabaseIcon, FileCodeIcon, FolderIcon, MonitorIcon, ShieldIcon, TerminalIcon } from "../../components/ui/icons";
import { useIsAdmin } from "../admin/use-admin";
import { useProjectLocation } from "./project-location";
import { SidebarGroup, type SidebarLink } from "./sidebar-nav";
import { SidebarUser } from "./sidebar-user";

export const projectViewIcons: Record<ProjectView, typeof ChatIcon> = {
  preview: MonitorIcon,
  chat: ChatIcon,
  files: FileCodeIcon,
  database: DatabaseIcon,
  terminal: TerminalIcon,
};

export function AppSidebarContent({ collapsed, showBrand = true }: { collapsed: boolean; showBrand?: boolean }) {
  const [location] = useLocation();
  const project = useProjectLocation();

  const { admin } = useIsAdmin();

  const navigation: SidebarLink[] = [{ href: "/projects", label: "Projects", icon: <FolderIcon />, active: location === "/projects" }];
  // Only admins (ADMIN_EMAILS) are shown the link; for anyone else /admin is the not-found page.
  if (admin) navigation.push({ href: "/admin", label: "Admin", icon: <ShieldIcon />, active: location === "/admin" });
  const tools: SidebarLink[] = project
    ? projectViews.map((view) => {
        const Icon = projectViewIcons[view];
        return { href: projectPath(project.id, view), label: projectViewLabels[view], icon: <Icon />, active: view === project.view };
      })
    : [];

  return (
    <div className="flex h-full min-h-0 flex-col">
      {showBrand && (
        <div className={cn("flex h-14 shrink-0 items-center gap-2 border-b", collapsed ? "justify-center" : "px-3")}>
          <BrandMark />
          <span className={cn("truncate font-semibold", collapsed && "sr-only")}>App Builder</span>
        </div>
      )}
      <div className="min-h-0 flex-1 overflow-x-hidden overflow-y-auto">
        <SidebarGroup label="Navigation" links={navigation} collapsed={collapsed} />
        {tools.length > 0 && <SidebarGroup label="Project Tools" links={tools} collapsed={collapsed} />}
      </div>
      <SidebarUser collapsed={collapsed} />
    </div>
  );
}
