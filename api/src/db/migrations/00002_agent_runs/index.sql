-- Agent runs live in the assistant message they write: 'running' while the agent works.
-- At most one running message per project, across every API instance: the insert that starts a run is
-- the claim, and a second one fails on this index (the API answers 409).
create unique index messages_one_running_per_project on messages (project_id) where status = 'running';

-- Token usage of the run that wrote the message ({promptTokens, completionTokens, totalTokens}).
alter table messages add column usage jsonb;
-- Refreshed while a run works, so a run whose server died can be recognised as abandoned.
alter table messages add column updated_at timestamptz not null default now();
