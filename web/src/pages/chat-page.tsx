/** /project/{id}/chat (spec §2 Agent chat). */
import { ChatView } from "../features/chat/components/chat-view";

export function ChatPage({ projectId }: { projectId: string }) {
  return <ChatView projectId={projectId} />;
}
