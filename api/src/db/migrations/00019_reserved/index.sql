-- Holds number 00019 for the server-deployments branch (issue 22, items 1-4), which is being written beside
-- this one: postgres-shift needs consecutive numbers, so 00020 cannot run without a 00019. When that branch
-- is merged, its own 00019 replaces this folder (delete this one); it changes nothing.
select 1;
