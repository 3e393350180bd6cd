/** The file list of the Files view: search box, rows, and the empty states. */
import type { ProjectFile } from "@shared/schemas/file";
import { useDeferredValue, useMemo, useState } from "react";
import { Input } from "../../../components/ui/field";
import { filterFiles, sortByPath } from "../filter-files";
import { FileRow } from "./file-row";
import { FilesEmptyState } from "./files-empty-state";
import { SearchIcon } from "./icons";

type FilesListProps = {
  files: ProjectFile[];
  onEdit: (file: ProjectFile) => void;
  /** Absent for a viewer: the rows offer View only. */
  onRename?: (file: ProjectFile) => void;
  onDelete?: (file: ProjectFile) => void;
};

export function FilesList({ files, onEdit, onRename, onDelete }: FilesListProps) {
  const [search, setSearch] = useState("");
  const term = useDeferredValue(search);
  const shown = useMemo(() => filterFiles(sortByPath(files), term), [files, term]);

  if (files.length === 0) return <FilesEmptyState />;

  return (
    <div className="space-y-4">
      <div className="relative">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Search files..."
          aria-label="Search files"
          className="pl-9"
        />
      </div>
      {shown.length === 0 ? (
        <FilesEmptyState searchTerm={term} />
      ) : (
        <ul aria-label="Files" className="divide-y overflow-hidden rounded-lg border bg-card">
          {shown.map((file) => (
            <FileRow key={file.id} file={file} onEdit={onEdit} onRename={onRename} onDelete={onDelete} />
          ))}
        </ul>
      )}
    </div>
  );
}
