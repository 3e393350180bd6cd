/**
 * Knowledge in a project's settings: its AGENTS.md (the same file Files shows), which goes into every agent
 * run's system prompt, first 8 KB. Edited here as plain text; saving writes the file (creating it if need be).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { describeError } from "../../api/api-error";
import { api } from "../../api/endpoints";
import { fileKeys } from "../../api/query-keys";
import { Button } from "../../components/ui/button";
import { Textarea } from "../../components/ui/field";
import { Spinner } from "../../components/ui/spinner";
import { toast } from "../../components/ui/use-toast";
import { useFiles } from "../files/use-files";

const KNOWLEDGE_PATH = "AGENTS.md";
/** What a run reads of it (services/chat-runs/project-knowledge.ts). */
const KNOWLEDGE_MAX_BYTES = 8 * 1024;

export function KnowledgePanel({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const files = useFiles(projectId);
  const file = files.data?.find((f) => f.path === KNOWLEDGE_PATH) ?? null;
  const stored = useQuery({
    queryKey: [...fileKeys.list(projectId), "knowledge", file?.id ?? "none", file?.updatedAt ?? ""],
    queryFn: async () => (file ? ((await api.files.content(projectId, file.id)).content ?? "") : ""),
    enabled: files.isSuccess,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [text, setText] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (text === null && stored.data !== undefined) setText(stored.data);
  }, [stored.data, text]);

  const bytes = new TextEncoder().encode(text ?? "").length;
  const save = async () => {
    setSaving(true);
    try {
      await api.files.write(projectId, KNOWLEDGE_PATH, text ?? "");
      await queryClient.invalidateQueries({ queryKey: fileKeys.list(projectId) });
      toast({ title: "Knowledge saved", description: "The agent reads it at the start of every run." });
    } catch (err) {
      toast({ title: "Could not save the knowledge", description: describeError(err), variant: "destructive" });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby="knowledge-heading" data-testid="knowledge-panel" className="mb-6">
      <h3 id="knowledge-heading" className="text-sm font-semibold">
        Knowledge
      </h3>
      <p className="mt-1 text-sm text-muted-foreground">
        What the agent should always know about this project: its stack, conventions, what to avoid. Kept in <code className="font-mono">AGENTS.md</code> (also
        in Files) and put into every run's instructions, up to 8 KB.
      </p>
      {text === null ? (
        <div className="mt-3 flex h-32 items-center justify-center text-muted-foreground">
          <Spinner className="size-5" />
        </div>
      ) : (
        <>
          <Textarea
            aria-label="Project knowledge (AGENTS.md)"
            data-testid="knowledge-input"
            rows={8}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={"# About this project\n- Stack: React + Vite\n- Keep components small; use Tailwind"}
            className="mt-3 font-mono text-xs"
          />
          <div className="mt-2 flex items-center justify-between gap-2 text-xs text-muted-foreground">
            <span data-testid="knowledge-size" className={bytes > KNOWLEDGE_MAX_BYTES ? "text-amber-600 dark:text-amber-400" : undefined}>
              {bytes.toLocaleString("en")} / {KNOWLEDGE_MAX_BYTES.toLocaleString("en")} bytes
              {bytes > KNOWLEDGE_MAX_BYTES ? " — the agent reads the first 8 KB and is told the rest is cut" : ""}
            </span>
            <Button size="sm" onClick={() => void save()} disabled={saving || text === (stored.data ?? "")} data-testid="knowledge-save">
              {saving ? "Saving..." : "Save"}
            </Button>
          </div>
        </>
      )}
    </section>
  );
}
