-- Dashboard: each closed day's figures also keep the points returned that day (returns of
-- accreditations that are not voided). Entries cached before this column are null there and are
-- computed again at the next dashboard; so are those an older server writes while both run.
alter table daily_figures add column returned bigint;
