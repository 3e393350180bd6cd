/** The SPA: providers, then the routes of spec §2. */
import { QueryClientProvider } from "@tanstack/react-query";
import { Route, Switch } from "wouter";
import { queryClient } from "./api/query-client";
import { Toaster } from "./components/ui/toast";
import { AuthProvider } from "./features/auth/auth-provider";
import { ProtectedRoute, PublicOnlyRoute } from "./features/auth/route-guards";
import { projectViews } from "./features/projects/project-views";
import { LandingPage } from "./pages/landing-page";
import { LoginPage } from "./pages/login-page";
import { NotFoundPage } from "./pages/not-found-page";
import { ProjectViewPage } from "./pages/project-view-page";
import { ProjectsPage } from "./pages/projects-page";

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
      {projectViews.map((view) => (
        <Route key={view} path={`/project/:id/${view}`}>
          {(params) => (
            <ProtectedRoute>
              <ProjectViewPage key={params.id} id={params.id} view={view} />
            </ProtectedRoute>
          )}
        </Route>
      ))}
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <AppRoutes />
        <Toaster />
      </AuthProvider>
    </QueryClientProvider>
  );
}
