-- Placeholder: number 13 belongs to a migration on another branch (app databases). postgres-shift needs the
-- numbers without a gap, so this empty step holds the place until that branch is merged; remove this folder then.
select 1;
