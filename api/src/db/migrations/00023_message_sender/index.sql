-- Who sent each user message (issue 26: a shared project's chat shows which member asked). Null for messages
-- saved before this column, and when the sender's account is deleted (their words stay in the conversation).
alter table messages add column sender_id text references users (id) on delete set null;
