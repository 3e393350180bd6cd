/** A row's icon, picked and coloured by the file's extension. */
import { icon } from "../../../components/ui/icons";
import { cn } from "../../../lib/cn";
import { type FileKind, fileKind } from "../file-kind";

const COLOURS: Record<FileKind, string> = {
  code: "text-sky-500 bg-sky-500/10",
  markup: "text-orange-500 bg-orange-500/10",
  style: "text-pink-500 bg-pink-500/10",
  data: "text-amber-500 bg-amber-500/10",
  text: "text-emerald-500 bg-emerald-500/10",
  image: "text-violet-500 bg-violet-500/10",
  archive: "text-yellow-600 bg-yellow-600/10",
  other: "text-muted-foreground bg-muted",
};

const GLYPHS: Record<FileKind, ReturnType<typeof icon>> = {
  code: icon(<path d="m9 9-3 3 3 3M15 9l3 3-3 3" />),
  markup: icon(<path d="m8 8-4 4 4 4M16 8l4 4-4 4M13.5 6l-3 12" />),
  style: icon(<path d="M12 21a9 9 0 1 1 9-9c0 2-1.5 3-3 3h-2a2 2 0 0 0-1.5 3.3A1.6 1.6 0 0 1 12 21ZM7.5 11.5h.01M10.5 7.5h.01M15.5 8.5h.01" />),
  data: icon(<path d="M9 4H7a2 2 0 0 0-2 2v4l-2 2 2 2v4a2 2 0 0 0 2 2h2M15 4h2a2 2 0 0 1 2 2v4l2 2-2 2v4a2 2 0 0 1-2 2h-2" />),
  text: icon(<path d="M5 6h14M5 10h14M5 14h10M5 18h7" />),
  image: icon(<path d="M4 5h16v14H4ZM4 16l5-5 4 4 2-2 5 5M15 9h.01" />),
  archive: icon(<path d="M4 4h16v16H4ZM12 4v2M12 8v2M12 12v2M10 16h4v3h-4Z" />),
  other: icon(<path d="M14 3H6v18h12V7ZM14 3v4h4" />),
};

export function FileIcon({ path, className }: { path: string; className?: string }) {
  const kind = fileKind(path);
  const Glyph = GLYPHS[kind];
  return (
    <span data-kind={kind} className={cn("inline-flex size-9 shrink-0 items-center justify-center rounded-md", COLOURS[kind], className)}>
      <Glyph className="size-5" />
    </span>
  );
}
