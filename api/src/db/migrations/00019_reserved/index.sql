-- An empty migration: number 00019 was held for a branch written in parallel (issue 22's server deployments),
-- which took 00021 instead. postgres-shift needs consecutive numbers, so this stays, changing nothing.
select 1;
