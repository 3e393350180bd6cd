-- The first migration. Add more as db/migrations/NNN_name.sql: they are applied once each, in name order,
-- and recorded in the _migrations table.
CREATE TABLE items (
  id serial PRIMARY KEY,
  title text NOT NULL,
  done boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
