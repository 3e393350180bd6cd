/**
 * Starting from a prompt: a project named from it, its images uploaded to it, and the run started with the
 * prompt as the first message. The run goes on at the server; the chat, opened next, attaches to it.
 *
 * @example
 * const project = await startProject(queryClient, { prompt: "A todo app", images: [] });
 * navigate(projectPath(project.id, "chat"));
 */
import type { Project } from "@shared/schemas/project";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { uploadImage } from "../chat/upload-image";
import { cacheNewProject } from "../projects/use-create-project";
import type { PendingStart } from "./pending-start";
import { projectNameFromPrompt } from "./project-name";

export async function startProject(queryClient: QueryClient, start: PendingStart): Promise<Project> {
  const project = await api.projects.create({ name: projectNameFromPrompt(start.prompt) });
  cacheNewProject(queryClient, project);
  const uploaded = await Promise.all(start.images.map((file) => uploadImage(project.id, file)));
  const attachments = uploaded.filter((url): url is string => url !== null);
  const res = await api.messages.stream({
    projectId: project.id,
    content: start.prompt,
    ...(attachments.length ? { attachments } : {}),
    enableReasoning: false,
  });
  // Only the start is needed here: the chat reattaches to the run (GET …/active) and follows it.
  await res.body?.cancel().catch(() => {});
  return project;
}
