/**
 * What a person may do in a project, as one typed value. `services/access.ts` is the only place that makes one
 * (after reading the caller's role from the database); every project-scoped service takes it instead of a bare
 * owner id, so code that never checked cannot call them. The brand is a type-only symbol: nothing outside that
 * module can build the value without a cast a reviewer sees.
 */

/** A person's place in a project. The owner is the project's row; the others are members. */
export type ProjectRole = "owner" | "editor" | "viewer";
/** What a request needs: to read (`view`), to change the project (`edit`), or the owner's own rights (`own`). */
export type AccessNeed = "view" | "edit" | "own";

declare const checked: unique symbol;

export type ProjectAccess = {
  readonly projectId: string;
  /** Who is acting (their budget pays for runs, their name goes in the activity log). */
  readonly userId: string;
  /** The project's owner: their sandbox limits and start counts apply to the project's sandbox. */
  readonly ownerId: string;
  readonly role: ProjectRole;
  readonly [checked]: true;
};

const RANK: Record<ProjectRole, number> = { viewer: 0, editor: 1, owner: 2 };
const NEEDS: Record<AccessNeed, number> = { view: 0, edit: 1, own: 2 };

/** Whether `role` is enough for `need`. */
export const roleAllows = (role: ProjectRole, need: AccessNeed): boolean => RANK[role] >= NEEDS[need];
