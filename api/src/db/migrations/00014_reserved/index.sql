-- Placeholder so migration 00015 (app_databases) applies on this branch alone: the numbers 00013 and 00014
-- belong to other branches of the same wave. Delete this folder when merging theirs.
select 1;
