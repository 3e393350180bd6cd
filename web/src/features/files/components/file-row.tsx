/**
 * One file in the list: icon, path, size, last change, extension badge, and Edit / Rename / Delete. Without
 * `onRename` and `onDelete` (a viewer's list) the row offers View only.
 */
import type { ProjectFile } from "@shared/schemas/file";
import { Button } from "../../../components/ui/button";
import { formatRelativeTime } from "../../../lib/relative-time";
import { fileExtension } from "../file-kind";
import { formatFileSize } from "../format-file-size";
import { FileIcon } from "./file-icon";
import { EditIcon, RenameIcon, TrashIcon } from "./icons";

type FileRowProps = {
  file: ProjectFile;
  onEdit: (file: ProjectFile) => void;
  onRename?: (file: ProjectFile) => void;
  onDelete?: (file: ProjectFile) => void;
};

export function FileRow({ file, onEdit, onRename, onDelete }: FileRowProps) {
  const ext = fileExtension(file.path);
  const slash = file.path.lastIndexOf("/");
  return (
    <li data-testid="file-row" data-path={file.path} className="flex items-center gap-3 px-3 py-3 transition-colors hover:bg-muted/50 sm:px-4">
      <FileIcon path={file.path} />
      <div className="min-w-0 flex-1">
        <p className="truncate font-mono text-sm" title={file.path} data-testid="file-path">
          {slash >= 0 && <span className="text-muted-foreground">{file.path.slice(0, slash + 1)}</span>}
          <span className="font-medium">{file.path.slice(slash + 1)}</span>
        </p>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-xs whitespace-nowrap text-muted-foreground">
          <span data-testid="file-size">{formatFileSize(file.size)}</span>
          <span aria-hidden>·</span>
          <time dateTime={file.updatedAt} title={new Date(file.updatedAt).toLocaleString()}>
            {formatRelativeTime(file.updatedAt)}
          </time>
          {ext && (
            // Narrow screens: the badge joins this line instead of taking a column.
            <span aria-hidden className="rounded border px-1 font-mono text-[10px] font-semibold sm:hidden">
              {ext.toUpperCase()}
            </span>
          )}
        </p>
      </div>
      {ext && (
        <span
          data-testid="file-ext"
          className="hidden shrink-0 rounded-md border px-2 py-0.5 font-mono text-[11px] font-semibold tracking-wide text-muted-foreground sm:inline"
        >
          {ext.toUpperCase()}
        </span>
      )}
      <div className="ml-auto flex shrink-0 items-center md:gap-1">
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onEdit(file)}
          aria-label={`${onRename ? "Edit" : "View"} ${file.path}`}
          title={onRename ? "Edit" : "View"}
          className="px-2! md:px-3!"
        >
          <EditIcon className="size-4" />
          <span className="hidden md:inline">{onRename ? "Edit" : "View"}</span>
        </Button>
        {onRename && (
          <Button variant="ghost" size="sm" onClick={() => onRename(file)} aria-label={`Rename ${file.path}`} title="Rename" className="px-2! md:px-3!">
            <RenameIcon className="size-4" />
            <span className="hidden md:inline">Rename</span>
          </Button>
        )}
        {onDelete && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onDelete(file)}
            aria-label={`Delete ${file.path}`}
            title="Delete"
            className="px-2! text-destructive hover:bg-destructive/10 md:px-3!"
          >
            <TrashIcon className="size-4" />
            <span className="hidden md:inline">Delete</span>
          </Button>
        )}
      </div>
    </li>
  );
}
