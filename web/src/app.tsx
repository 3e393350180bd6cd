/**
 * The SPA: providers, then its routes (/, /login, /projects, /project/{id}/{files|database|preview|chat|terminal},
 * /admin, 404).
 * Only the landing and 404 pages are in the first bundle (`/` must stay within 150 KB gzipped); every other
 * screen, and the signed-in layout, is a lazy chunk.
 */
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense } from "react";
import { Route, Switch, useLocation } from "wouter";
import { queryClient } from "./api/query-client";
import { FullPageSpinner } from "./components/ui/spinner";
import { Toaster } from "./components/ui/toast";
import { AuthProvider } from "./features/auth/auth-provider";
import { ProtectedRoute, PublicOnlyRoute } from "./features/auth/route-guards";
import { useAuth } from "./features/auth/use-auth";
import { isSignedInPath } from "./features/shell/project-location";
import { LandingPage } from "./pages/landing-page";
import { NotFoundPage } from "./pages/not-found-page";

const named =
  <K extends string, T>(load: () => Promise<Record<K, T>>, name: K) =>
  () =>
    load().then((m) => ({ default: m[name] }));

const LoginPage = lazy(named(() => import("./pages/login-page"), "LoginPage"));
const ProjectsPage = lazy(named(() => import("./pages/projects-page"), "ProjectsPage"));
const SignedInLayout = lazy(named(() => import("./features/shell/signed-in-layout"), "SignedInLayout"));
// Lazy: the Files view (and, behind it, Monaco and jszip) loads only when opened.
const FilesPage = lazy(() => import("./pages/files-page").then((m) => ({ default: m.FilesPage })));
const DatabasePage = lazy(named(() => import("./pages/database-page"), "DatabasePage"));
const PreviewPage = lazy(named(() => import("./pages/preview-page"), "PreviewPage"));
// Lazy: xterm.js and its CSS load only when the Terminal is opened.
const TerminalPage = lazy(named(() => import("./pages/terminal-page"), "TerminalPage"));
const ChatPage = lazy(named(() => import("./pages/chat-page"), "ChatPage"));
const AdminPage = lazy(named(() => import("./pages/admin-page"), "AdminPage"));

function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <PublicOnlyRoute>
          <LandingPage />
        </PublicOnlyRoute>
      </Route>
      <Route path="/login">
        <PublicOnlyRoute>
          <LoginPage />
        </PublicOnlyRoute>
      </Route>
      <Route path="/projects">
        <ProtectedRoute>
          <ProjectsPage />
        </ProtectedRoute>
      </Route>
      <Route path="/project/:id/files">
        {(params) => (
          <ProtectedRoute>
            <FilesPage key={params.id} projectId={params.id} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/project/:id/database">
        {(params) => (
          <ProtectedRoute>
            <DatabasePage key={params.id} projectId={params.id} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/project/:id/preview">
        {(params) => (
          <ProtectedRoute>
            <PreviewPage key={params.id} projectId={params.id} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/project/:id/chat">
        {(params) => (
          <ProtectedRoute>
            <ChatPage key={params.id} projectId={params.id} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/project/:id/terminal">
        {(params) => (
          <ProtectedRoute>
            <TerminalPage key={params.id} projectId={params.id} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/admin">
        <ProtectedRoute>
          <AdminPage />
        </ProtectedRoute>
      </Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}

/**
 * Wraps the routes in the signed-in layout on signed-in paths, outside the Switch, so the sidebar survives
 * moving between /projects and a project's views instead of being rebuilt for each route.
 */
function Shell({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const { user } = useAuth();
  if (user && isSignedInPath(location)) return <SignedInLayout>{children}</SignedInLayout>;
  return <>{children}</>;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <Suspense fallback={<FullPageSpinner />}>
          <Shell>
            <AppRoutes />
          </Shell>
        </Suspense>
        <Toaster />
      </AuthProvider>
    </QueryClientProvider>
  );
}
