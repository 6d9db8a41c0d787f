-- Carlos's PostgreSQL cache for roles that may only read and write rows.
--
-- Run it once per database as a role that may create roles and tables (the database
-- owner, say):
--
--   psql -v ON_ERROR_STOP=1 -f Integrations/CarlosPostgres/SQL/least-privilege.sql
--
-- It creates both cache tables, their indexes and the lease table of
-- PostgresSingleFlight (the statements the level runs itself when `createTable` is
-- true), gives them to the role carlos_cache_owner, and lets members of
-- carlos_cache_user SELECT, INSERT, UPDATE and DELETE rows (LISTEN and NOTIFY need
-- no grant). With row-level security on, a member sees and writes
-- only the rows of its own namespaces: the one named like itself, and those that
-- start with its name and a dot (my_app, my_app.pages, my_app.sessions). For each
-- application:
--
--   CREATE ROLE my_app LOGIN PASSWORD '…' IN ROLE carlos_cache_user;
--
-- and give its levels `PostgresCacheOptions(namespace: "my_app", createTable: false)`.
-- Running the script again changes nothing. It takes the advisory lock the levels take
-- to create their tables, so it can run while they start.

BEGIN;

SELECT pg_advisory_xact_lock(109270182686579);

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'carlos_cache_owner') THEN
    CREATE ROLE carlos_cache_owner NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'carlos_cache_user') THEN
    CREATE ROLE carlos_cache_user NOLOGIN;
  END IF;
END
$$;

CREATE UNLOGGED TABLE IF NOT EXISTS carlos_cache (
  namespace text NOT NULL,
  key_hash bytea NOT NULL,
  key bytea NOT NULL,
  value bytea NOT NULL,
  size bigint NOT NULL,
  stored_at bigint NOT NULL,
  expires_at bigint,
  PRIMARY KEY (namespace, key_hash));

CREATE INDEX IF NOT EXISTS carlos_cache_age ON carlos_cache (namespace, stored_at);

CREATE INDEX IF NOT EXISTS carlos_cache_expiry ON carlos_cache (namespace, expires_at)
WHERE expires_at IS NOT NULL;

CREATE TABLE IF NOT EXISTS carlos_cache_logged (
  namespace text NOT NULL,
  key_hash bytea NOT NULL,
  key bytea NOT NULL,
  value bytea NOT NULL,
  size bigint NOT NULL,
  stored_at bigint NOT NULL,
  expires_at bigint,
  PRIMARY KEY (namespace, key_hash));

CREATE INDEX IF NOT EXISTS carlos_cache_logged_age ON carlos_cache_logged (namespace, stored_at);

CREATE INDEX IF NOT EXISTS carlos_cache_logged_expiry ON carlos_cache_logged (namespace, expires_at)
WHERE expires_at IS NOT NULL;

CREATE UNLOGGED TABLE IF NOT EXISTS carlos_cache_leases (
  namespace text NOT NULL,
  key_hash bytea NOT NULL,
  owner uuid NOT NULL,
  deadline bigint NOT NULL,
  PRIMARY KEY (namespace, key_hash));

ALTER TABLE carlos_cache OWNER TO carlos_cache_owner;

ALTER TABLE carlos_cache_leases OWNER TO carlos_cache_owner;

ALTER TABLE carlos_cache_logged OWNER TO carlos_cache_owner;

GRANT SELECT, INSERT, UPDATE, DELETE ON carlos_cache, carlos_cache_logged, carlos_cache_leases
TO carlos_cache_user;

ALTER TABLE carlos_cache ENABLE ROW LEVEL SECURITY;

ALTER TABLE carlos_cache_logged ENABLE ROW LEVEL SECURITY;

ALTER TABLE carlos_cache_leases ENABLE ROW LEVEL SECURITY;

DROP POLICY IF EXISTS carlos_own_namespace ON carlos_cache;

CREATE POLICY carlos_own_namespace ON carlos_cache TO carlos_cache_user
USING (namespace = current_user OR starts_with(namespace, current_user || '.'))
WITH CHECK (namespace = current_user OR starts_with(namespace, current_user || '.'));

DROP POLICY IF EXISTS carlos_own_namespace ON carlos_cache_logged;

CREATE POLICY carlos_own_namespace ON carlos_cache_logged TO carlos_cache_user
USING (namespace = current_user OR starts_with(namespace, current_user || '.'))
WITH CHECK (namespace = current_user OR starts_with(namespace, current_user || '.'));

DROP POLICY IF EXISTS carlos_own_namespace ON carlos_cache_leases;

CREATE POLICY carlos_own_namespace ON carlos_cache_leases TO carlos_cache_user
USING (namespace = current_user OR starts_with(namespace, current_user || '.'))
WITH CHECK (namespace = current_user OR starts_with(namespace, current_user || '.'));

COMMIT;
