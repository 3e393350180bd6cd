-- The admin page (issue 24, item 8): who disabled whom, when each person last signed in, and which instance
-- runs each answer and holds each sandbox, so the admin page lists them per instance.

-- A disabled user's requests answer 403 and their sandboxes and runs stop; null means active.
alter table users add column disabled_at timestamptz;
alter table users add column disabled_by text references users (id) on delete set null;
-- Set by each sign-in (POST /api/auth/sync), for the admin page's "last sign-in".
alter table users add column last_sign_in_at timestamptz;

-- The instance (`<hostname>-<pid>`, as GET /api/health names it) that claimed a running answer.
alter table messages add column run_instance text;
-- The instance that last renewed a running sandbox's lease (the one that has it attached).
alter table projects add column sandbox_instance text;
