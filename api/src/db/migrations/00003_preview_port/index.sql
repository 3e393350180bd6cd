-- The port the project's app listens on inside its sandbox; the preview URL points at it.
alter table projects add column preview_port integer not null default 5173 check (preview_port between 1 and 65535);
