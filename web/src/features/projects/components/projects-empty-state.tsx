import { Button } from "../../../components/ui/button";

export function ProjectsEmptyState({ onCreate }: { onCreate: () => void }) {
  return (
    <div className="flex flex-col items-center justify-center rounded-lg border border-dashed px-6 py-16 text-center">
      <h2 className="text-lg font-semibold">No projects yet</h2>
      <p className="mt-1 text-sm text-muted-foreground">Create a project and describe what you want to build.</p>
      <Button className="mt-6" onClick={onCreate}>
        Create Your First Project
      </Button>
    </div>
  );
}
