/** The Files view's two empty states: no files at all, and no file matching the search. */
import { FolderIcon, SearchIcon } from "./icons";

export function FilesEmptyState({ searchTerm }: { searchTerm?: string }) {
  const searching = Boolean(searchTerm);
  const Glyph = searching ? SearchIcon : FolderIcon;
  return (
    <div data-testid="files-empty" className="flex flex-col items-center justify-center rounded-lg border border-dashed px-6 py-16 text-center">
      <span className="mb-4 inline-flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <Glyph className="size-6" />
      </span>
      <h2 className="text-lg font-semibold">{searching ? "No files found" : "No files yet"}</h2>
      <p className="mt-1 max-w-md text-sm text-muted-foreground">
        {searching
          ? `No files match your search "${searchTerm}"`
          : "Start chatting with the AI to create files for your project. They'll appear here automatically."}
      </p>
    </div>
  );
}
