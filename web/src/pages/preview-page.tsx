/**
 * /project/{id}/preview: 'Setting up sandbox...' until the project has a sandbox, then the
 * framed app with its status badge and toolbar.
 */
import { SettingUpSandbox } from "../features/preview/components/setting-up-sandbox";
import { PreviewView } from "../features/preview/components/preview-view";
import { SandboxGate } from "../features/projects/components/sandbox-gate";

export function PreviewPage({ projectId }: { projectId: string }) {
  return (
    <SandboxGate projectId={projectId} noSandbox={<SettingUpSandbox testId="preview-page" />}>
      {(project) => <PreviewView project={project} />}
    </SandboxGate>
  );
}
