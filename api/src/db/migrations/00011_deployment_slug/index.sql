-- A publish that renames the site keeps the new name on its deployment row until the build goes live: the
-- site's slug changes in the same transaction that points it at the new deployment, so a build that fails
-- or times out leaves the old name serving the old deployment. Null: the build keeps the site's name.
alter table deployments add column slug text;
