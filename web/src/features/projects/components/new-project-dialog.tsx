/**
 * The New Project dialog: name and optional description, validated with the shared schema, then created
 * and opened in its chat view.
 */
import {
  MAX_PROJECT_DESCRIPTION_LENGTH,
  MAX_PROJECT_NAME_LENGTH,
  createProjectSchema,
} from "@shared/schemas/project";
import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { describeError } from "../../../api/api-error";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Input, Label, Textarea } from "../../../components/ui/field";
import { toast } from "../../../components/ui/use-toast";
import { projectPath } from "../project-views";
import { useCreateProject } from "../use-create-project";

export function NewProjectDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const createProject = useCreateProject();
  const [, navigate] = useLocation();

  // Cancel, Escape or a click outside: the next open starts blank rather than with the abandoned draft.
  const close = () => {
    if (createProject.isPending) return;
    setName("");
    setDescription("");
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      toast({ title: "Name required", description: "Please enter a project name.", variant: "destructive" });
      return;
    }
    const parsed = createProjectSchema.safeParse({ name, description: description.trim() || undefined });
    if (!parsed.success) {
      const description = parsed.error.issues[0]?.message ?? "Check the name and description.";
      toast({ title: "Failed to create project", description, variant: "destructive" });
      return;
    }
    createProject.mutate(parsed.data, {
      onSuccess: (project) => {
        toast({ title: "Project created", description: "Your new project has been created successfully." });
        setName("");
        setDescription("");
        onClose();
        navigate(projectPath(project.id, "chat"));
      },
      onError: (err) => {
        toast({ title: "Failed to create project", description: describeError(err), variant: "destructive" });
      },
    });
  };

  return (
    <Dialog open={open} onClose={close} title="Create New Project" description="Give your project a name to get started.">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div>
          <Label htmlFor="project-name">Project Name</Label>
          <Input
            id="project-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="My awesome app"
            maxLength={MAX_PROJECT_NAME_LENGTH}
            autoFocus
          />
        </div>
        <div>
          <Label htmlFor="project-description">Description (optional)</Label>
          <Textarea
            id="project-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            placeholder="What are you building?"
            maxLength={MAX_PROJECT_DESCRIPTION_LENGTH}
            rows={3}
          />
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={close} disabled={createProject.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={createProject.isPending}>
            {createProject.isPending ? "Creating..." : "Create Project"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
