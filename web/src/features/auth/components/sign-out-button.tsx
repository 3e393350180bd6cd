import { useLocation } from "wouter";
import { Button } from "../../../components/ui/button";
import { useAuth } from "../use-auth";

/** Signs out and returns to the root (spec §2, sidebar footer). */
export function SignOutButton() {
  const { signOut } = useAuth();
  const [, navigate] = useLocation();
  return (
    <Button
      variant="ghost"
      size="sm"
      onClick={async () => {
        await signOut();
        navigate("/");
      }}
    >
      Sign Out
    </Button>
  );
}
