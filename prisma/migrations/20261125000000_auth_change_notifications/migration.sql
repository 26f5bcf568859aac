-- Each app instance caches who a session cookie or an API token belongs to, and LISTENs on
-- "lb_auth_changes" to forget it all: any change that can take access away (a role, a
-- deactivation, a revoked or expiring token, an ended session) notifies every instance at commit,
-- whoever makes it (the app's services, the sign-in library, an admin in psql).
CREATE FUNCTION "notify_auth_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lb_auth_changes', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "User_auth_change"
  AFTER UPDATE OF "role", "deactivatedAt", "email", "name" OR DELETE ON "User"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_auth_change"();

CREATE TRIGGER "Session_auth_change"
  AFTER UPDATE OF "token", "userId", "expiresAt" OR DELETE ON "Session"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_auth_change"();

CREATE TRIGGER "ApiToken_auth_change"
  AFTER UPDATE OF "revokedAt", "expiresAt", "scopes", "userId", "secretHash" OR DELETE ON "ApiToken"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_auth_change"();
