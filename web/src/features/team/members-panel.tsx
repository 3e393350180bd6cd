/**
 * The Share dialog's content: everyone in the project with their role and whether they joined yet. The owner
 * invites by e-mail as viewer or editor, changes roles, removes people and hands the project over; the others
 * read the list and may leave. Every refusal shows the server's reason.
 */
import { MEMBER_ROLES, type Member, type MemberRole } from "@shared/schemas/members";
import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { describeError } from "../../api/api-error";
import { Button } from "../../components/ui/button";
import { Input, Label } from "../../components/ui/field";
import { Spinner } from "../../components/ui/spinner";
import { toast } from "../../components/ui/use-toast";
import { useAuth } from "../auth/use-auth";
import { useLeaveProject, useMembers } from "./use-members";
import { useProjectRole } from "./use-project-role";

const ROLE_LABEL: Record<Member["role"], string> = { owner: "Owner", editor: "Editor", viewer: "Viewer" };
const select = "h-8 rounded-md border bg-background px-2 text-sm";

export function MembersPanel({ projectId }: { projectId: string }) {
  const { list, invite, setRole, remove, transfer } = useMembers(projectId);
  const { isOwner } = useProjectRole(projectId);
  const { user } = useAuth();
  const leave = useLeaveProject();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState("");
  const [role, setNewRole] = useState<MemberRole>("editor");
  const failure = invite.error ?? setRole.error ?? remove.error ?? transfer.error ?? leave.error;
  const me = user?.email?.toLowerCase();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (m) => (
          setEmail(""), toast({ title: "Invitation sent", description: `${m.email} joins as ${ROLE_LABEL[m.role].toLowerCase()} when they sign in.` })
        ),
      },
    );
  };
  const handOver = (m: Member) => {
    if (!window.confirm(`Make ${m.name ?? m.email} the owner? You stay in the project as an editor.`)) return;
    transfer.mutate(m.email, { onSuccess: () => toast({ title: "Ownership transferred", description: `${m.name ?? m.email} owns the project now.` }) });
  };
  const leaveProject = () => {
    if (!me || !window.confirm("Leave this project? You will need a new invitation to come back.")) return;
    leave.mutate({ projectId, email: me }, { onSuccess: () => (toast({ title: "You left the project" }), navigate("/projects")) });
  };

  return (
    <section aria-label="People" data-testid="members-panel">
      {list.isPending ? (
        <Spinner className="size-5" />
      ) : list.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {describeError(list.error)}
        </p>
      ) : (
        <ul className="divide-y rounded-md border" data-testid="member-list">
          {list.data.map((m) => (
            <li key={m.email} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm" data-testid="member-row" data-email={m.email}>
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{m.name ?? m.email}</p>
                <p className="truncate text-xs text-muted-foreground">
                  {m.email}
                  {m.status === "invited" && <span className="ml-1 rounded bg-muted px-1">invited</span>}
                </p>
              </div>
              {isOwner && m.role !== "owner" ? (
                <>
                  <select
                    className={select}
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    disabled={setRole.isPending}
                    onChange={(e) => setRole.mutate({ email: m.email, role: e.target.value as MemberRole })}
                  >
                    {MEMBER_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_LABEL[r]}
                      </option>
                    ))}
                  </select>
                  {m.status === "active" && (
                    <Button variant="ghost" size="sm" onClick={() => handOver(m)} disabled={transfer.isPending}>
                      Make owner
                    </Button>
                  )}
                  <Button variant="ghost" size="sm" onClick={() => remove.mutate(m.email)} disabled={remove.isPending} aria-label={`Remove ${m.email}`}>
                    Remove
                  </Button>
                </>
              ) : (
                <span className="text-xs text-muted-foreground" data-testid="member-role">
                  {ROLE_LABEL[m.role]}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {failure && (
        <p role="alert" className="mt-3 text-sm text-destructive" data-testid="members-error">
          {describeError(failure)}
        </p>
      )}
      {isOwner ? (
        <form onSubmit={submit} className="mt-4 grid gap-2" data-testid="invite-form">
          <Label htmlFor="invite-email">Invite by e-mail</Label>
          <div className="flex gap-2">
            <Input id="invite-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="name@example.com" autoComplete="off" />
            <select className={select} aria-label="Role" value={role} onChange={(e) => setNewRole(e.target.value as MemberRole)}>
              {MEMBER_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABEL[r]}
                </option>
              ))}
            </select>
            <Button type="submit" size="sm" disabled={!email.trim() || invite.isPending}>
              {invite.isPending && <Spinner className="size-4" />}
              Invite
            </Button>
          </div>
        </form>
      ) : (
        <div className="mt-4 flex justify-end">
          <Button variant="outline" size="sm" onClick={leaveProject} disabled={leave.isPending || !me}>
            Leave project
          </Button>
        </div>
      )}
    </section>
  );
}
