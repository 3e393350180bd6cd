-- Fixed-window request counters shared by every API instance: one row per (user and action, window start).
-- The upsert that counts a request is atomic, so two instances never lose each other's counts.
-- Rows of past windows are deleted from time to time (window_start index).
create table rate_limit_counters (
  bucket       text not null,
  window_start timestamptz not null,
  hits         integer not null,
  primary key (bucket, window_start)
);
create index rate_limit_counters_window_idx on rate_limit_counters (window_start);
