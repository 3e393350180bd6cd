-- Data in versions (issue 21, item 4): a version records the project's development database as it was.
-- 'none': no database, or one with no tables. 'included': `data_sha256` names a blob (blobs/sha256/<hash>,
-- gzipped JSON: schema and rows), which restoring puts back. 'too_large': over APP_DATABASE_VERSION_MAX_MB,
-- so not kept ("data not included"). `data_changed`: differs from the parent version's data (History marks it).
alter table versions
  add column data_status  text not null default 'none' check (data_status in ('none', 'included', 'too_large')),
  add column data_sha256  text check ((data_status = 'included') = (data_sha256 is not null)),
  add column data_changed boolean not null default false;
