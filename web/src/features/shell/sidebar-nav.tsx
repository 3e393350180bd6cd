/** A labelled group of sidebar links; collapsed, each shows only its icon, with the label as a tooltip. */
import type { ReactNode } from "react";
import { Link } from "wouter";
import { cn } from "../../lib/cn";
import { Tooltip } from "../../components/ui/tooltip";

export type SidebarLink = { href: string; label: string; icon: ReactNode; active: boolean };

export function SidebarGroup({ label, links, collapsed }: { label: string; links: SidebarLink[]; collapsed: boolean }) {
  const labelId = `sidebar-group-${label.toLowerCase().replace(/\s+/g, "-")}`;
  return (
    <nav aria-labelledby={labelId} className="px-2 py-2">
      <h2
        id={labelId}
        className={cn("mb-1 flex h-8 items-center px-2 text-xs font-medium whitespace-nowrap text-muted-foreground transition-opacity", collapsed && "sr-only")}
      >
        {label}
      </h2>
      <ul className="flex flex-col gap-1">
        {links.map((link) => (
          <li key={link.href}>
            <Tooltip content={link.label} side="right" disabled={!collapsed}>
              <Link
                href={link.href}
                aria-current={link.active ? "page" : undefined}
                className={cn(
                  "flex h-8 items-center gap-3 rounded-md text-sm whitespace-nowrap transition-colors",
                  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                  collapsed ? "w-8 justify-center" : "px-2",
                  link.active ? "bg-muted font-medium text-foreground" : "text-muted-foreground hover:bg-muted hover:text-foreground",
                )}
              >
                {link.icon}
                <span className={cn("truncate", collapsed && "sr-only")}>{link.label}</span>
              </Link>
            </Tooltip>
          </li>
        ))}
      </ul>
    </nav>
  );
}
