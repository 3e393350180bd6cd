/**
 * The New Project dialog: name and optional description, validated with the shared schema, then created
 * and opened in its chat view; or "Import from ZIP", which opens the imported project the same way (named
 * after the name field when it is filled) and shows a refused zip's reason in the dialog; or "Import from
 * Git", a project from a repository's URL, connected to it.
 */
import { MAX_PROJECT_DESCRIPTION_LENGTH, MAX_PROJECT_NAME_LENGTH, createProjectSchema } from "@shared/schemas/project";
import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { describeError } from "../../../api/api-error";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Input, Label, Textarea } from "../../../components/ui/field";
import { toast } from "../../../components/ui/use-toast";
import { projectPath } from "../project-views";
import { useCreateProject } from "../use-create-project";
import { useImportProject } from "../use-import-project";
import { ImportGitField } from "./import-git-field";
import { ImportZipField } from "./import-zip-field";

export function NewProjectDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const createProject = useCreateProject();
  const importProject = useImportProject();
  const busy = createProject.isPending || importProject.isPending;
  const [, navigate] = useLocation();

  const reset = () => {
    setName("");
    setDescription("");
    importProject.reset();
  };

  // Cancel, Escape or a click outside: the next open starts blank rather than with the abandoned draft.
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const importZip = (file: File) => {
    importProject.mutate(
      { file, name: name.trim() || undefined },
      {
        // On failure the error shows below the button and the fields keep what was typed.
        onSuccess: (project) => {
          toast({ title: "Project imported", description: `${project.name} was created from ${file.name}.` });
          reset();
          onClose();
          navigate(projectPath(project.id, "chat"));
        },
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    importProject.reset();
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
        reset();
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
          <Button variant="outline" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {createProject.isPending ? "Creating..." : "Create Project"}
          </Button>
        </div>
        <ImportZipField
          pending={importProject.isPending}
          disabled={busy}
          error={importProject.isError ? describeError(importProject.error) : null}
          onPick={importZip}
        />
        <ImportGitField
          name={name}
          disabled={busy}
          onImported={(project, note) => {
            toast({ title: "Project imported", description: `${project.name} was created from its repository. ${note}` });
            reset();
            onClose();
            navigate(projectPath(project.id, "chat"));
          }}
        />
      </form>
    </Dialog>
  );
}
