-- Local sandboxes from any instance (issue 24, item 2): a running sandbox's owner (`sandbox_instance`, the
-- instance that renews its lease) is recorded with the internal address other instances forward its preview,
-- terminal and sandbox requests to. A lease left unrenewed past `sandbox_running_until` means the owner is gone.
alter table projects add column sandbox_instance_url text;
