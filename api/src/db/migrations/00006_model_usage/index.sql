-- The model a project's runs use (one of MODELS); null means the server's default.
alter table projects add column model text;

-- Tokens each user spent per calendar month (UTC; `month` is its first day). Kept apart from the messages,
-- so deleting a project does not give its tokens back. A finished run adds to its month with one upsert.
create table user_token_usage (
  user_id text not null references users (id) on delete cascade,
  month   date not null,
  tokens  bigint not null default 0 check (tokens >= 0),
  primary key (user_id, month)
);
