-- Own domains and the client-file scan (issue 22, items 5 and 6).

-- A domain a project asked for: pending until the TXT record `_appbuilder.<domain>` holds `txt_value`, then
-- verified. Several projects may ask for the same name (whoever controls its DNS proves it), but only one
-- holds it verified: the partial unique index. A verified domain serves its project's live site.
create table project_domains (
  project_id  uuid not null references projects (id) on delete cascade,
  domain      text not null check (domain = lower(domain)),
  txt_value   text not null,
  verified_at timestamptz,
  created_at  timestamptz not null default now(),
  primary key (project_id, domain)
);
create unique index project_domains_verified_idx on project_domains (domain) where verified_at is not null;

-- What the scan of the files that reach browsers found (file, rule, line): on a failed build, why it was
-- refused; on a deployment that went live, what the person allowed by publishing with allowFindings.
alter table deployments add column scan_findings jsonb;
alter table deployments add column findings_allowed boolean not null default false;
