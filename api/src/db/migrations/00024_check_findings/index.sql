-- The agent's check (issue 23): what its headless browser finds goes to the Problems list, marked as found by
-- the check rather than by a preview the user has open; and a preview still running code from before the
-- run's last change (one that was loading when the file changed) is asked to reload on its next ping.

-- True when the latest occurrence came from the check's headless browser.
alter table problems add column found_by_check boolean not null default false;
-- Pages whose code started loading before this time are answered "reload" when they ping; null: none asked.
alter table preview_loads add column reload_before timestamptz;
