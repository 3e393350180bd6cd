/**
 * Which model a project's runs use: one of the ids the server offers (MODELS, first = default), stored
 * per project. A model the server does not offer is refused with a 400 naming the choices; a stored
 * choice the server stopped offering reads as the default.
 */
import type { ProjectModel } from "@shared/schemas/model";
import { findProjectModel, setProjectModel } from "../db/projects";
import type { Config } from "../lib/config";
import { badRequest, notFound } from "../lib/errors";
import type { ServiceContext } from "./context";
import type { ProjectAccess } from "./access";
import { getProject } from "./projects";

type Deps = ServiceContext & { config: Pick<Config, "model"> };

function offered(deps: Deps): string[] {
  const { model } = deps.config;
  if (!model.configured) throw badRequest("No AI model is configured on this server, so there is no model to choose.");
  return model.models;
}

export async function getProjectModel(deps: Deps, access: ProjectAccess): Promise<ProjectModel> {
  const project = await getProject(deps, access);
  const { model } = deps.config;
  if (!model.configured) return { model: "", models: [] };
  const chosen = await findProjectModel(deps.sql, project.id);
  return { model: chosen && model.models.includes(chosen) ? chosen : model.model, models: model.models };
}

export async function chooseProjectModel(deps: Deps, access: ProjectAccess, model: string): Promise<ProjectModel> {
  const project = await getProject(deps, access);
  const models = offered(deps);
  if (!models.includes(model)) {
    throw badRequest(`The model "${model}" is not offered on this server. Choose one of: ${models.join(", ")}.`);
  }
  if (!(await setProjectModel(deps.sql, project.id, model))) throw notFound("Project");
  return { model, models };
}
