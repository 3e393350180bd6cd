/**
 * The Preview toolbar: each button's visibility rule is here — recreate only when expired, run
 * workflow only with a configured command, fullscreen, download and the device widths hidden on small
 * screens, refresh hidden when expired, Select (to edit) off while expired. Icon buttons carry their name as aria-label and show it as a tooltip.
 */
import type { ReactElement } from "react";
import { Button, buttonClasses } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { Tooltip } from "../../../components/ui/tooltip";
import type { PreviewDevice } from "../preview-panel-prefs";
import {
  CopyIcon,
  DownloadIcon,
  ExternalLinkIcon,
  MaximizeIcon,
  MinimizeIcon,
  MonitorIcon,
  PhoneIcon,
  PlayIcon,
  RefreshIcon,
  RotateIcon,
  SelectIcon,
  TabletIcon,
} from "./icons";

export type PreviewToolbarProps = {
  expired: boolean;
  url: string | null;
  hasWorkflow: boolean;
  fullscreen: boolean;
  recreating: boolean;
  runningWorkflow: boolean;
  downloading: boolean;
  onRecreate: () => void;
  onRunWorkflow: () => void;
  onToggleFullscreen: () => void;
  onCopyUrl: () => void;
  /** Opens the preview in a new tab by way of its host's enter URL (the plain link would meet a 404). */
  onOpenInNewTab?: () => void;
  onRefresh: () => void;
  onDownload: () => void;
  /** The width the frame shows the app at; the switch is absent without `onDevice`. */
  device?: PreviewDevice;
  onDevice?: (device: PreviewDevice) => void;
  /** Select to edit: picking an element in the frame for the chat; absent without `onTogglePick`. */
  picking?: boolean;
  onTogglePick?: () => void;
  /** The Publish button, last in the toolbar (it opens its own dialog). */
  publish?: ReactElement;
};

export function PreviewToolbar(p: PreviewToolbarProps) {
  return (
    <div role="toolbar" aria-label="Preview actions" className="flex flex-wrap items-center gap-1">
      {p.expired && (
        <Tooltip content="Create a new sandbox with every file" side="bottom">
          <Button size="sm" onClick={p.onRecreate} disabled={p.recreating} aria-label="Recreate sandbox">
            {p.recreating ? <Spinner className="size-4" /> : <RotateIcon />}
            <span>{p.recreating ? "Recreating..." : "Recreate"}</span>
          </Button>
        </Tooltip>
      )}
      {p.onDevice && <DeviceSwitch device={p.device ?? "desktop"} onDevice={p.onDevice} />}
      {p.onTogglePick && (
        <IconButton
          label={p.picking ? "Stop selecting" : "Select an element to edit"}
          onClick={p.onTogglePick}
          disabled={p.expired || !p.url}
          pressed={p.picking ?? false}
        >
          <SelectIcon />
        </IconButton>
      )}
      {p.hasWorkflow && (
        <IconButton label="Run workflow" onClick={p.onRunWorkflow} disabled={p.runningWorkflow}>
          {p.runningWorkflow ? <Spinner className="size-4" /> : <PlayIcon />}
        </IconButton>
      )}
      <IconButton label={p.fullscreen ? "Exit fullscreen" : "Fullscreen"} onClick={p.onToggleFullscreen} wideOnly pressed={p.fullscreen}>
        {p.fullscreen ? <MinimizeIcon /> : <MaximizeIcon />}
      </IconButton>
      <IconButton label="Copy URL" onClick={p.onCopyUrl} disabled={!p.url}>
        <CopyIcon />
      </IconButton>
      {!p.expired && (
        <IconButton label="Refresh preview" onClick={p.onRefresh} disabled={!p.url}>
          <RefreshIcon />
        </IconButton>
      )}
      <IconButton label="Download source" onClick={p.onDownload} disabled={p.downloading} wideOnly>
        {p.downloading ? <Spinner className="size-4" /> : <DownloadIcon />}
      </IconButton>
      {p.url ? (
        <Tooltip content="Open in new tab" side="bottom">
          <a
            href={p.url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label="Open in new tab"
            className={buttonClasses("ghost", "icon", "size-8")}
            onClick={(e) => {
              if (!p.onOpenInNewTab || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
              e.preventDefault();
              p.onOpenInNewTab();
            }}
          >
            <ExternalLinkIcon />
          </a>
        </Tooltip>
      ) : (
        <IconButton label="Open in new tab" disabled onClick={() => {}}>
          <ExternalLinkIcon />
        </IconButton>
      )}
      {p.publish}
    </div>
  );
}

const DEVICES: { device: PreviewDevice; label: string; icon: ReactElement }[] = [
  { device: "desktop", label: "Desktop width", icon: <MonitorIcon /> },
  { device: "tablet", label: "Tablet width (768 px)", icon: <TabletIcon /> },
  { device: "phone", label: "Phone width (390 px)", icon: <PhoneIcon /> },
];

/** Desktop, tablet or phone width: one pressed at a time. Hidden where the screen itself is that narrow. */
function DeviceSwitch({ device, onDevice }: { device: PreviewDevice; onDevice: (device: PreviewDevice) => void }) {
  return (
    <span role="group" aria-label="Device width" className="mr-1 hidden items-center rounded-md border p-0.5 md:inline-flex">
      {DEVICES.map((d) => (
        <IconButton key={d.device} label={d.label} onClick={() => onDevice(d.device)} pressed={device === d.device}>
          {d.icon}
        </IconButton>
      ))}
    </span>
  );
}

function IconButton({
  label,
  onClick,
  disabled,
  wideOnly,
  pressed,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  /** Hidden below 768 px. */
  wideOnly?: boolean;
  pressed?: boolean;
  children: ReactElement;
}) {
  const button = (
    <Tooltip content={label} side="bottom">
      <Button variant="ghost" size="icon" aria-label={label} aria-pressed={pressed} onClick={onClick} disabled={disabled} className="size-8">
        {children}
      </Button>
    </Tooltip>
  );
  // A wrapper carries the visibility, so it never fights the button's own display class.
  return wideOnly ? <span className="hidden md:contents">{button}</span> : button;
}
