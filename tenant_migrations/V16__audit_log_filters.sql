-- The audit trail's screen (GET /api/audit): newest first, filtered by actor (or the super
-- admin behind an impersonation) and by action, within days. Indexes only: safe to apply while
-- older servers still run.

-- The unfiltered page, in the order it is read (ties on the instant broken by id).
create index audit_log_at_id_idx on audit_log (at desc, id desc);

-- One actor's entries, newest first.
create index audit_log_actor_idx on audit_log (actor, at desc, id desc);

-- What a super admin did while impersonating.
create index audit_log_impersonated_by_idx on audit_log (impersonated_by, at desc, id desc)
    where impersonated_by is not null;

-- One action's entries, newest first.
create index audit_log_action_idx on audit_log (action, at desc, id desc);
