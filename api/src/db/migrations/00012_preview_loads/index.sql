-- What the open previews of a project last said, so an agent run's check (on any instance) knows whether a
-- preview is open and whether it has loaded the run's last change: seen_at is when a preview page last
-- reported in (it does every few seconds while open), loaded_at when the newest code a page runs started
-- loading (a page load or a hot update). Both are the server's clock. One row per project, overwritten.
create table preview_loads (
  project_id uuid primary key references projects (id) on delete cascade,
  seen_at    timestamptz not null,
  loaded_at  timestamptz not null
);
