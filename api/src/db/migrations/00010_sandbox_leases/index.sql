-- A user runs at most MAX_SANDBOXES_PER_USER sandboxes at once, counted across instances. A running
-- sandbox holds a lease on its project row that the instances which have it attached renew while it is
-- alive and end when it stops, so one whose instance died stops counting on its own. The last time its
-- owner used it picks which idle sandbox is stopped to make room for a new one.
alter table projects add column sandbox_running_until timestamptz;
alter table projects add column sandbox_used_at timestamptz;
create index projects_owner_running_idx on projects (owner_id) where sandbox_running_until is not null or sandbox_claimed_until is not null;
